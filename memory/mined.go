package memory

import (
	"cmp"
	_ "embed"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// minedText is a table of associations between English words and code
// words, mined by bench/assoc from other projects' doc comments and the
// code they document (no project of a retrieval set among them): for each
// stemmed English word, the stemmed code words that stand most often
// under it, with the strength of the association (NPMI, x100). Its header
// says how it was made.
//
// A short request's word that no file's text has ("throttle" in a project
// that says "rate" and "limiter") matches the table's partners of it that
// the index has, each at minedWeight times its strength: a source of
// meaning outside the project's own words, for the words the project
// never writes. A word the project has is not expanded (the partners are
// topical, not synonyms: expanding every word moved files named after a
// partner above the request's own; docs/benchmarks.md, issue 34's eighth
// pass), nor is a long text.
//
//go:embed mined.txt
var minedText string

const (
	// minedWeight is what a match of a mined partner of full strength
	// counts for: below conceptWeight, as the table's partners are looser
	// than the hand-written concepts.
	minedWeight = 0.25
	// minedMin is the least strength (NPMI) of a partner used.
	minedMin = 0.2
	// minedTop is how many partners of a word are used at most.
	minedTop = 3
	// minedFull is the strength from which a partner counts minedWeight.
	minedFull = 0.5
)

// A minedPartner is a code word the table associates with an English
// word, and the strength of that association, in (0, 1].
type minedPartner struct {
	term     string
	strength float64
}

// minedTable is the embedded table, parsed on the first short request
// that needs it and kept for the process.
var minedTable = sync.OnceValue(func() map[string][]minedPartner { return parseMined(minedText) })

// parseMined parses a table: stemmed word → its partners, strongest
// first. A line with no fields is skipped and so is a partner without a
// number for its strength, so that a damaged table costs its bad lines,
// not the search.
func parseMined(text string) map[string][]minedPartner {
	m := map[string][]minedPartner{}
	for _, line := range strings.Split(text, "\n") {
		fields := strings.Fields(line)
		if len(fields) == 0 || fields[0][0] == '#' {
			continue
		}
		var ps []minedPartner
		for _, f := range fields[1:] {
			t, s, ok := strings.Cut(f, ":")
			n, err := strconv.Atoi(s)
			if ok && err == nil {
				ps = append(ps, minedPartner{t, float64(n) / 100})
			}
		}
		slices.SortStableFunc(ps, func(a, b minedPartner) int { return cmp.Compare(b.strength, a.strength) })
		m[fields[0]] = ps
	}
	return m
}

// minedPartners returns the partners the table gives the stemmed word
// term that are at least minedMin strong, at most minedTop of them.
func minedPartners(term string) []minedPartner {
	ps := minedTable()[term] // strongest first
	n := 0
	for n < len(ps) && n < minedTop && ps[n].strength >= minedMin {
		n++
	}
	return ps[:n]
}

// minedWeightOf is what a match of a mined partner of the given strength
// counts for: the stronger the association the more, up to minedWeight.
func minedWeightOf(strength float64) float64 {
	return minedWeight * min(1, strength/minedFull)
}
