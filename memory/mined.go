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

// minedCommitsText is a second table of the same form, mined by bench/assoc
// -commits from other projects' git histories: the words of a commit's
// subject against the names of the definitions, files and lines it
// changed. A subject says what was wanted in a user's words, as a request
// does. A word no file has takes its partners after the first table's; a
// word that only minedRareFiles files have, whose own matches may be the
// wrong files, takes them alone (docs/benchmarks.md, issue 34's ninth
// pass).
//
//go:embed minedcommits.txt
var minedCommitsText string

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
	// minedRareFiles is the most files whose text may have a word that
	// the commit table expands all the same (on the short dev sets, 1 moved
	// three items up and one down, 2 five up and three down, 5 and more
	// churned; docs/benchmarks.md).
	minedRareFiles = 1
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

// minedCommitTable is the table of commit histories, parsed likewise.
var minedCommitTable = sync.OnceValue(func() map[string][]minedPartner { return parseMined(minedCommitsText) })

// parseMined parses a table: stemmed word → its partners, strongest
// first. A line with no fields is skipped and so is a partner without a
// number for its strength or without its word, so that a damaged table
// costs its bad lines, not the search.
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
			if ok && err == nil && t != "" {
				ps = append(ps, minedPartner{t, float64(n) / 100})
			}
		}
		slices.SortStableFunc(ps, func(a, b minedPartner) int { return cmp.Compare(b.strength, a.strength) })
		m[fields[0]] = ps
	}
	return m
}

// minedPartners returns the partners of the stemmed word term: of a word
// no file's text has, the doc comments' table's and then the commit
// table's that the first did not give; of a word some files have
// (written), the commit table's only.
func minedPartners(term string, written bool) []minedPartner {
	commits := leadingPartners(minedCommitTable()[term])
	if written {
		return commits
	}
	ps := leadingPartners(minedTable()[term])
	for _, p := range commits {
		if !slices.ContainsFunc(ps, func(q minedPartner) bool { return q.term == p.term }) {
			ps = append(ps, p)
		}
	}
	return ps
}

// leadingPartners returns a table's partners of a word (strongest first)
// that are at least minedMin strong, at most minedTop of them.
func leadingPartners(ps []minedPartner) []minedPartner {
	n := 0
	for n < len(ps) && n < minedTop && ps[n].strength >= minedMin {
		n++
	}
	return ps[:n:n] // full: an append copies
}

// minedWeightOf is what a match of a mined partner of the given strength
// counts for: the stronger the association the more, up to minedWeight.
func minedWeightOf(strength float64) float64 {
	return minedWeight * min(1, strength/minedFull)
}
