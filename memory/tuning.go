//go:build tuning

package memory

import (
	"math"
	"runtime"
	"slices"
	"strings"
)

// Fitting the boosts (bench/tune). Built only with -tags tuning, this file
// gives the retrieval harness each query's candidates before the boosts and
// demotions of adjust and the unit stage apply: their scores, which factors
// applied to each and what its best unit scored, so that a program can rank
// them again with other values of the constants without searching again.

// TuneConsts are the constants a dump's factors name, at their values in
// this build.
var TuneConsts = map[string]float64{
	"boostMention": boostMention, "boostSubject": boostSubject, "boostSubjectLong": boostSubjectLong,
	"boostPartner": boostPartner, "boostPhraseLong": boostPhraseLong, "boostFrame": boostFrame, "boostScope": boostScope, "boostLang": boostLang,
	"demoteRole": demoteRole, "demoteDoc": demoteDoc, "demoteDocLong": demoteDocLong,
	"demoteOtherLong": demoteOtherLong, "demoteOtherShort": demoteOtherShort,
	"demoteTemplateLong": demoteTemplateLong, "demoteNotCodeReport": demoteNotCodeReport,
	"unitMix": unitMix, "unitCands": unitCands,
}

// A TuneCand is a candidate of a query that passed its filters.
type TuneCand struct {
	Rel   string
	Raw   float64        // its score before adjust
	Adj   float64        // after adjust
	F     map[string]int `json:",omitempty"` // the constants adjust multiplied Raw by, each with its power
	Read  bool           `json:",omitempty"` // its best unit was read (unitScores)
	Share float64        `json:",omitempty"` // that unit's share of the terms
	Form  bool           `json:",omitempty"` // a long text demotes it as read (readAs)
	Code  float64        `json:",omitempty"` // the part of its match left by its doc comments (codePart)
}

// A TuneQuery is what TuneDump returns.
type TuneQuery struct {
	Long     bool
	Units    bool       // the query has terms to look for in units
	Cands    []TuneCand // the k best by Raw, ties by path, and boosted ones further down
	RawCut   float64    // the Raw of the best candidate left out, 0 for none
	Mismatch int        // candidates whose notes did not account for Adj
}

// TuneDump returns query's k best candidates by their scores before boosts,
// as Search with opt (its Source for the units) would rank them, and the
// boosted ones among the tuneDeep*k best: a file named after the query
// ranks high from far down.
func (ix *Index) TuneDump(query string, opt SearchOptions, k int) TuneQuery {
	ix.mu.RLock()
	st, hist := ix.st, ix.hist
	ix.mu.RUnlock()
	defer runtime.KeepAlive(st)
	var out TuneQuery
	if st.live == 0 {
		return out
	}
	a := newAnalyzer()
	p, _ := st.parse(query, hist, a)
	if p.searchAgain(st.search(a, p, opt)) {
		p.dropFilters()
	}
	qs, scores, _ := st.score(a, &p)
	out.Long = p.long
	if scores == nil {
		return out
	}
	st.documentedCode(scores, p, opt)
	var raw []cand
	for d, s := range scores {
		if s > 0 && !st.dead[d] {
			raw = append(raw, cand{doc: d, score: s})
		}
	}
	slices.SortFunc(raw, func(x, y cand) int {
		if c := cmpFloat(y.score, x.score); c != 0 {
			return c
		}
		return strings.Compare(st.docs[x.doc].rel, st.docs[y.doc].rel)
	})
	terms := unitTermsOf(qs)
	out.Units = len(terms) > 0
	docTF := unitDocTF
	if p.long {
		docTF = unitDocTFLong
	}
	kept := 0 // candidates that passed the filters
	for _, r := range raw {
		rel := st.docs[r.doc].rel
		c, ok := p.adjust(r, rel, opt)
		if !ok {
			continue
		}
		if kept++; kept > tuneDeep*k {
			break
		}
		tc := TuneCand{Rel: rel, Raw: r.score, Adj: c.score}
		if !p.tuneFactors(&tc, c.notes) {
			out.Mismatch++
		}
		if kept > k && !tc.boosted() {
			// past the k best, only a boost can lift a file
			// into the first ten
			if out.RawCut == 0 {
				out.RawCut = r.score
			}
			continue
		}
		if out.Units && opt.Source != nil {
			f := st.readUnit(rel, terms, docTF, opt.Source, p.long)
			tc.Read, tc.Share, tc.Form, tc.Code = f.ok, f.share, f.form != "", f.code
		}
		out.Cands = append(out.Cands, tc)
	}
	return out
}

const tuneDeep = 10

// boosted reports whether a boost applied to tc.
func (tc *TuneCand) boosted() bool {
	for name := range tc.F {
		if strings.HasPrefix(name, "boost") {
			return true
		}
	}
	return false
}

// tuneFactors sets tc.F from the notes adjust left, and reports whether
// they account for tc.Adj. "named after" is a short request's subject or
// partner: the one that accounts for the score.
func (p *parsed) tuneFactors(tc *TuneCand, notes []string) bool {
	long := func(l, s string) string {
		if p.long {
			return l
		}
		return s
	}
	f := map[string]int{}
	named := false
	for _, n := range notes {
		switch {
		case n == "report template demoted":
			f["demoteTemplateLong"]++
		case n == "test file demoted" || n == "vendored code demoted":
			f["demoteRole"]++
		case n == "documentation demoted" || n == "example code demoted":
			f[long("demoteDocLong", "demoteDoc")]++
		case n == "translations demoted":
			f["demoteDoc"]++
		case n == "not code: demoted":
			f[long("demoteOtherLong", "demoteOtherShort")]++
		case n == "not code in a report":
			f["demoteNotCodeReport"]++
		case strings.HasPrefix(n, "language "):
			f["boostLang"]++
		case strings.HasPrefix(n, "scope ") && p.long:
			f["boostScope"]++
		case strings.HasPrefix(n, "mentioned as ") || strings.HasPrefix(n, "module "):
			f["boostMention"]++
		case n == "innermost traceback frame in the project":
			f["boostFrame"]++
		case strings.HasPrefix(n, "named after ") && strings.HasSuffix(n, " (a phrase)"):
			f["boostPhraseLong"]++
		case strings.HasPrefix(n, "named after "):
			named = true
		}
	}
	tc.F = f
	if !named {
		return tuneAccounts(tc)
	}
	for _, b := range []string{long("boostSubjectLong", "boostSubject"), "boostPartner"} {
		f[b]++
		if tuneAccounts(tc) {
			return true
		}
		f[b]--
	}
	f[long("boostSubjectLong", "boostSubject")]++
	return false
}

// tuneAccounts reports whether tc's factors take its Raw to its Adj.
func tuneAccounts(tc *TuneCand) bool {
	s := tc.Raw
	for name, e := range tc.F {
		s *= math.Pow(TuneConsts[name], float64(e))
	}
	return math.Abs(s-tc.Adj) <= 1e-9*math.Max(1, tc.Adj)
}
