package memory

import (
	"slices"
	"strings"
	"testing"
)

// The mined table gives a word the code words other projects write under
// it, strongest first, never the word's own stem, and stays small enough
// to embed.
func TestMinedTable(t *testing.T) {
	if len(minedText) > 1<<20 {
		t.Errorf("mined.txt is %d bytes, want at most 1 MiB", len(minedText))
	}
	if !strings.HasPrefix(minedText, "# ") {
		t.Error("mined.txt has no header saying how it was made")
	}
	for word, want := range map[string]string{
		normalise("retry"):    "backoff",
		normalise("throttle"): normalise("rate"),
		normalise("archive"):  "tar",
		normalise("evict"):    "lru",
	} {
		ps := leadingPartners(minedTable()[word])
		found := false
		for i, p := range ps {
			found = found || p.term == want
			if p.term == word {
				t.Errorf("%s: partner %s is the word itself", word, p.term)
			}
			if p.strength < minedMin || p.strength > 1 || i > 0 && p.strength > ps[i-1].strength {
				t.Errorf("%s: strengths %v out of range or order", word, ps)
			}
		}
		if !found || len(ps) > minedTop {
			t.Errorf("minedPartners(%q) = %v, want %s among at most %d", word, ps, want, minedTop)
		}
	}
	if w := minedWeightOf(1); w >= conceptWeight {
		t.Errorf("a mined partner counts %g, want less than a concept's %g", w, conceptWeight)
	}
	if ps := minedPartners("no-such-word", false); ps != nil {
		t.Errorf("minedPartners of an unknown word = %v", ps)
	}
}

// The commit table is small enough to embed, says how it was made, and
// gives a word the code words other projects' commits changed under it,
// never the word's own stem. A word no file has takes both tables'
// partners, the first table's first and none twice; a word some files
// have, the commit table's only.
func TestMinedCommitTable(t *testing.T) {
	if len(minedCommitsText) > 256<<10 {
		t.Errorf("minedcommits.txt is %d bytes, want at most 256 KiB", len(minedCommitsText))
	}
	if !strings.HasPrefix(minedCommitsText, "# ") || !strings.Contains(minedCommitsText[:400], "commit") {
		t.Error("minedcommits.txt has no header saying how it was made")
	}
	for word, want := range map[string]string{
		normalise("retry"):    "backoff",
		normalise("balance"):  "robin",
		normalise("archive"):  "tar",
		normalise("circular"): normalise("cycle"),
	} {
		ps := minedPartners(word, true)
		if !slices.ContainsFunc(ps, func(p minedPartner) bool { return p.term == want }) || len(ps) > minedTop {
			t.Errorf("minedPartners(%q, written) = %v, want %s among at most %d", word, ps, want, minedTop)
		}
		table := slices.Clone(minedTable()[word])
		all := minedPartners(word, false)
		if !slices.Equal(minedTable()[word], table) {
			t.Errorf("%s: minedPartners changed the first table's line: %v, was %v", word, minedTable()[word], table)
		}
		doc := leadingPartners(minedTable()[word])
		if !slices.Equal(all[:len(doc)], doc) {
			t.Errorf("%s: partners %v do not start with the first table's %v", word, all, doc)
		}
		seen := map[string]bool{}
		for _, p := range all {
			if seen[p.term] || p.term == word {
				t.Errorf("%s: partner %s twice or the word itself: %v", word, p.term, all)
			}
			seen[p.term] = true
		}
	}
}

// A malformed line of the table (blank but for spaces or a carriage
// return, a partner without its strength or its word) is skipped, not a panic on the
// first short request.
func TestParseMinedMalformed(t *testing.T) {
	m := parseMined("# header\n \r\n\t\nretri backoff:46 attempt jitter:x tri: :50\nlone\n")
	if ps := m["retri"]; len(ps) != 1 || ps[0] != (minedPartner{"backoff", 0.46}) {
		t.Errorf("retri's partners = %v, want backoff:0.46 only", ps)
	}
	if len(m) != 2 {
		t.Errorf("table = %v, want the two words' lines only", m)
	}
}

// TestParseMinedOrder: a line's partners come out strongest first whatever
// the order they are written in, as minedPartners, which stops at the
// first too weak, expects.
func TestParseMinedOrder(t *testing.T) {
	m := parseMined("evict stale:19 lru:36 pop:30 fetch:30\n")
	want := []minedPartner{{"lru", 0.36}, {"pop", 0.30}, {"fetch", 0.30}, {"stale", 0.19}}
	if !slices.Equal(m["evict"], want) {
		t.Errorf("evict's partners = %v, want %v", m["evict"], want)
	}
}
