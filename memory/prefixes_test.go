package memory

import "testing"

func TestPrefixBase(t *testing.T) {
	for w, want := range map[string]string{
		"rewrap":     normalise("wrap"),
		"prefill":    normalise("fill"),
		"unpack":     normalise("pack"),
		"retry":      "", // "try" is too short a base
		"unset":      "",
		"re":         "",
		"Rewrap":     "", // words come lower-case; anything else is no simple word
		"re-wrap":    "",
		"redirect":   "", // words that only look prefixed (notPrefixed)
		"unless":     "",
		"displays":   "",
		"determined": "",
		"recovering": "",
	} {
		if got := prefixBase(w); got != want {
			t.Errorf("prefixBase(%q) = %q, want %q", w, got, want)
		}
	}
}
