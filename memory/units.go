package memory

import (
	"bytes"
	"slices"
	"sort"
	"strings"
)

// Units. A file's score sums its matches wherever they are; a file whose
// one function holds the query's words is a better answer than one that
// mentions each of them in a different place. When Search can read the
// files (SearchOptions.Source), the best unitCands files are read again
// and cut into units: a definition (a function, a method, a class's own
// lines, a type) from its leading comment to the next definition, the
// lines before the first definition (a module's header), or windows of
// unitWindow lines in a file without definitions. Each unit is scored as a
// document of its own on the query's heaviest terms, matches in its
// definition line and its comments counting three times in a short
// request (once in a long text: unitDocTFLong; a doc comment or a
// name that carries "write-ahead log replay" says what the unit is; a
// scattered mention does not). A file's score is then mixed with its best
// unit's, relative to the best unit among the files read, and the match
// reports that unit's lines so that a reader can read just those. In a
// long text, a file read so that is no code the project writes (comments
// only, or generated: readAs) is demoted as documentation is, and so is the
// part of a file's match that is in its doc comments (docLines).

const (
	unitCands = 24  // files read for their units
	unitMix   = 0.3 // the part of a file's score its best unit decides
	// what a match in a definition line or a comment counts for, in a
	// short request: a doc comment that names an algorithm or a format
	// ("Gorilla XOR compression") says what the unit is, and counts for
	// more than the same words twice in its body (it counted twice until
	// the sixth pass of issue 34)
	unitDocTF = 3.0
	// the same in a long text, where it counts once, as in code: a
	// report's words fill the public API's long doc comments (Mockito's
	// Javadoc) as much as the code that does the work
	unitDocTFLong = 1.0
	unitWindow    = 40 // lines of a unit in a file without definitions
	unitTerms     = 24 // query terms looked for in units, the heaviest
	unitRead      = 256 << 10
)

// A unit is a run of lines of a file, 0-based, end exclusive, and the
// name it defines ("" for a header or a window).
type unit struct {
	start, end int
	name       string
}

// unitTerm is a query term looked for in units.
type unitTerm struct {
	needles []string
	weight  float64
}

// unitScores rescores cands (highest first) by their best units, read
// through src, and notes each one's unit. It returns cands sorted again.
func (st *state) unitScores(cands []cand, qs []qterm, src Source, long bool) []cand {
	terms := unitTermsOf(qs)
	docTF := unitDocTF
	if long {
		docTF = unitDocTFLong
	}
	if len(terms) == 0 || len(cands) < 2 {
		return cands
	}
	n := min(len(cands), unitCands)
	best := make([]unitFound, n)
	top := 0.0
	for i := range n {
		best[i] = st.readUnit(st.docs[cands[i].doc].rel, terms, docTF, src, long)
		top = max(top, best[i].share)
	}
	if top == 0 {
		return cands
	}
	for i := range n {
		f := best[i]
		if !f.ok {
			continue
		}
		c := &cands[i]
		c.score *= 1 - unitMix + unitMix*f.share/top
		if f.form != "" {
			// a report is about the code the project writes, as
			// with documentation
			c.score *= demoteDocLong
			c.notes = append(c.notes, f.form+" demoted")
		} else if f.code > 0 {
			// its doc comments count as documentation does
			// (docLines): what is left of its match
			c.score *= f.code
			if f.code < docNoted {
				c.notes = append(c.notes, "doc comments demoted")
			}
		}
		if f.share > 0 {
			c.lines = [2]int{f.u.start + 1, f.u.end}
			c.unit = f.u.name
		}
	}
	slices.SortStableFunc(cands[:n], func(x, y cand) int { return cmpFloat(y.score, x.score) })
	return cands
}

// unitFound is what unitScores reads of a file.
type unitFound struct {
	share float64
	u     unit
	ok    bool    // the file was read
	form  string  // what the file is read as beside code, in a long text (readAs)
	code  float64 // the part of its match left with its doc comments demoted, in a long text (bestUnit)
}

// readUnit reads the file rel through src for its best unit (bestUnit).
func (st *state) readUnit(rel string, terms []unitTerm, docTF float64, src Source, long bool) unitFound {
	data, err := src.ReadFile(rel)
	if err != nil {
		return unitFound{}
	}
	data = filter(src, data)
	if len(data) > unitRead {
		data = data[:unitRead]
	}
	var doc []bool
	if long && !demotedAsDoc(rel) {
		doc = docLines(rel, data)
	}
	u, share, codeShare := bestUnit(rel, data, terms, docTF, doc)
	f := unitFound{share: share, u: u, ok: true, code: codeShare}
	if long {
		f.form = readAs(rel, data)
	}
	return f
}

// unitTermsOf returns the heaviest terms of the query with the words they
// are looked for as (the stem and the query's word; partners at their
// weight).
func unitTermsOf(qs []qterm) []unitTerm {
	var out []unitTerm
	for _, q := range qs {
		if strings.HasPrefix(q.term, defPrefix) || q.weight <= 0 || q.acronym {
			// an acronym names the file's path; its words are
			// looked for in the units themselves
			continue
		}
		t := unitTerm{weight: q.weight}
		t.needles = appendNeedle(t.needles, q.term)
		t.needles = appendNeedle(t.needles, strings.ToLower(q.surface))
		out = append(out, t)
		for ai, alt := range q.altTerm {
			out = append(out, unitTerm{needles: appendNeedle(nil, alt), weight: q.weight * q.altW[ai]})
		}
	}
	slices.SortStableFunc(out, func(x, y unitTerm) int { return cmpFloat(y.weight, x.weight) })
	out = slices.DeleteFunc(out, func(t unitTerm) bool { return len(t.needles) == 0 })
	if len(out) > unitTerms {
		out = out[:unitTerms]
	}
	return out
}

// appendNeedle adds a word to look for, unless a needle already finds it
// (a prefix of it) or it is too short to look for.
func appendNeedle(ns []string, w string) []string {
	if len(w) < 2 || strings.ContainsAny(w, " .@") {
		return ns
	}
	for _, n := range ns {
		if strings.HasPrefix(w, n) {
			return ns
		}
	}
	return append(ns, w)
}

// bestUnit cuts data, the file rel, into units and returns the one that
// matches the most of the terms' weight, and that share (BM25-saturated
// per term, length-normalised against the file's mean unit), a match in a
// definition line or a comment counting docTF times.
//
// With doc (a flag for each line: a doc comment's, docLines) it also
// returns the part of the file's match, its terms saturated over the whole
// file, that is left when the matches in doc comments count demoteDocLong
// of a match: 1 when the terms match code only, demoteDocLong when they
// match doc comments only. Without doc that part is 0.
func bestUnit(rel string, data []byte, terms []unitTerm, docTF float64, doc []bool) (unit, float64, float64) {
	starts := []int{0}
	for i, c := range data {
		if c == '\n' && i+1 < len(data) {
			starts = append(starts, i+1)
		}
	}
	units := cutUnits(rel, data, starts)
	if len(units) == 0 {
		return unit{}, 0, 0
	}
	blocks := docBlocks(defLangOf(rel), data, starts)
	// inDoc[k], inCode[k]: the matches of term k in the file's doc
	// comments and in its other lines
	var inDoc, inCode []float64
	if doc != nil {
		inDoc, inCode = make([]float64, len(terms)), make([]float64, len(terms))
	}
	// tf[u*len(terms)+k]: the matches of term k in unit u
	tf := make([]float64, len(units)*len(terms))
	lower := asciiLower(data)
	unitOf := func(line int) int {
		return sort.Search(len(units), func(i int) bool { return units[i].end > line }) // units tile the lines
	}
	for k, t := range terms {
		for _, needle := range t.needles {
			nb := []byte(needle)
			for off := 0; ; {
				i := bytes.Index(lower[off:], nb)
				if i < 0 {
					break
				}
				i += off
				off = i + len(nb)
				if i > 0 && !partStart(data, i) {
					continue
				}
				line := sort.SearchInts(starts, i+1) - 1
				u := unitOf(line)
				if u >= len(units) {
					continue
				}
				w := 1.0
				if line == units[u].defLine(data, starts, blocks) || commentLine(data, starts, line) {
					w = docTF
				}
				tf[u*len(terms)+k] += w
				if doc != nil {
					if line < len(doc) && doc[line] {
						inDoc[k]++
					} else {
						inCode[k]++
					}
				}
			}
		}
	}
	total := 0.0
	for _, t := range terms {
		total += t.weight
	}
	avg := float64(len(starts)) / float64(len(units))
	bestU, best := 0, 0.0
	for u := range units {
		norm := k1 * (0.5 + 0.5*float64(units[u].end-units[u].start)/avg)
		s := 0.0
		for k, t := range terms {
			if f := tf[u*len(terms)+k]; f > 0 {
				s += t.weight * f / (f + norm)
			}
		}
		if s > best {
			bestU, best = u, s
		}
	}
	return units[bestU], best / total, codePart(terms, inDoc, inCode)
}

// codePart is the part of a file's match (each term's matches saturated
// over the file, by k1) that is left when the matches in doc comments
// (inDoc) count demoteDocLong and the others (inCode) whole; 0 without
// the counts or a match.
func codePart(terms []unitTerm, inDoc, inCode []float64) float64 {
	if inDoc == nil {
		return 0
	}
	all, cut := 0.0, 0.0
	for k, t := range terms {
		a, c := inDoc[k]+inCode[k], demoteDocLong*inDoc[k]+inCode[k]
		all += t.weight * a / (a + k1)
		cut += t.weight * c / (c + k1)
	}
	if all == 0 {
		return 0
	}
	return cut / all
}

// defLine returns the line of u that defines its name: its first line that
// is not a comment or a decorator, nor in a block (u starts at its leading
// comment or doc: blocks, see docBlocks).
func (u unit) defLine(data []byte, starts []int, blocks []int) int {
	if u.name == "" {
		return -1
	}
	for l := u.start; l < u.end; l++ {
		if !commentLine(data, starts, l) && (blocks == nil || blocks[l] < 0) {
			return l
		}
	}
	return u.start
}

// docBlocks returns, for each line of data that is in a block comment or
// a multi-line string of lang (defLang.blocks: Elixir's and Julia's `"""`),
// the line that opens it, and -1 for the others; nil when lang has none.
func docBlocks(lang *defLang, data []byte, starts []int) []int {
	if lang == nil || len(lang.blocks) == 0 {
		return nil
	}
	in := make([]int, len(starts))
	closer, opener := "", -1
	for l := range starts {
		in[l] = -1
		_, rest := indentOf(bytes.TrimRight(lineAt(data, starts, l), "\n"))
		if closer != "" {
			in[l] = opener
			if bytes.Contains(rest, []byte(closer)) {
				closer = ""
			}
			continue
		}
		if closer = lang.opensBlock(rest); closer != "" {
			in[l], opener = l, l
		}
	}
	return in
}

// commentLine reports whether line is a comment or a decorator, by its
// first characters: "//", "#", "/*", "*", "@", or a docstring's quotes.
func commentLine(data []byte, starts []int, line int) bool {
	rest := lineAt(data, starts, line)
	rest = bytes.TrimLeft(rest, " \t")
	if len(rest) == 0 {
		return false
	}
	switch rest[0] {
	case '#', '*', '@':
		return true
	case '/':
		return len(rest) > 1 && (rest[1] == '/' || rest[1] == '*')
	case '"', '\'':
		return bytes.HasPrefix(rest, []byte(`"""`)) || bytes.HasPrefix(rest, []byte(`'''`))
	}
	return false
}

// leadingLine reports whether line may lead a definition of lang: a
// comment or a decorator (commentLine), or a comment of lang's own
// ("--" in Haskell and Lua, "%" in Erlang).
func leadingLine(lang *defLang, data []byte, starts []int, line int) bool {
	if commentLine(data, starts, line) {
		return true
	}
	rest := bytes.TrimRight(bytes.TrimLeft(lineAt(data, starts, line), " \t"), "\r\n")
	return len(rest) > 0 && lang.comment(rest)
}

func lineAt(data []byte, starts []int, line int) []byte {
	end := len(data)
	if line+1 < len(starts) {
		end = starts[line+1]
	}
	return data[starts[line]:end]
}

// cutUnits cuts the lines of data (starting at starts) into units that
// tile them: definitions from their leading comments, a header before
// the first, or windows where the file's language is unknown or it
// defines nothing.
func cutUnits(rel string, data []byte, starts []int) []unit {
	nLines := len(starts)
	var defs []unit
	lang := defLangOf(rel)
	if lang != nil {
		definitionLines(lang, data, func(line int, qual, name string) {
			if len(defs) > 0 && defs[len(defs)-1].start >= line {
				return // a second name on one line
			}
			if qual != "" {
				name = qual + "." + name
			}
			defs = append(defs, unit{start: line, name: name})
		})
	}
	if len(defs) == 0 {
		var out []unit
		for s := 0; s < nLines; s += unitWindow {
			out = append(out, unit{start: s, end: min(s+unitWindow, nLines)})
		}
		return out
	}
	// a definition starts at its leading comments and decorators, and
	// at the doc above it that is a block: Elixir's @doc """ … """ and
	// Julia's docstring (the text between the quotes is no comment line)
	blocks := docBlocks(lang, data, starts)
	for i := range defs {
		floor := 0
		if i > 0 {
			floor = defs[i-1].start + 1
		}
		for defs[i].start > floor {
			prev := defs[i].start - 1
			if blocks != nil && blocks[prev] >= floor && blocks[prev] < prev && leadingLine(lang, data, starts, blocks[prev]) {
				defs[i].start = blocks[prev]
			} else if leadingLine(lang, data, starts, prev) {
				defs[i].start--
			} else {
				break
			}
		}
	}
	var out []unit
	if defs[0].start > 0 {
		out = append(out, unit{start: 0, end: defs[0].start})
	}
	for i, d := range defs {
		d.end = nLines
		if i+1 < len(defs) {
			d.end = defs[i+1].start
		}
		if d.end > d.start {
			out = append(out, d)
		}
	}
	return out
}
