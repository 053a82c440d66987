package engine

import (
	"math/rand"
	"strconv"
	"strings"
	"testing"
)

// sequential is the edit rule applied literally, one edit after another.
func sequential(text string, edits []Edit) (string, bool) {
	for i, ed := range edits {
		var w any
		if text, w = applyEditResult(text, i, ed); w != nil {
			return "", false
		}
	}
	return text, true
}

func applyEditResult(text string, i int, ed Edit) (string, any) {
	out, w := applyEdit("f", text, i, ed)
	if w != nil {
		return "", w
	}
	return out, nil
}

// TestApplyEditsOnePass: on random texts and edits (of a small alphabet,
// so that old texts recur, overlap, and new texts make later old texts
// appear), applyEdits gives exactly what the sequential rule gives, the
// same failures included; and the one-pass path is taken often enough
// for the comparison to mean something.
func TestApplyEditsOnePass(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	word := func(n int) string {
		var b strings.Builder
		for i := 0; i < n; i++ {
			b.WriteByte("abcx\n"[rng.Intn(5)])
		}
		return b.String()
	}
	onePass := 0
	for iter := 0; iter < 20000; iter++ {
		text := word(20 + rng.Intn(200))
		var edits []Edit
		for k := 0; k < 1+rng.Intn(6); k++ {
			old := ""
			if rng.Intn(3) > 0 && len(text) > 8 {
				at := rng.Intn(len(text) - 6)
				old = text[at : at+2+rng.Intn(5)] // often unique, sometimes not
			} else {
				old = word(1 + rng.Intn(4))
			}
			edits = append(edits, Edit{OldText: old, NewText: word(rng.Intn(5))})
		}
		want, wantOK := sequential(text, edits)
		got, w := applyEdits("f", text, edits)
		if (w == nil) != wantOK || got != want {
			t.Fatalf("text %q edits %+v: got %q, %v; sequential %q, %v", text, edits, got, w, want, wantOK)
		}
		if _, ok := applyEditsOnePass(text, edits); ok {
			onePass++
		}
	}
	if onePass < 500 {
		t.Errorf("the one-pass path was taken %d times in 20000: the test does not reach it", onePass)
	}
}

// TestMatcher: every occurrence of every pattern is found, overlapping
// ones, patterns inside others and repeated patterns included.
func TestMatcher(t *testing.T) {
	const text = "ushers she hishe"
	pats := []string{"he", "she", "his", "hers", "e", "she", "zz"}
	counts := make([]int, len(pats))
	newMatcher(pats).scan(text, func(p, end int) {
		if !strings.HasSuffix(text[:end], pats[p]) {
			t.Errorf("%s reported ending at %d", pats[p], end)
		}
		counts[p]++
	})
	for p, s := range pats {
		want := 0
		for i := range text {
			if strings.HasPrefix(text[i:], s) {
				want++
			}
		}
		if counts[p] != want {
			t.Errorf("%s: %d occurrences, want %d", s, counts[p], want)
		}
	}
}

// BenchmarkEdit1000 applies 1000 edits to a 9 MB text (the figure of
// issue 31: the sequential rule took 3.7 s through the server).
func BenchmarkEdit1000(b *testing.B) {
	var sb strings.Builder
	for i := 0; sb.Len() < 9<<20; i++ {
		sb.WriteString("line " + strings.Repeat("x", 40) + " number " + strconv.Itoa(i) + " end\n")
	}
	text := sb.String()
	var edits []Edit
	for i := 0; i < 1000; i++ {
		n := i * 140
		edits = append(edits, Edit{OldText: " number " + strconv.Itoa(n) + " end\n", NewText: " number " + strconv.Itoa(n) + " edited\n"})
	}
	b.SetBytes(int64(len(text)))
	for i := 0; i < b.N; i++ {
		if _, w := applyEdits("f", text, edits); w != nil {
			b.Fatal(w)
		}
	}
}
