package memory

import (
	"bytes"
	"fmt"
	"slices"
	"sort"
	"strings"
)

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
	Terms  map[string][]string `json:"terms"`            // field ("path", "name", "ident", "content", "history": its commits' messages) → matched query terms
	Line   int                 `json:"line"`             // best-matching line, 1-based; 0 if unknown
	Text   string              `json:"text"`             // that line, trimmed and capped at 200 bytes
	Notes  []string            `json:"notes,omitempty"`  // filters and boosts that applied: "scope cmd", "mentioned", "test file demoted" …
	Scores map[string]float64  `json:"scores,omitempty"` // with Explain: query term → contribution to the raw score
	// Lines are the first and last line (1-based) of the file's unit
	// that best matches, a definition from its leading comment or a run
	// of lines (units.go), and Unit the name it defines; zero and "" when
	// the files were not read.
	Lines [2]int `json:"lines,omitempty"`
	Unit  string `json:"unit,omitempty"`
}

// String returns a one-line summary: "name: auth; content: auth, token;
// line 12: func Authenticate(…)".
func (r Reason) String() string {
	var b strings.Builder
	for _, f := range []string{"name", "path", "ident", "content", "history"} {
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
	if r.Lines[0] > 0 {
		if b.Len() > 0 {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "lines %d-%d", r.Lines[0], r.Lines[1])
		if r.Unit != "" {
			fmt.Fprintf(&b, " (%s)", r.Unit)
		}
	}
	if r.Line > 0 {
		if b.Len() > 0 {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "line %d: %s", r.Line, r.Text)
	}
	return b.String()
}

// reasons makes the matches of cands: the fields in which each query
// term, or a partner of it (an abbreviation "term~alt", a concept
// "term≈alt"), matched, and with explain each term's contribution to the
// score, its partners' included.
func (st *state) reasons(cands []cand, qs []qterm, explain bool) []Match {
	out := make([]Match, len(cands))
	pos := make(map[uint32]int, len(cands)) // document → its match
	for i, c := range cands {
		out[i] = Match{Rel: st.docs[c.doc].rel, Score: c.score, Reason: Reason{Terms: map[string][]string{}, Notes: c.notes,
			Lines: c.lines, Unit: c.unit}}
		if explain {
			out[i].Reason.Scores = map[string]float64{}
		}
		pos[uint32(c.doc)] = i
	}
	for _, q := range qs {
		st.noteTerm(out, pos, q.text, q.path, q.surface, q.surface, 1, explain)
		for ai, alt := range q.alts {
			st.noteTerm(out, pos, alt[0], alt[1], q.surface+q.altSep[ai]+q.altTerm[ai], q.surface, q.altW[ai], explain)
		}
	}
	exact := map[uint32]bool{} // matches with a query term itself
	for d, i := range pos {
		for _, q := range qs {
			for _, ts := range out[i].Reason.Terms {
				if slices.Contains(ts, q.surface) {
					exact[d] = true
				}
			}
		}
	}
	for _, q := range qs {
		noteHistory(out, pos, q, exact, explain)
	}
	if explain {
		for i := range out {
			for _, q := range qs {
				if t, ok := out[i].Reason.Scores[q.surface]; ok {
					out[i].Reason.Scores[q.surface] = q.weight * t / (k1 + t)
				}
			}
		}
	}
	return out
}

// noteTerm notes label in the reasons of the matches (out, by document in
// pos) whose documents the text and path posting lists hold, under each
// field it was found in; with explain, it adds its field frequencies,
// normalised and weighted by w, to the score of the query term surface.
func (st *state) noteTerm(out []Match, pos map[uint32]int, text, path []byte, label, surface string, w float64, explain bool) {
	for k, list := range [2][]byte{text, path} {
		it := newIter(list, len(st.docs))
		for it.next() {
			i, ok := pos[it.doc]
			if !ok {
				continue
			}
			r := &out[i].Reason
			for j := range 2 {
				if it.tf[j] > 0 {
					f := fieldNames[2*k+j]
					if !slices.Contains(r.Terms[f], label) {
						r.Terms[f] = append(r.Terms[f], label)
					}
				}
			}
			if explain {
				nm := &st.norm[it.doc]
				r.Scores[surface] += w * (float64(it.tf[0])*float64(nm[2*k]) + float64(it.tf[1])*float64(nm[2*k+1]))
			}
		}
	}
}

// bestLines sets the best line of each match: the line of its file with
// the most IDF of the query terms (the 16 rarest) it matched in content
// or identifiers.
func bestLines(out []Match, qs []qterm, src Source) {
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
		out[i].Reason.Line, out[i].Reason.Text = bestLine(src, out[i].Rel, lts, out[i].Reason.Lines)
	}
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
//
// within, when set, are the first and last line (1-based) of the match's
// best unit: the best line is taken there if any line there has a term,
// so that the line shown lies in the lines a reader is pointed to.
func bestLine(src Source, rel string, terms []lineTerm, within [2]int) (int, string) {
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
	pick := func(inUnit bool) {
		for line, s := range score {
			if inUnit && (line+1 < within[0] || line+1 > within[1]) {
				continue
			}
			if s > best || s == best && line < bestLine {
				best, bestLine = s, line
			}
		}
	}
	if within[0] > 0 {
		pick(true)
	}
	if bestLine < 0 {
		pick(false)
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
