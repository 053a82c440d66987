package memory

import (
	"strings"
	"testing"
)

// Every group of the thesaurus keeps two distinct terms or more after
// stemming, and no word of it stems to a stop word or to nothing: such a
// group matches less than it says, or nothing.
func TestConceptGroupsStem(t *testing.T) {
	for _, line := range strings.Split(broadConcepts, "\n") {
		terms := map[string]bool{}
		for _, w := range strings.Fields(line) {
			s := normalise(w)
			if s == "" {
				t.Errorf("group %q: %q stems to nothing (a stop word)", line, w)
			}
			terms[s] = true
		}
		if len(terms) < 2 {
			t.Errorf("group %q: %d distinct terms, want two or more", line, len(terms))
		}
	}
}
