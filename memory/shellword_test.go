package memory

import (
	"slices"
	"testing"
)

// "shell" filters to shell scripts only before a type noun: in "the
// current shell session" or "a Nix shell environment" it is the program,
// the request's subject, and a word to match.
func TestShellIsAFilterOnlyBeforeATypeNoun(t *testing.T) {
	a := newAnalyzer()
	none := func(string) bool { return false }
	for _, q := range []string{
		"show how deeply nested the current shell session is",
		"indicator for a Nix shell environment",
		"fish shell init script that installs the prompt functions",
	} {
		p := parseQuery(q, a, none)
		if len(p.langs) != 0 {
			t.Errorf("%q: filters to %v, want no filter", q, p.langs)
		}
		if !p.hasWord("shell") {
			t.Errorf("%q: words %q, want shell among them", q, spelled(p))
		}
	}
	for _, q := range []string{"shell scripts that install the binary", "shell files", "bash scripts"} {
		p := parseQuery(q, a, none)
		if !slices.Contains(p.langs, ".sh") {
			t.Errorf("%q: filters to %v, want shell scripts (.sh)", q, p.langs)
		}
	}
}
