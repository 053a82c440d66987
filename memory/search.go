package memory

import (
	"bytes"
	"fmt"
	"math"
	"path"
	"runtime"
	"slices"
	"sort"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// SearchOptions tune Search.
type SearchOptions struct {
	Limit    int      // maximum matches; 0 means 10, negative means no limit
	MinScore float64  // drop matches scoring below this
	Include  []string // if any, keep only files matching one of these doublestar globs (slash paths relative to the project)
	Exclude  []string // drop files matching any of these globs
	Explain  bool     // fill Reason.Scores with each term's contribution
	// Source, if set, is read for the best-matching line of each match.
	Source Source
}

// Match is one file that matches a query.
type Match struct {
	Rel    string  `json:"rel"`   // slash path relative to the project
	Score  float64 `json:"score"` // in [0,1]
	Reason Reason  `json:"reason"`
}

// Reason says why a file matched. Its JSON form is what the CLI prints
// (search's matches, assemble's files); Search never leaves Terms nil, so
// it reads {} and not null.
type Reason struct {
	Terms  map[string][]string `json:"terms"`            // field ("path", "name", "ident", "content") → matched query terms
	Line   int                 `json:"line"`             // best-matching line, 1-based; 0 if unknown
	Text   string              `json:"text"`             // that line, trimmed and capped at 200 bytes
	Notes  []string            `json:"notes,omitempty"`  // filters and boosts that applied: "scope cmd", "mentioned", "test file demoted" …
	Scores map[string]float64  `json:"scores,omitempty"` // with Explain: query term → contribution to the raw score
}

// String returns a one-line summary: "name: auth; content: auth, token;
// line 12: func Authenticate(…)".
func (r Reason) String() string {
	var b strings.Builder
	for _, f := range []string{"name", "path", "ident", "content"} {
		if ts := r.Terms[f]; len(ts) > 0 {
			if b.Len() > 0 {
				b.WriteString("; ")
			}
			fmt.Fprintf(&b, "%s: %s", f, strings.Join(ts, ", "))
		}
	}
	for _, n := range r.Notes {
		if b.Len() > 0 {
			b.WriteString("; ")
		}
		b.WriteString(n)
	}
	if r.Line > 0 {
		if b.Len() > 0 {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "line %d: %s", r.Line, r.Text)
	}
	return b.String()
}

// maxQueryTerms caps the terms of a long query; the rarest are kept.
const maxQueryTerms = 64

// Boosts and demotions, multiplied into the score.
const (
	boostMention = 2.0  // the query names the file ("tsdb/head.go", "head.go:123")
	boostScope   = 1.3  // a long query says "in cmd/"
	boostLang    = 1.1  // a long query names the file's language
	demoteRole   = 0.75 // a test file when the query does not ask for tests
	demoteDoc    = 0.85 // documentation when the query does not ask for docs
)

type qterm struct {
	term    string
	surface string
	weight  float64 // query-term weight times IDF
	idf     float64
	text    []byte
	path    []byte
	alts    [][2][]byte // text and path lists of abbreviation partners
	altTerm []string    // those partners
}

// Search ranks the indexed files against query and returns the best,
// highest score first (ties by path). The score is the share of the
// query's IDF mass the file matches, each term saturated by BM25F, times
// the boosts, capped at 1.
//
// File-type words ("Python files", "tests", "markdown docs", "config") and
// path scopes ("in src/api", "under cmd/", "in the api directory") filter
// when the query is short; in a long text (more than 15 content words) they
// only boost, so a bug report that says "the tests fail" still finds the
// source file. Test files and documentation are demoted a little unless
// the query asks for them: a description usually means the code.
func (ix *Index) Search(query string, opt SearchOptions) []Match {
	ix.mu.RLock()
	st := ix.st
	ix.mu.RUnlock()
	// The posting lists may be a memory mapping released with st: keep st
	// alive until they are no longer read.
	defer runtime.KeepAlive(st)
	if st.live == 0 {
		return nil
	}
	a := newAnalyzer()
	p := parseQuery(query, a, st.dirExists)
	out := st.search(a, p, opt)
	if len(out) == 0 && p.roles != 0 {
		// A file-type word that filtered everything away was not meant as
		// a filter ("tests fail because ..."): search again with it as a
		// plain word.
		p.roles = 0
		p.words = append(p.words, p.roleWords...)
		out = st.search(a, p, opt)
	}
	return out
}

// search ranks st's documents for the parsed query p.
func (st *state) search(a *analyzer, p parsed, opt SearchOptions) []Match {
	// Query terms with their weights.
	qtf := make(map[string]float64)
	surface := make(map[string]string)
	var order []string
	for _, w := range p.words {
		a.identifier(w, func(term string, whole bool) {
			if _, ok := qtf[term]; !ok {
				order = append(order, term)
				surface[term] = term
				if !whole {
					surface[term] = strings.ToLower(a.lastPart(w, term))
				}
			}
			qtf[term]++
		})
	}
	N := float64(st.live)
	var qs []qterm
	alts := st.alternates()
	for _, t := range order {
		q := qterm{term: t, surface: surface[t], text: st.text.find(t), path: st.path.find(t)}
		df := float64(max(listDF(q.text), listDF(q.path)))
		for _, alt := range alts[t] {
			at, ap := st.text.find(alt), st.path.find(alt)
			if at != nil || ap != nil {
				q.alts = append(q.alts, [2][]byte{at, ap})
				q.altTerm = append(q.altTerm, alt)
				if df == 0 {
					df = float64(max(listDF(at), listDF(ap)))
				}
			}
		}
		if df == 0 {
			continue
		}
		q.idf = math.Log(1 + (N-df+0.5)/(df+0.5))
		q.weight = q.idf * (1 + math.Log(qtf[t]))
		qs = append(qs, q)
	}
	if len(qs) > maxQueryTerms {
		slices.SortStableFunc(qs, func(x, y qterm) int { return cmpFloat(y.weight, x.weight) })
		qs = qs[:maxQueryTerms]
	}

	// BM25F accumulation.
	n := len(st.docs)
	acc := make([]float64, n)
	tilde := make([]float64, n)
	var touched []uint32
	var total float64
	for qi := range qs {
		q := &qs[qi]
		touched = touched[:0]
		accumulate := func(list []byte, f0 int, w float64) {
			it := newIter(list, n)
			for it.next() {
				d := it.doc
				if st.dead[d] {
					continue
				}
				if tilde[d] == 0 {
					touched = append(touched, d)
				}
				nm := &st.norm[d]
				tilde[d] += w * (float64(it.tf[0])*float64(nm[f0]) + float64(it.tf[1])*float64(nm[f0+1]))
			}
		}
		accumulate(q.text, fContent, 1)
		accumulate(q.path, fPath, 1)
		df := len(touched) // exact: live documents with the term in any field
		for _, alt := range q.alts {
			accumulate(alt[0], fContent, altWeight)
			accumulate(alt[1], fPath, altWeight)
		}
		if df == 0 {
			df = len(touched)
		}
		q.idf = math.Log(1 + (N-float64(df)+0.5)/(float64(df)+0.5))
		q.weight = q.idf * (1 + math.Log(qtf[q.term]))
		if df > 0 {
			total += q.weight
		}
		for _, d := range touched {
			t := tilde[d]
			acc[d] += q.weight * t / (k1 + t)
			tilde[d] = 0
		}
	}
	if total == 0 {
		return nil
	}

	// Filters, boosts, normalisation. Candidates are visited by raw score;
	// once the limit is filled, a candidate whose raw score times the
	// largest boost this query can give cannot enter, and the visit stops.
	type cand struct {
		doc   int
		score float64
		notes []string
	}
	var raw []cand
	for d, s := range acc {
		if s > 0 {
			raw = append(raw, cand{doc: d, score: s / total})
		}
	}
	slices.SortFunc(raw, func(x, y cand) int {
		if c := cmpFloat(y.score, x.score); c != 0 {
			return c
		}
		return strings.Compare(st.docs[x.doc].rel, st.docs[y.doc].rel)
	})
	maxBoost := 1.0
	if len(p.mentions) > 0 {
		maxBoost *= boostMention
	}
	if p.long && len(p.scopes) > 0 {
		maxBoost *= boostScope
	}
	if p.long && len(p.langs) > 0 {
		maxBoost *= boostLang
	}
	limit := opt.Limit
	if limit == 0 {
		limit = 10
	}
	var cands []cand
	floor := 0.0 // the limit-th best score so far, once the limit is filled
	for _, c := range raw {
		if min(c.score*maxBoost, 1) < max(floor, opt.MinScore) {
			break
		}
		rel := st.docs[c.doc].rel
		if !globsAllow(rel, opt.Include, opt.Exclude) {
			continue
		}
		role := roleOf(rel)
		ok := true
		if p.notRoles&role != 0 {
			ok = false
		}
		if len(p.langs) > 0 {
			if hasExt(rel, p.langs) {
				if p.long {
					c.score *= boostLang
					c.notes = append(c.notes, "language "+strings.Join(p.langWord, "/"))
				}
			} else if !p.long {
				ok = false
			}
		}
		if p.roles != 0 && role&p.roles == 0 {
			ok = false
		}
		if !ok {
			continue
		}
		if p.roles&roleTest == 0 && isTest(rel) {
			c.score *= demoteRole
			c.notes = append(c.notes, "test file demoted")
		} else if p.roles&roleDoc == 0 && role&roleDoc != 0 && len(p.langs) == 0 {
			c.score *= demoteDoc
			c.notes = append(c.notes, "documentation demoted")
		}
		if len(p.scopes) > 0 {
			in := false
			for _, s := range p.scopes {
				if inScope(rel, s) {
					in = true
					c.notes = append(c.notes, "scope "+s)
					break
				}
			}
			if in && p.long {
				c.score *= boostScope
			} else if !in && !p.long {
				continue
			}
		}
		for _, m := range p.mentions {
			if pathMentioned(rel, m) {
				c.score *= boostMention
				c.notes = append(c.notes, "mentioned as "+m)
				break
			}
		}
		c.score = min(c.score, 1)
		if c.score < opt.MinScore {
			continue
		}
		cands = append(cands, c)
		if limit > 0 && len(cands) >= limit {
			slices.SortFunc(cands, func(x, y cand) int { return cmpFloat(y.score, x.score) })
			cands = cands[:limit]
			floor = cands[limit-1].score
		}
	}
	slices.SortStableFunc(cands, func(x, y cand) int {
		if c := cmpFloat(y.score, x.score); c != 0 {
			return c
		}
		return strings.Compare(st.docs[x.doc].rel, st.docs[y.doc].rel)
	})
	if limit > 0 && len(cands) > limit {
		cands = cands[:limit]
	}

	// Reasons for the matches kept.
	out := make([]Match, len(cands))
	pos := make(map[uint32]int, len(cands))
	for i, c := range cands {
		out[i] = Match{Rel: st.docs[c.doc].rel, Score: c.score, Reason: Reason{Terms: map[string][]string{}, Notes: c.notes}}
		if opt.Explain {
			out[i].Reason.Scores = map[string]float64{}
		}
		pos[uint32(c.doc)] = i
	}
	for _, q := range qs {
		type src struct {
			lists [2][]byte
			label string
			w     float64
		}
		srcs := []src{{[2][]byte{q.text, q.path}, q.surface, 1}}
		for ai, alt := range q.alts {
			srcs = append(srcs, src{alt, q.surface + "~" + q.altTerm[ai], altWeight})
		}
		for _, sc := range srcs {
			for k, list := range sc.lists {
				it := newIter(list, n)
				for it.next() {
					i, ok := pos[it.doc]
					if !ok {
						continue
					}
					r := &out[i].Reason
					for j := range 2 {
						if it.tf[j] > 0 {
							f := fieldNames[2*k+j]
							if !slices.Contains(r.Terms[f], sc.label) {
								r.Terms[f] = append(r.Terms[f], sc.label)
							}
						}
					}
					if opt.Explain {
						nm := &st.norm[it.doc]
						r.Scores[q.surface] += sc.w * (float64(it.tf[0])*float64(nm[2*k]) + float64(it.tf[1])*float64(nm[2*k+1]))
					}
				}
			}
		}
	}
	if opt.Explain {
		for i := range out {
			for _, q := range qs {
				if t, ok := out[i].Reason.Scores[q.surface]; ok {
					out[i].Reason.Scores[q.surface] = q.weight * t / (k1 + t)
				}
			}
		}
	}
	if opt.Source != nil {
		for i := range out {
			var lts []lineTerm
			for _, q := range qs {
				if slices.Contains(out[i].Reason.Terms["content"], q.surface) || slices.Contains(out[i].Reason.Terms["ident"], q.surface) {
					lts = append(lts, lineTerm{q.term, strings.ToLower(q.surface), q.idf})
				}
			}
			slices.SortStableFunc(lts, func(x, y lineTerm) int { return cmpFloat(y.idf, x.idf) })
			if len(lts) > 16 {
				lts = lts[:16]
			}
			out[i].Reason.Line, out[i].Reason.Text = bestLine(opt.Source, out[i].Rel, lts)
		}
	}
	return out
}

// lastPart returns the part of word w that analyses to term, for display.
func (a *analyzer) lastPart(w, term string) string {
	for _, p := range a.split(w) {
		if a.term(p) == term {
			return p
		}
	}
	return term
}

func listDF(list []byte) uint64 {
	it := newIter(list, 0)
	return it.df
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func globsAllow(rel string, include, exclude []string) bool {
	for _, g := range exclude {
		if ok, _ := doublestar.Match(g, rel); ok {
			return false
		}
	}
	if len(include) == 0 {
		return true
	}
	for _, g := range include {
		if ok, _ := doublestar.Match(g, rel); ok {
			return true
		}
	}
	return false
}

// pathMentioned reports whether mention m names rel: the same path, a
// suffix of it on a component boundary, or a longer path (from a stack
// trace) that ends with it.
func pathMentioned(rel, m string) bool {
	if m == "" {
		return false
	}
	if !strings.Contains(m, "/") {
		return path.Base(rel) == m
	}
	return rel == m || strings.HasSuffix(rel, "/"+m) || strings.HasSuffix(m, "/"+rel)
}

// alternates returns the abbreviation partners of terms (built once per
// loaded index).
func (st *state) alternates() map[string][]string {
	st.altOnce.Do(func() { st.alts = alternates(newAnalyzer()) })
	return st.alts
}

func (st *state) dirExists(dir string) bool {
	dir = strings.Trim(dir, "/")
	if dir == "" {
		return false
	}
	for _, d := range st.docs {
		if inScope(d.rel, dir) {
			return true
		}
	}
	return false
}

// inScope reports whether rel lies under directory dir, given from the
// project root ("src/api") or as a trailing run of components anywhere
// ("api", "api/v1").
func inScope(rel, dir string) bool {
	return strings.HasPrefix(rel, dir+"/") || strings.Contains(rel, "/"+dir+"/")
}

// lineTerm is a query term looked for in lines: its stem and the word the
// query used.
type lineTerm struct {
	stem, surface string
	idf           float64
}

// bestLine finds the line of rel with the most query IDF mass. It looks for
// the stems and query words as substrings starting a word or a camelCase
// part, which finds "authenticate" and "AuthenticationError" for "authent"
// without analysing the file again.
func bestLine(src Source, rel string, terms []lineTerm) (int, string) {
	data, err := src.ReadFile(rel)
	if err != nil || len(terms) == 0 {
		return 0, ""
	}
	data = filter(src, data)
	if len(data) > 256<<10 {
		data = data[:256<<10]
	}
	lower := asciiLower(data)
	starts := []int{0} // line start offsets
	for i, c := range data {
		if c == '\n' {
			starts = append(starts, i+1)
		}
	}
	score := make(map[int]float64)
	mask := make([]uint64, len(starts)) // per line, which terms were counted (first 64)
	for k, t := range terms {
		needles := []string{t.stem}
		if !strings.HasPrefix(t.surface, t.stem) {
			needles = append(needles, t.surface)
		}
		for _, needle := range needles {
			if len(needle) < 2 {
				continue
			}
			nb := []byte(needle)
			for off := 0; ; {
				i := bytes.Index(lower[off:], nb)
				if i < 0 {
					break
				}
				i += off
				off = i + 1
				if i > 0 && !partStart(data, i) {
					continue
				}
				line := sort.SearchInts(starts, i+1) - 1
				if k < 64 {
					if mask[line]&(1<<k) != 0 {
						continue
					}
					mask[line] |= 1 << k
				}
				score[line] += t.idf
			}
		}
	}
	best, bestLine := 0.0, -1
	for line, s := range score {
		if s > best || s == best && line < bestLine {
			best, bestLine = s, line
		}
	}
	if bestLine < 0 {
		return 0, ""
	}
	end := len(data)
	if bestLine+1 < len(starts) {
		end = starts[bestLine+1]
	}
	text := strings.TrimSpace(string(data[starts[bestLine]:end]))
	if len(text) > 200 {
		text = text[:200]
	}
	return bestLine + 1, strings.ToValidUTF8(text, "")
}

// partStart reports whether a word or camelCase part starts at data[i].
func partStart(data []byte, i int) bool {
	p, c := data[i-1], data[i]
	switch {
	case !isWordByte(p):
		return true
	case p == '_':
		return true
	case c >= 'A' && c <= 'Z' && !(p >= 'A' && p <= 'Z'):
		return true
	case (c >= '0' && c <= '9') != (p >= '0' && p <= '9'):
		return true
	}
	return false
}

func asciiLower(b []byte) []byte {
	out := make([]byte, len(b))
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		out[i] = c
	}
	return out
}
