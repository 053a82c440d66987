package memory

import (
	_ "embed"
	"slices"
	"sync"
)

// wordnetText is a table of English word relations derived from Princeton
// WordNet 3.0 by bench/wordnet: for each stemmed adjective, the nouns
// WordNet names as its attribute (big, large, small: size; old: age; deep:
// depth; wide: width; alive: live), the quantity the adjective measures,
// which code names where a request says the adjective ("reject requests
// whose payload is too big": maxSize; "keep fewer old revisions": maxAge).
// Its header says how it was made and carries WordNet's notice, which
// WordNet's licence asks every copy to keep.
//
// A short request's word matches its attribute nouns that the index has,
// at wordnetWeight of a match of the word. Only the attributes: WordNet's
// synonyms and hypernyms carry every sense of a word (ram: the sheep and
// the memory) and, expanded for every word, moved more items out of the
// top five than into it on the short sets; a word's derivation family
// (marker: mark, user: use) moved three times the items for a like gain
// and cost first places (docs/benchmarks.md, issue 34's twelfth pass). A
// long text is not expanded.
//
//go:embed wordnet.txt
var wordnetText string

// wordnetWeight is what a match of an attribute noun counts for: as much
// as a concept partner's (conceptWeight), below the word itself.
const wordnetWeight = 0.3

// wordnetTable is the embedded table, parsed on the first short request
// that needs it and kept for the process.
var wordnetTable = sync.OnceValue(func() map[string][]minedPartner { return parseMined(wordnetText) })

// addWordNet adds to a short query's term q its WordNet attribute nouns
// that the index has, that q has not already and that are
// no term of the query (query's keys), each at wordnetWeight times its
// strength, and returns the document frequency q counts with (df, or when
// that is 0 the first such member's).
func (st *state) addWordNet(q *qterm, df float64, query map[string]float64) float64 {
	for _, p := range wordnetTable()[q.term] {
		if query[p.term] > 0 || slices.Contains(q.altTerm, p.term) {
			continue // the query's own word counts already
		}
		at, ap := st.text.find(p.term), st.path.find(p.term)
		if at == nil && ap == nil {
			continue
		}
		q.addAlt(at, ap, p.term, wordnetWeight*p.strength, sepWordNet)
		if df == 0 {
			df = float64(max(listDF(at), listDF(ap)))
		}
	}
	return df
}
