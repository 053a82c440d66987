package template

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/taskctl/taskctl/internal/diag"
)

// node is an element of the template's tree, with its position.
type node struct {
	name     string
	attrs    []xml.Attr
	children []*node
	text     strings.Builder
	pos      Pos
	off      int64    // of the '<' of its start tag
	inner    [2]int64 // its content: from the end of the start tag to the '<' of the end tag
}

func (n *node) attr(name string) (string, bool) {
	for _, a := range n.attrs {
		if a.Name.Local == name && a.Name.Space == "" {
			return a.Value, true
		}
	}
	return "", false
}

func (n *node) child(name string) *node {
	for _, c := range n.children {
		if c.name == name {
			return c
		}
	}
	return nil
}

func (n *node) all(name string) []*node {
	var out []*node
	for _, c := range n.children {
		if c.name == name {
			out = append(out, c)
		}
	}
	return out
}

// maxNodes bounds the tree a template may build.
const maxNodes = 100000

// parseTree reads data into a tree. DOCTYPEs and entities other than the five
// predefined ones are refused (the schema has already refused them; this
// keeps Parse safe on its own).
func parseTree(data []byte, ps *positioner, nodes map[Pos]*node) (*node, int64, error) {
	d := xml.NewDecoder(bytes.NewReader(data))
	d.Strict = true
	d.Entity = nil
	// Read the bytes as UTF-8 whatever the XML declaration says, as
	// package schema does; a byte that is not UTF-8 is a syntax error.
	d.CharsetReader = func(_ string, r io.Reader) (io.Reader, error) { return r, nil }
	var stack []*node
	var root *node
	count := 0
	for {
		off := d.InputOffset()
		tok, err := d.RawToken()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, d.InputOffset(), err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			count++
			if count > maxNodes {
				return nil, off, fmt.Errorf("too many elements (more than %d)", maxNodes)
			}
			n := &node{name: t.Name.Local, attrs: append([]xml.Attr(nil), t.Attr...), pos: ps.pos(off), off: off}
			n.inner[0], n.inner[1] = d.InputOffset(), d.InputOffset()
			nodes[n.pos] = n
			if len(stack) == 0 {
				if root != nil {
					return nil, off, fmt.Errorf("more than one root element")
				}
				root = n
			} else {
				p := stack[len(stack)-1]
				p.children = append(p.children, n)
			}
			stack = append(stack, n)
		case xml.EndElement:
			if len(stack) == 0 || stack[len(stack)-1].name != t.Name.Local {
				return nil, off, fmt.Errorf("unexpected end element </%s>", t.Name.Local)
			}
			stack[len(stack)-1].inner[1] = off
			stack = stack[:len(stack)-1]
		case xml.CharData:
			if len(stack) > 0 {
				stack[len(stack)-1].text.Write(t)
			}
		case xml.Directive:
			return nil, off, fmt.Errorf("DOCTYPE and other directives are not allowed")
		}
	}
	if root == nil {
		return nil, 0, fmt.Errorf("no root element")
	}
	if len(stack) > 0 {
		return nil, d.InputOffset(), fmt.Errorf("unclosed element <%s>", stack[len(stack)-1].name)
	}
	return root, 0, nil
}

// positioner turns byte offsets into lines and rune columns of the text
// xmltext.Decode returned (without a byte-order mark). It remembers
// the last offset it was asked about and counts on from there, so asking in
// increasing order (as parseTree does) costs one pass over the data in all.
type positioner struct {
	data []byte
	off  int64 // the last offset asked about
	at   Pos   // its position; Line 0 before the first question
}

func (p *positioner) pos(off int64) Pos {
	if off < 0 {
		off = 0
	}
	if off > int64(len(p.data)) {
		off = int64(len(p.data))
	}
	if p.at.Line == 0 || off < p.off {
		p.off, p.at = 0, Pos{Line: 1, Col: 1}
	}
	b := p.data[p.off:off]
	if i := bytes.LastIndexByte(b, '\n'); i >= 0 {
		p.at.Line += bytes.Count(b, []byte("\n"))
		p.at.Col = 1
		b = b[i+1:]
	}
	p.at.Col += utf8.RuneCount(b)
	p.off = off
	return p.at
}

// decoder builds Tasks from the tree and collects problems.
type decoder struct {
	file     string
	data     []byte
	pos      *positioner
	nodes    map[Pos]*node // every element, by the position of its '<'
	problems []problem
	warnings []problem

	spans map[*Task]span   // set by number
	named map[string]*Task // set by number
}

// problem is a Problem before its position is known: it is at off, a byte
// offset into the data, or, if off < 0, at pos. Offsets are turned into
// positions all at once, in increasing order, so that many problems in a
// large file cost one pass over it.
type problem struct {
	off  int64
	pos  Pos
	code diag.Code
	msg  string
}

// at returns the offset of the element at p, or -1 if none is known.
func (d *decoder) at(p Pos) int64 {
	if n := d.nodes[p]; n != nil {
		return n.off
	}
	return -1
}

func (d *decoder) errorAt(off int64, format string, a ...any) {
	d.problems = append(d.problems, problem{off: off, msg: fmt.Sprintf(format, a...)})
}

func (d *decoder) errorf(p Pos, format string, a ...any) {
	d.problems = append(d.problems, problem{off: d.at(p), pos: p, msg: fmt.Sprintf(format, a...)})
}

func (d *decoder) warnf(p Pos, code diag.Code, format string, a ...any) {
	d.warnings = append(d.warnings, problem{off: d.at(p), pos: p, code: code, msg: fmt.Sprintf(format, a...)})
}

// resolve turns problems into Problems sorted by position (stably: problems
// at one position keep the order they were found in).
func (d *decoder) resolve(ps []problem) []diag.Problem {
	if len(ps) == 0 {
		return nil
	}
	sort.SliceStable(ps, func(i, j int) bool { return ps[i].off < ps[j].off })
	out := make([]diag.Problem, len(ps))
	for i, p := range ps {
		if p.off >= 0 {
			p.pos = d.pos.pos(p.off)
		}
		out[i] = diag.Problem{File: d.file, Line: p.pos.Line, Col: p.pos.Col, Code: p.code, Message: p.msg}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Col < b.Col
	})
	return out
}

// attrOff returns the offset of attribute name in the start tag of the
// element at p; the element's offset if it has no such attribute; -1 if
// there is no element at p.
func (d *decoder) attrOff(p Pos, name string) int64 {
	n := d.nodes[p]
	if n == nil {
		return -1
	}
	if a, _ := d.attrSpan(n, name); a >= 0 {
		return a
	}
	return n.off
}

// attrSpan finds attribute name in n's start tag, which encoding/xml has
// already read as well formed: it returns the offsets of the attribute's
// name and of the first byte of its value, or -1, -1.
func (d *decoder) attrSpan(n *node, name string) (attr, value int64) {
	b := d.data
	end := min(n.inner[0], int64(len(b)))
	i := n.off + 1
	for i < end && !isXMLSpace(b[i]) && b[i] != '>' && b[i] != '/' {
		i++ // the element's name
	}
	for i < end {
		for i < end && isXMLSpace(b[i]) {
			i++
		}
		if i >= end || b[i] == '>' || b[i] == '/' {
			break
		}
		start := i
		for i < end && !isXMLSpace(b[i]) && b[i] != '=' {
			i++
		}
		an := string(b[start:i])
		for i < end && b[i] != '"' && b[i] != '\'' {
			i++
		}
		if i >= end {
			break
		}
		q := b[i]
		i++
		val := i
		for i < end && b[i] != q {
			i++
		}
		i++
		local := an
		if k := strings.IndexByte(an, ':'); k >= 0 {
			local = "" // a namespaced attribute is not ours
		}
		if local == name {
			return start, val
		}
	}
	return -1, -1
}

func isXMLSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// textAt returns a function that gives the offset in the data of byte i
// of the trimmed text of the element at p (as Task.Description and the like
// hold it), or the element's offset where the text cannot be followed back
// to the source. Ask it for nondecreasing i: then all the questions cost one
// pass over the text.
func (d *decoder) textAt(p Pos) func(i int) int64 {
	n := d.nodes[p]
	if n == nil {
		return func(int) int64 { return -1 }
	}
	if n.inner[0] > n.inner[1] || n.inner[1] > int64(len(d.data)) {
		return func(int) int64 { return n.off }
	}
	full := n.text.String()
	lead := len(full) - len(strings.TrimLeftFunc(full, unicode.IsSpace))
	c := &textCursor{raw: d.data[n.inner[0]:n.inner[1]]}
	return func(i int) int64 {
		if j := c.seek(lead + i); j >= 0 {
			return n.inner[0] + int64(j)
		}
		return n.off
	}
}

// valueAt is textAt for the value of attribute name of the element at p;
// where the value cannot be followed, it gives the attribute's offset.
func (d *decoder) valueAt(p Pos, name string) func(i int) int64 {
	n := d.nodes[p]
	if n == nil {
		return func(int) int64 { return -1 }
	}
	a, v := d.attrSpan(n, name)
	if a < 0 {
		return func(int) int64 { return n.off }
	}
	end := v
	for end < n.inner[0] && d.data[end] != d.data[v-1] {
		end++
	}
	c := &textCursor{raw: d.data[v:end]}
	return func(i int) int64 {
		if j := c.seek(i); j >= 0 {
			return v + int64(j)
		}
		return a
	}
}

// textCursor maps bytes of the text encoding/xml decodes from raw
// (character data, or an attribute value) to indexes in raw: it follows
// entity and character references, CDATA sections, comments, processing
// instructions and line-end normalization.
type textCursor struct {
	raw   []byte
	j, n  int  // an index in raw, and the count of bytes decoded before it
	cdata int  // inside a CDATA section: the index of its "]]>"; else 0
	bad   bool // raw holds what is not text (an element)
}

// seek returns the index in raw of decoded byte i (i at least that of the
// last call), where a reference, if i falls in what it stands for, is at
// its '&'; or -1 if it cannot tell.
func (c *textCursor) seek(i int) int {
	raw := c.raw
	for !c.bad {
		// Skip what decodes to nothing.
		for !c.bad {
			rest := raw[c.j:]
			if c.cdata > 0 {
				if c.j == c.cdata {
					c.j, c.cdata = c.j+len("]]>"), 0
					continue
				}
				break
			}
			var open, close string
			switch {
			case bytes.HasPrefix(rest, []byte("<!--")):
				open, close = "<!--", "-->"
			case bytes.HasPrefix(rest, []byte("<?")):
				open, close = "<?", "?>"
			case bytes.HasPrefix(rest, []byte("<![CDATA[")):
				open, close = "<![CDATA[", "]]>"
			default:
				// The loop ends here when no markup remains.
			}
			if open == "" {
				break
			}
			k := bytes.Index(rest[len(open):], []byte(close))
			if k < 0 {
				c.bad = true
				break
			}
			if open == "<![CDATA[" {
				c.cdata = c.j + len(open) + k
				c.j += len(open)
			} else {
				c.j += len(open) + k + len(close)
			}
		}
		if c.bad {
			break
		}
		if c.n >= i {
			return c.j
		}
		if c.j >= len(raw) {
			return -1
		}
		switch b := raw[c.j]; {
		case b == '\r':
			c.n++
			c.j++
			if c.j < len(raw) && raw[c.j] == '\n' && (c.cdata == 0 || c.j < c.cdata) {
				c.j++
			}
		case b == '&' && c.cdata == 0:
			k := bytes.IndexByte(raw[c.j:], ';')
			if k < 0 {
				c.bad = true
				break
			}
			c.n += refLen(raw[c.j+1 : c.j+k])
			c.j += k + 1
		case b == '<' && c.cdata == 0:
			c.bad = true
		default:
			c.n++
			c.j++
		}
	}
	return -1
}

// refLen is the length in bytes of what the reference &ref; stands for.
func refLen(ref []byte) int {
	if len(ref) > 1 && ref[0] == '#' {
		var r uint64
		var err error
		if ref[1] == 'x' {
			r, err = strconv.ParseUint(string(ref[2:]), 16, 32)
		} else {
			r, err = strconv.ParseUint(string(ref[1:]), 10, 32)
		}
		if err != nil || !utf8.ValidRune(rune(r)) {
			return utf8.RuneLen(utf8.RuneError)
		}
		return utf8.RuneLen(rune(r))
	}
	return 1 // lt, gt, amp, apos, quot: the only entities Parse accepts
}

// intAttr reads the integer attribute name of n; 0 if it is absent.
func (d *decoder) intAttr(n *node, name string, min int) int {
	v, ok := n.attr(name)
	if !ok {
		return 0
	}
	i, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || i < min {
		d.errorAt(d.attrOff(n.pos, name), "attribute %s=%q: want an integer >= %d", name, v, min)
		return 0
	}
	return i
}

// task decodes the task element n and, through its steps, the tasks
// nested in it; depth is n's nesting, and a step nested deeper than
// MaxDepth is an error left out of the tree.
func (d *decoder) task(n *node, parent *Task, depth int) *Task {
	t := &Task{Pos: n.pos, parent: parent, Type: "atomic", path: d.file}
	t.Name, _ = n.attr("name")
	if v, ok := n.attr("type"); ok {
		t.Type = strings.TrimSpace(v)
	}
	t.Subtype, _ = n.attr("subtype")
	t.DescriptionPos, t.InstructionsPos = t.Pos, t.Pos
	if c := n.child("description"); c != nil {
		t.Description = strings.TrimSpace(c.text.String())
		t.DescriptionPos = c.pos
	}
	if c := n.child("instructions"); c != nil {
		t.Instructions = strings.TrimSpace(c.text.String())
		t.InstructionsPos = c.pos
	}
	if c := n.child("inputs"); c != nil {
		t.Inputs = inputs(c)
	}
	if c := n.child("context_management"); c != nil {
		d.contextManagement(c, &t.Context)
	}
	for _, fp := range n.all("file_paths") {
		t.Sources = append(t.Sources, d.source(fp))
	}
	if c := n.child("output_format"); c != nil {
		o := &OutputFormat{Pos: c.pos}
		o.Type, _ = c.attr("type")
		o.Schema, _ = c.attr("schema")
		t.Output = o
	}
	switch t.Type {
	case TypeLoop:
		d.loop(n, t, depth)
	case TypeReduce:
		d.reduce(n, t, depth)
	default:
		d.noFlowElements(n, t)
	}
	d.steps(n, t, depth)
	return t
}

// inputs decodes the <input> elements of an <inputs> element.
func inputs(c *node) []Input {
	var ins []Input
	for _, in := range c.all("input") {
		i := Input{Pos: in.pos, Doc: strings.TrimSpace(in.text.String())}
		i.Name, _ = in.attr("name")
		i.Default, i.HasDefault = in.attr("default")
		i.From, _ = in.attr("from")
		i.From = strings.TrimSpace(i.From)
		if v, ok := in.attr("relevant"); ok {
			v = strings.TrimSpace(v)
			i.Relevant = v == "true" || v == "1"
		}
		ins = append(ins, i)
	}
	return ins
}

// contextManagement decodes the <context_management> element c into cs:
// each setting present is set with its position, a max_tokens that is
// not a positive integer is an error.
func (d *decoder) contextManagement(c *node, cs *ContextSpec) {
	cs.Pos = c.pos
	str := func(name string, at *Pos) *string {
		if e := c.child(name); e != nil {
			v := strings.TrimSpace(e.text.String())
			*at = e.pos
			return &v
		}
		return nil
	}
	cs.Inherit = str("inherit_context", &cs.InheritPos)
	cs.Format = str("accumulation_format", &cs.FormatPos)
	cs.Fresh = str("fresh_context", &cs.FreshPos)
	if v := str("accumulate_data", &cs.AccumulatePos); v != nil {
		b := *v == "true" || *v == "1"
		cs.Accumulate = &b
	}
	if v := str("max_tokens", &cs.MaxTokensPos); v != nil {
		if i, err := strconv.Atoi(*v); err == nil && i > 0 {
			cs.MaxTokens = i
		} else {
			d.errorf(cs.MaxTokensPos, "max_tokens %q: want a positive integer", *v)
		}
	}
}

// steps decodes the <steps> of task element n into t.Steps. Only a
// sequential task may have steps, and it must.
func (d *decoder) steps(n *node, t *Task, depth int) {
	c := n.child("steps")
	if c == nil {
		if t.Type == "sequential" {
			d.errorf(t.Pos, "sequential task %q has no <steps>", t.Name)
		}
		return
	}
	for _, s := range c.all("task") {
		if depth+1 > MaxDepth {
			// Left out of the tree, so that nothing else is
			// reported about it or inside it.
			d.errorf(s.pos, "task nested %d deep: the limit is %d", depth+1, MaxDepth)
			continue
		}
		t.Steps = append(t.Steps, d.task(s, t, depth+1))
	}
	if t.Type != "sequential" {
		d.errorf(c.pos, "steps are only allowed on type=\"sequential\" tasks (task %q is %s)", t.Name, t.Type)
	}
}

func (d *decoder) source(n *node) FileSource {
	s := FileSource{Pos: n.pos, Kind: SourceLiteral}
	if v, ok := n.attr("source"); ok {
		s.Kind = SourceKind(strings.TrimSpace(v))
	}
	s.Limit = d.intAttr(n, "limit", 1)
	s.MaxFiles = d.intAttr(n, "max_files", 1)
	if v, ok := n.attr("min_score"); ok {
		f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil || !(f >= 0 && f <= 1) { // NaN compares false
			d.errorAt(d.attrOff(n.pos, "min_score"), "min_score=%q: want a number between 0 and 1", v)
		} else {
			s.MinScore, s.HasMinScore = f, true
		}
	}
	if v, ok := n.attr("include"); ok {
		s.Include = d.scopeGlobs(n, "include", v)
	}
	if v, ok := n.attr("exclude"); ok {
		s.Exclude = d.scopeGlobs(n, "exclude", v)
	}
	child := ""
	for _, p := range n.all("path") {
		child = "path"
		ps := PathSpec{Value: strings.TrimSpace(p.text.String()), Pos: p.pos}
		ps.MaxLines = d.intAttr(p, "max_lines", 0)
		if v, ok := p.attr("max_lines"); ok && ps.MaxLines == 0 && strings.TrimSpace(v) == "0" {
			d.errorAt(d.attrOff(p.pos, "max_lines"), "max_lines=\"0\" would keep no line of the file: leave max_lines out to keep them all")
		}
		ps.SkipLines = d.intAttr(p, "skip_lines", 0)
		ps.MaxBytes = d.intAttr(p, "max_bytes", 1)
		s.Paths = append(s.Paths, ps)
	}
	if c := n.child("command"); c != nil {
		child = "command"
		s.Command = strings.TrimSpace(c.text.String())
		s.CommandPos = c.pos
		s.CommandTimeout = d.intAttr(c, "timeout", 1)
	}
	if c := n.child("description"); c != nil {
		child = "description"
		s.Description = strings.TrimSpace(c.text.String())
		s.DescriptionPos = c.pos
	}
	want := map[SourceKind]string{SourceLiteral: "path", SourceCommand: "command", SourceDescription: "description"}[s.Kind]
	if want == "" {
		d.errorAt(d.attrOff(s.Pos, "source"), "file_paths source=%q: want literal, command or description", s.Kind)
	} else if child != "" && child != want {
		d.errorf(s.Pos, "file_paths source=%q must hold <%s>, not <%s>", s.Kind, want, child)
	}
	if s.Kind != SourceDescription {
		if _, ok := n.attr("limit"); ok {
			d.errorAt(d.attrOff(s.Pos, "limit"), "limit applies only to source=\"description\"")
		}
		if s.HasMinScore {
			d.errorAt(d.attrOff(s.Pos, "min_score"), "min_score applies only to source=\"description\"")
		}
	}
	if s.Kind == SourceLiteral {
		for _, a := range []string{"include", "exclude"} {
			if _, ok := n.attr(a); ok {
				d.errorAt(d.attrOff(s.Pos, a), "%s applies only to command and description sources", a)
			}
		}
	}
	return s
}

// scopeGlobs splits an include or exclude attribute into its globs. They
// match slash paths relative to the project, so a glob that could never
// match one (absolute, or starting with ./ or ../) is an error, as is a
// malformed one; either would silently match nothing.
func (d *decoder) scopeGlobs(n *node, attr, v string) []string {
	globs := strings.Fields(v)
	for i, g := range globs {
		// "src/" names a directory: it stands for what the directory
		// holds ("src/**"); as a glob on file paths, which never end in
		// /, it matched nothing.
		if t := strings.TrimRight(g, "/"); t != "" && t != g {
			globs[i] = t + "/**"
		}
		switch {
		case strings.HasPrefix(g, "/") || g == "." || g == ".." || strings.HasPrefix(g, "./") || strings.HasPrefix(g, "../"):
			d.errorAt(d.attrOff(n.pos, attr), "%s glob %q: globs here match paths relative to the project (e.g. \"src/**\"), not %s", attr, g, "absolute or ./ ../ paths")
		case !validGlob(g):
			d.errorAt(d.attrOff(n.pos, attr), "%s glob %q is not a valid glob", attr, g)
		}
	}
	return globs
}

// validGlob reports whether g is a well-formed doublestar glob: every [
// and { is closed, no } is unopened, no [] is empty and no \ ends it. (It
// agrees with doublestar.ValidatePattern, which this package does not
// import.)
func validGlob(g string) bool {
	braces := 0
	for i := 0; i < len(g); i++ {
		switch g[i] {
		case '\\':
			if i++; i == len(g) {
				return false
			}
		case '[':
			j := i + 1
			if j < len(g) && (g[j] == '!' || g[j] == '^') {
				j++
			}
			if j >= len(g) || g[j] == ']' {
				return false
			}
			for ; j < len(g) && g[j] != ']'; j++ {
				if g[j] == '\\' {
					j++
				}
			}
			if j >= len(g) {
				return false
			}
			i = j
		case '{':
			braces++
		case '}':
			if braces == 0 {
				return false
			}
			braces--
		}
	}
	return braces == 0
}
