package project

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestMergeSorted merges sorted lists of every length, duplicates
// included, and compares the result with sorting them all.
func TestMergeSorted(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for round := range 200 {
		lists := make([][]int, rng.IntN(5))
		var want []int
		for k := range lists {
			for range rng.IntN(30) {
				lists[k] = append(lists[k], rng.IntN(40))
			}
			slices.Sort(lists[k])
			want = append(want, lists[k]...)
		}
		slices.Sort(want)
		before := fmt.Sprint(lists)
		got := mergeSorted(lists, cmp.Compare[int])
		if !slices.Equal(got, want) {
			t.Errorf("round %d: mergeSorted(%v) = %v, want %v", round, lists, got, want)
		}
		if after := fmt.Sprint(lists); after != before {
			t.Errorf("round %d: mergeSorted changed its lists: %s, were %s", round, after, before)
		}
	}
}
