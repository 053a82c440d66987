package memory

import (
	"slices"
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

// No word of the broad thesaurus shares its stem with a common word of a
// request that means something else: "follower" stems to follow (a
// replica's partner would match "follow redirects"), "majority" to major
// ("the major version"), "integrity" to integr ("integration tests"),
// "severity" to sever ("several"), "terminal" to termin ("terminate"),
// "encoding" to encod ("encode"), "completion" to complet ("complete"),
// "resolver" to resolv ("resolve a path"), "generated" to generat
// ("generate"), and "guide" to guid, a GUID. A group may list such a word
// itself; then it means it.
func TestConceptGroupsCommonStems(t *testing.T) {
	common := strings.Fields("follow following followed major integration integrate integral several severe " +
		"terminate termination encode encoded encoder complete completed completely resolve resolved " +
		"generate generator generation guid")
	for _, line := range strings.Split(broadConcepts, "\n") {
		words := strings.Fields(line)
		for _, c := range common {
			if slices.Contains(words, c) {
				continue
			}
			for _, w := range words {
				if normalise(w) == normalise(c) {
					t.Errorf("group %q: %q stems as %q does (%q)", line, w, c, normalise(c))
				}
			}
		}
	}
}
