package memory

import (
	"slices"
	"strings"
	"testing"
)

// spelled returns the query's words as it spells them.
func spelled(p parsed) []string {
	var out []string
	for _, w := range p.words {
		out = append(out, w.cased)
	}
	return out
}

// checkPairs fails unless every word of p is its spelled form lower-cased:
// the rules read the one, the terms are read from the other.
func checkPairs(t *testing.T, p parsed) {
	t.Helper()
	for _, w := range p.words {
		if w.lower != strings.ToLower(w.cased) {
			t.Errorf("word %q: lower-case form %q", w.cased, w.lower)
		}
	}
}

// Every place that adds words to a query adds both their forms: the
// query's own words, a filter's words made plain again, and a long text's
// title read a second time keep the query's spelling beside the
// lower-case form, so that ObjectUtils is still looked up as one.
func TestQueryWordsKeepTheirSpelling(t *testing.T) {
	a := newAnalyzer()
	none := func(string) bool { return false }

	p := parseQuery("ObjectUtils isEmpty Python tests", a, none)
	checkPairs(t, p)
	if got := spelled(p); !slices.Equal(got, []string{"ObjectUtils", "isEmpty"}) {
		t.Fatalf("words = %q, want ObjectUtils isEmpty (the filter words apart)", got)
	}
	if !p.hasWord("objectutils") || p.hasWord("ObjectUtils") {
		t.Errorf("hasWord compares the lower-case form: words %q", spelled(p))
	}

	// a filter that matched nothing: its words are words again
	p.dropFilters()
	checkPairs(t, p)
	for _, w := range []string{"tests", "python"} {
		if !p.hasWord(w) {
			t.Errorf("after dropFilters, words = %q, want %q among them", spelled(p), w)
		}
	}
	if got := p.lowerWords(); len(got) != len(p.words) || got[0] != "objectutils" {
		t.Errorf("lowerWords = %q, want one for each word, lower-case", got)
	}

	// a long text's title counts twice, spelled as the text spells it
	report := "ObjectUtils.isEmpty throws on an empty CharSequence\n\n" +
		strings.Repeat("The method is called with an empty value and it throws instead of returning true.\n", 3)
	var st state
	p = parseQuery(report, a, none)
	if !p.long {
		t.Fatal("the report is not read as a long text")
	}
	before := len(p.words)
	st.readEvidence(&p, report, a)
	checkPairs(t, p)
	title := spelled(p)[before:]
	if !slices.Contains(title, "ObjectUtils") || !slices.Contains(title, "CharSequence") {
		t.Errorf("the title's words read again = %q, want ObjectUtils and CharSequence as spelled", title)
	}
}
