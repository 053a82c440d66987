package secrets

import (
	"bytes"
	"slices"
	"sync"
	"unicode/utf8"
)

// A Finding is one secret in scanned content. It never holds the secret's
// text, only where it is.
type Finding struct {
	Rule string // rule ID, see [Rules]
	// Line and Col (1-based, Col in bytes) say where the finding begins:
	// at Start, except for a private-key block, whose finding begins at
	// its -----BEGIN line while Start is the first byte of its body.
	Line int
	Col  int
	// Start and End are the byte offsets of the secret itself
	// (content[Start:End]), not of its key name or surrounding syntax.
	Start, End int
}

// Scan returns the secrets in content, ordered by Start, without overlaps
// (where two rules match overlapping bytes, the more specific rule wins, in
// the order of [Rules]). Scan never modifies content and is safe for
// concurrent use.
func Scan(content []byte) []Finding {
	m := loadMatcher()
	var s scanner
	s.data = content
	m.run(content, func(kw, end int) { s.keyword(m, kw, end) })
	return dropExamples(content, s.finish())
}

// HasKeyword reports whether s holds any rule's keyword. Every rule starts
// from a keyword, so Scan finds nothing in text that holds none: a check of
// every name of a tree asks this first, which copies nothing.
func HasKeyword(s string) bool {
	m := loadMatcher()
	var state uint32
	for i := 0; i < len(s); i++ {
		v := m.delta[state|uint32(m.class[s[i]])]
		if v&acceptFlag != 0 {
			return true
		}
		state = v
	}
	return false
}

// Redact returns a copy of content in which the bytes of each finding are
// replaced by "[REDACTED:<rule>]". Findings whose range is out of bounds,
// empty or overlaps an earlier finding are skipped; everything outside the
// findings is kept byte for byte. content is not modified.
func Redact(content []byte, fs []Finding) []byte { return redact(content, fs, false) }

// RedactLines is Redact that keeps line numbers: each finding's marker is
// followed by as many newlines as the secret spanned (a private-key body
// spans several), so a line number in the result points at the same line
// of content.
func RedactLines(content []byte, fs []Finding) []byte { return redact(content, fs, true) }

func redact(content []byte, fs []Finding, keepLines bool) []byte {
	fs = slices.Clone(fs)
	slices.SortStableFunc(fs, func(a, b Finding) int { return a.Start - b.Start })
	out := make([]byte, 0, len(content))
	last := 0
	for _, f := range fs {
		if f.Start < last || f.End <= f.Start || f.End > len(content) {
			continue
		}
		out = append(out, content[last:f.Start]...)
		out = append(out, "[REDACTED:"...)
		out = append(out, f.Rule...)
		out = append(out, ']')
		if keepLines {
			for range bytes.Count(content[f.Start:f.End], []byte{'\n'}) {
				out = append(out, '\n')
			}
		}
		last = f.End
	}
	return append(out, content[last:]...)
}

type scanner struct {
	data  []byte
	found []Finding
	prio  []int // rule index of each finding
	from  []int // where each finding begins, for Line and Col
	// skipTo is, per rule index, the end of that line rule's last match.
	skipTo []int
	// pemSeen is where the last private-key body examined ends; headers
	// before it lie inside that body. endAt caches the offset of the next
	// "-----END " (len(data) for none) for bodies starting at or before it.
	pemSeen, endAt int
}

func (s *scanner) add(ri, start, end int) { s.addFrom(ri, start, start, end) }

// addFrom adds a finding of the bytes [start, end) that begins at from.
func (s *scanner) addFrom(ri, from, start, end int) {
	s.found = append(s.found, Finding{Rule: rules[ri].id, Start: start, End: end})
	s.prio = append(s.prio, ri)
	s.from = append(s.from, from)
}

func isWord(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_'
}

// continuesToken reports whether a token could extend left over c. Every
// token format's characters are among these, so within one run of them only
// the first keyword is tried, which keeps scanning linear in the worst case.
func continuesToken(c byte) bool {
	return isWord(c) || c == '-'
}

// keyword handles keyword kw found ending at byte end.
func (s *scanner) keyword(m *matcher, kw, end int) {
	k := &m.keywords[kw]
	start := end - len(k.text)
	if !k.fold && !bytes.Equal(s.data[start:end], k.text) {
		return
	}
	for _, ri := range k.rules {
		r := rules[ri]
		switch r.kind {
		case prefixRule:
			s.prefix(ri, start)
		case lineRule:
			s.line(ri, start, end)
		case pemRule:
			s.pem(ri, start, end)
		}
	}
}

func (s *scanner) prefix(ri, start int) {
	r := rules[ri]
	if r.boundary && start > 0 && continuesToken(s.data[start-1]) {
		return
	}
	seg := s.data[start:min(len(s.data), start+r.maxLen+1)]
	loc := r.re.Re().FindSubmatchIndex(seg)
	if loc == nil {
		return
	}
	if loc[1] > r.maxLen || loc[1] < len(seg) && isWord(seg[loc[1]]) {
		return // the token goes on: not this format
	}
	a, b := loc[2*r.group], loc[2*r.group+1]
	if a < 0 || !r.valid(seg[a:b], nil) {
		return
	}
	s.add(ri, start+a, start+b)
}

const (
	maxKeyBack = 128 // longest key name before a keyword
	maxLineRun = 384 // longest key, operator and value
)

func isKeyChar(c byte) bool {
	return isWord(c) || c == '.' || c == '-'
}

// line tries a line rule at the key name holding the keyword at
// [start, end): one anchored match from the start of the name. A keyword
// inside the previous match of the same rule is skipped: it is part of a
// name or value already examined, which keeps the work linear.
func (s *scanner) line(ri, start, end int) {
	r := rules[ri]
	if s.skipTo == nil {
		s.skipTo = make([]int, len(rules))
	}
	if start < s.skipTo[ri] {
		return
	}
	ks := start
	for ks > 0 && start-ks < maxKeyBack && isKeyChar(s.data[ks-1]) {
		ks--
	}
	if ks > 0 && isKeyChar(s.data[ks-1]) {
		return // a name this long is not a key
	}
	le := min(len(s.data), ks+maxLineRun)
	if i := bytes.IndexByte(s.data[end:le], '\n'); i >= 0 {
		le = end + i
	}
	win := s.data[ks:le]
	if !mayAssign(win, end-ks) {
		return
	}
	loc := r.re.Re().FindSubmatchIndex(win)
	if loc == nil {
		return
	}
	s.skipTo[ri] = ks + loc[1]
	g := 2
	for g < len(loc)/2 && loc[2*g] < 0 {
		g++
	}
	if g == len(loc)/2 {
		return
	}
	a, b := loc[2*g], loc[2*g+1]
	if r == genericRule && g == len(loc)/2-1 && !bareValueOK(win[a:b], win[b:]) {
		return
	}
	if !r.valid(win[a:b], win[loc[2]:loc[3]]) {
		return
	}
	s.add(ri, ks+a, ks+b)
}

// mayAssign reports whether win, a line from the start of a key name whose
// keyword ends at from, can hold what the line rules' expressions ask for
// after the name: the rest of the name's run of key characters, an optional
// closing quote, white space, then an operator or " string". It is false
// only where the expression cannot match, and so spares the expression
// the many keywords of code that assign nothing ("token.Valid()",
// "the secret is"). Where the expression's case folding could see more
// ("ſtring", a name going on in a non-ASCII letter), it is true.
func mayAssign(win []byte, from int) bool {
	i := from
	for i < len(win) && isKeyChar(win[i]) {
		i++
	}
	if i < len(win) && (win[i] == '"' || win[i] == '\'' || win[i] == '`') {
		i++
	}
	for i < len(win) && (win[i] == ' ' || win[i] == '\t' || win[i] == '\n' || win[i] == '\f' || win[i] == '\r' || win[i] == '\v') {
		i++
	}
	if i == len(win) {
		return false
	}
	switch c := win[i]; c {
	case ':', '=', '?', '+', 's', 'S':
		return true
	default:
		return c >= utf8.RuneSelf
	}
}

// pem handles "PRIVATE KEY" found at [start, end): a private-key block if a
// BEGIN header surrounds it; the secret is the body up to the END line.
func (s *scanner) pem(ri, start, end int) {
	hs := max(0, start-64)
	hdr := s.data[hs:min(len(s.data), end+16)]
	loc := pemHeaderRe.Re().FindIndex(hdr)
	if loc == nil || hs+loc[1] < end {
		return
	}
	hdrStart, bodyStart := hs+loc[0], hs+loc[1]
	if hdrStart < s.pemSeen {
		return
	}
	const maxBody = 64 << 10
	if s.endAt < bodyStart {
		s.endAt = len(s.data)
		if i := bytes.Index(s.data[bodyStart:], []byte("-----END ")); i >= 0 {
			s.endAt = bodyStart + i
		}
	}
	bodyEnd := bodyStart
	if s.endAt-bodyStart <= maxBody {
		bodyEnd = s.endAt
	} else {
		rest := s.data[bodyStart:min(len(s.data), bodyStart+maxBody)]
		// No footer (truncated): the body is the run of base64 text.
		for _, c := range rest {
			if !isBase64(c) && c != '\r' && c != '\n' && c != ' ' && c != '\t' && c != '\\' && c != ':' && c != ',' && c != '-' {
				break
			}
			bodyEnd++
		}
	}
	s.pemSeen = bodyEnd
	a, b := trimBody(s.data, bodyStart, bodyEnd)
	n := 0
	for _, c := range s.data[a:b] {
		if isBase64(c) {
			n++
		}
	}
	if n < 64 || bytes.Contains(s.data[a:b], []byte("...")) {
		return // an example or a placeholder, not key material
	}
	id := ri
	ls := bytes.LastIndexByte(s.data[max(0, hdrStart-128):hdrStart], '\n') + 1 + max(0, hdrStart-128)
	if bytes.Contains(s.data[ls:hdrStart], []byte(`"private_key"`)) {
		id = gcpRuleIndex
	}
	s.addFrom(id, hdrStart, a, b)
}

func isBase64(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '+' || c == '/' || c == '='
}

// trimBody trims white space and escaped newlines (\n, \r) from both ends.
func trimBody(d []byte, a, b int) (int, int) {
	for a < b {
		switch {
		case d[a] == ' ' || d[a] == '\t' || d[a] == '\r' || d[a] == '\n':
			a++
		case d[a] == '\\' && a+1 < b && (d[a+1] == 'n' || d[a+1] == 'r'):
			a += 2
		default:
			goto end
		}
	}
end:
	for b > a {
		switch {
		case d[b-1] == ' ' || d[b-1] == '\t' || d[b-1] == '\r' || d[b-1] == '\n':
			b--
		case b-2 >= a && d[b-2] == '\\' && (d[b-1] == 'n' || d[b-1] == 'r'):
			b -= 2
		default:
			return a, b
		}
	}
	return a, b
}

// bareValueOK vets an unquoted value: it must hold a digit (a bare word or
// identifier is code, not a secret) and end its line, up to a comment or a
// separator (anything else after it makes it an expression).
func bareValueOK(v, rest []byte) bool {
	if classes(v)&hasDigit == 0 {
		return false
	}
	rest = bytes.TrimLeft(rest, " \t")
	return len(rest) == 0 || rest[0] == '#' || rest[0] == ';' || rest[0] == ',' || rest[0] == '\r' ||
		bytes.HasPrefix(rest, []byte("//"))
}

var (
	genericRule  = rules[ruleIndex(RuleGenericSecret)]
	gcpRuleIndex = ruleIndex(RuleGCPServiceAccount)
)

func ruleIndex(id string) int {
	return slices.IndexFunc(rules, func(r *rule) bool { return r.id == id })
}

// finish resolves overlaps and fills in lines and columns.
func (s *scanner) finish() []Finding {
	if len(s.found) == 0 {
		return nil
	}
	// Sort by start, then resolve each cluster of overlapping findings by
	// rule priority. Clusters are small in practice; the quadratic step
	// runs inside one cluster only.
	idx := make([]int, len(s.found))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int { return s.found[a].Start - s.found[b].Start })
	var kept, cluster []int
	resolve := func() {
		slices.SortStableFunc(cluster, func(a, b int) int { return s.prio[a] - s.prio[b] })
		n := len(kept)
		for _, i := range cluster {
			f := s.found[i]
			if !slices.ContainsFunc(kept[n:], func(k int) bool { return f.Start < s.found[k].End && s.found[k].Start < f.End }) {
				kept = append(kept, i)
			}
		}
		cluster = cluster[:0]
	}
	clusterEnd := -1
	for _, i := range idx {
		if s.found[i].Start >= clusterEnd {
			resolve()
		}
		cluster = append(cluster, i)
		clusterEnd = max(clusterEnd, s.found[i].End)
	}
	resolve()
	slices.SortFunc(kept, func(a, b int) int { return s.found[a].Start - s.found[b].Start })
	out := make([]Finding, len(kept))
	line, lineStart, pos := 1, 0, 0
	for j, i := range kept {
		out[j] = s.found[i]
		seg := s.data[pos:out[j].Start]
		if n := bytes.Count(seg, []byte{'\n'}); n > 0 {
			line += n
			lineStart = pos + bytes.LastIndexByte(seg, '\n') + 1
		}
		pos = out[j].Start
		out[j].Line = line
		out[j].Col = out[j].Start - lineStart + 1
		if from := s.from[i]; from < out[j].Start {
			// A private-key block: report its BEGIN line.
			seg := s.data[from:out[j].Start]
			out[j].Line -= bytes.Count(seg, []byte{'\n'})
			out[j].Col = from - (bytes.LastIndexByte(s.data[:from], '\n') + 1) + 1
		}
	}
	return out
}

// matcher finds all keywords in one pass: an Aho-Corasick automaton over
// ASCII-case-folded bytes, compiled to a full transition table. The table's
// columns are byte classes, not bytes: the keywords use a few dozen distinct
// bytes, and every other byte acts alike (class 0), so a row of 256 columns
// would repeat itself. The table stays small enough that building it, once
// per process and before the first name is checked, touches a few pages of
// memory, not hundreds.
type matcher struct {
	keywords []keyword
	class    [256]byte // byte → its column
	shift    uint      // a row is 1<<shift columns
	delta    []uint32  // state<<shift | class → next state<<shift | acceptFlag
	out      [][]int   // state → keywords ending here
	longest  int       // bytes of the longest keyword
}

type keyword struct {
	text  []byte
	fold  bool
	rules []int
}

const acceptFlag = 1 << 31

var loadMatcher = sync.OnceValue(buildMatcher)

func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

func buildMatcher() *matcher {
	m := &matcher{}
	m.collectKeywords()
	m.assignClasses()
	m.compile(m.trie())
	return m
}

// collectKeywords lists every rule's keywords once (a keyword several rules
// share is one entry naming all of them).
func (m *matcher) collectKeywords() {
	byText := map[string]int{}
	for ri, r := range rules {
		for _, kw := range r.keywords {
			key := kw
			if r.fold {
				key = "\x00" + string(bytes.ToLower([]byte(kw)))
			}
			i, ok := byText[key]
			if !ok {
				i = len(m.keywords)
				byText[key] = i
				m.keywords = append(m.keywords, keyword{text: []byte(kw), fold: r.fold})
			}
			m.keywords[i].rules = append(m.keywords[i].rules, ri)
		}
	}
	for _, kw := range m.keywords {
		m.longest = max(m.longest, len(kw.text))
	}
}

// assignClasses gives each folded byte that occurs in a keyword a column of
// its own, both cases of a letter the same one, and every other byte
// column 0.
func (m *matcher) assignClasses() {
	n := 1
	for _, kw := range m.keywords {
		for _, c := range kw.text {
			if c = lower(c); m.class[c] == 0 {
				if n > 255 { // the rules are constants: their tests fail first
					panic("secrets: the keywords use more distinct bytes than a class can number")
				}
				m.class[c] = byte(n)
				n++
			}
		}
	}
	for c := 'A'; c <= 'Z'; c++ {
		m.class[c] = m.class[c+'a'-'A']
	}
	for 1<<m.shift < n {
		m.shift++
	}
}

// node is a state of the automaton while it is built.
type node struct {
	next []int32 // class → state (0: none yet)
	fail int32
	out  []int
}

// trie builds the keywords' trie over byte classes, then its failure links
// and the transitions they imply, breadth-first: every state gets a
// transition for every class.
func (m *matcher) trie() []*node {
	cols := 1 << m.shift
	nodes := []*node{{next: make([]int32, cols)}}
	for i, kw := range m.keywords {
		s := int32(0)
		for _, c := range kw.text {
			k := m.class[c]
			if nodes[s].next[k] == 0 {
				nodes = append(nodes, &node{next: make([]int32, cols)})
				nodes[s].next[k] = int32(len(nodes) - 1)
			}
			s = nodes[s].next[k]
		}
		nodes[s].out = append(nodes[s].out, i)
	}
	var queue []int32
	for _, t := range nodes[0].next {
		if t != 0 {
			queue = append(queue, t)
		}
	}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		nodes[s].out = append(nodes[s].out, nodes[nodes[s].fail].out...)
		for k, t := range nodes[s].next {
			if t == 0 {
				nodes[s].next[k] = nodes[nodes[s].fail].next[k]
				continue
			}
			nodes[t].fail = nodes[nodes[s].fail].next[k]
			queue = append(queue, t)
		}
	}
	return nodes
}

// compile lays the states out as the table run walks.
func (m *matcher) compile(nodes []*node) {
	cols := 1 << m.shift
	m.delta = make([]uint32, len(nodes)*cols)
	m.out = make([][]int, len(nodes))
	for s, n := range nodes {
		m.out[s] = n.out
		for k, t := range n.next {
			v := uint32(t) << m.shift
			if len(nodes[t].out) > 0 {
				v |= acceptFlag
			}
			m.delta[s*cols+k] = v
		}
	}
}

// run calls hit(keyword, end) for every keyword occurrence, in order of end.
//
// Each step of the automaton waits for the table lookup of the step before,
// so one walk over the data is bound by the latency of those lookups. For
// longer data run walks four quarters side by side instead, which the
// processor overlaps. The automaton's state after a byte depends only on the
// last m.longest bytes, so each walk but the first starts that far before its
// quarter and keeps only the keywords that end inside it; they are passed on
// after those of the walks before.
func (m *matcher) run(data []byte, hit func(kw, end int)) {
	const walks = 4
	q := len(data) / walks
	if q < 4*m.longest {
		m.walk(data, 0, 0, hit)
		return
	}
	// Walk j covers data[start[j]:end[j]] and keeps the keywords ending past
	// keep[j].
	var start, end, keep [walks]int
	for j := range walks {
		start[j], end[j], keep[j] = max(0, j*q-m.longest), (j+1)*q, j*q
	}
	end[walks-1] = len(data)
	var late [walks][]int // keyword, end pairs of walks 1..3
	delta, class := m.delta, &m.class
	// The side-by-side part: as many bytes of each walk as the first has.
	d0 := data[start[0]:end[0]]
	d1, d2, d3 := data[start[1]:][:len(d0)], data[start[2]:][:len(d0)], data[start[3]:][:len(d0)]
	var s0, s1, s2, s3 uint32
	for i := range d0 {
		v0 := delta[s0|uint32(class[d0[i]])]
		v1 := delta[s1|uint32(class[d1[i]])]
		v2 := delta[s2|uint32(class[d2[i]])]
		v3 := delta[s3|uint32(class[d3[i]])]
		s0, s1, s2, s3 = v0&^acceptFlag, v1&^acceptFlag, v2&^acceptFlag, v3&^acceptFlag
		if (v0|v1|v2|v3)&acceptFlag == 0 {
			continue
		}
		for j, v := range [walks]uint32{v0, v1, v2, v3} {
			if v&acceptFlag == 0 {
				continue
			}
			e := start[j] + i + 1
			for _, kw := range m.out[(v&^acceptFlag)>>m.shift] {
				if j == 0 {
					hit(kw, e)
				} else if e > keep[j] {
					late[j] = append(late[j], kw, e)
				}
			}
		}
	}
	// The rest of walks 1..3: the bytes of their start-up, and for the last
	// the remainder of the division.
	for j, s := range [walks]uint32{0, s1, s2, s3} {
		if j == 0 {
			continue
		}
		m.walk(data[start[j]+len(d0):end[j]], s, start[j]+len(d0), func(kw, e int) {
			if e > keep[j] {
				late[j] = append(late[j], kw, e)
			}
		})
		for i := 0; i < len(late[j]); i += 2 {
			hit(late[j][i], late[j][i+1])
		}
	}
}

// walk runs the automaton over data from state s; base is data's offset in
// the scanned content.
func (m *matcher) walk(data []byte, s uint32, base int, hit func(kw, end int)) {
	delta, class := m.delta, &m.class
	for i, c := range data {
		v := delta[s|uint32(class[c])]
		s = v &^ acceptFlag
		if v&acceptFlag != 0 {
			for _, kw := range m.out[s>>m.shift] {
				hit(kw, base+i+1)
			}
		}
	}
}

// RedactText returns s with each secret Scan finds replaced by its
// "[REDACTED:<rule>]" marker: for text quoted in a warning (a path, a line
// a command printed), which the scan of a file's content never sees.
func RedactText(s string) string {
	if s == "" {
		return s
	}
	if fs := Scan([]byte(s)); len(fs) > 0 {
		return string(Redact([]byte(s), fs))
	}
	return s
}
