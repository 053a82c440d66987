package main

import (
	"slices"
	"testing"
)

// TestRerank ranks a query's candidates as memory's rank and unitScores
// do: by score as adjusted, ties by path, then the best files mixed with
// their best unit's share; tests left out of a bug-report run's ten.
func TestRerank(t *testing.T) {
	v := make([]float64, len(params))
	for k := range v {
		v[k] = 1
	}
	v[iSubject], v[iMix] = 1.6, 0.3
	exps := func(k int) []int8 {
		e := make([]int8, len(params))
		if k >= 0 {
			e[k] = 1
		}
		return e
	}
	it := item{limit: 40, units: true, cands: []cand{
		{rel: "b.go", raw: 0.5, exps: exps(-1), read: true, share: 0.2},
		{rel: "a.go", raw: 0.5, exps: exps(-1), read: true, share: 0.2},
		{rel: "named.go", raw: 0.4, exps: exps(iSubject), read: true, share: 0.1},
		{rel: "x_test.go", raw: 0.9, exps: exps(-1), read: true, share: 0.2, test: true},
	}}
	// named.go: 0.64 × (0.7 + 0.3 × 0.5) = 0.544 beats 0.5 × 1
	if got, want := it.rerank(v, nil), []string{"named.go", "a.go", "b.go"}; !slices.Equal(got, want) {
		t.Errorf("rerank = %v, want %v", got, want)
	}
	v[iMix] = 0.9 // named.go: 0.64 × 0.55 = 0.352
	if got, want := it.rerank(v, nil), []string{"a.go", "b.go", "named.go"}; !slices.Equal(got, want) {
		t.Errorf("with unitMix 0.9: rerank = %v, want %v", got, want)
	}
}
