package template

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// node is an element of the template's tree, with its position.
type node struct {
	name     string
	attrs    []xml.Attr
	children []*node
	text     strings.Builder
	pos      Pos
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
func parseTree(data []byte, ps *positioner) (*node, int64, error) {
	d := xml.NewDecoder(bytes.NewReader(data))
	d.Strict = true
	d.Entity = nil
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
			n := &node{name: t.Name.Local, attrs: append([]xml.Attr(nil), t.Attr...), pos: ps.pos(off)}
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

// positioner turns byte offsets into lines and rune columns. It remembers
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
		if off >= 3 && bytes.HasPrefix(p.data, []byte("\xef\xbb\xbf")) {
			p.off = 3 // editors do not count a byte-order mark
		}
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
	pos      *positioner
	problems []Problem
	warnings []Problem

	spans map[*Task]span   // set by number
	named map[string]*Task // set by number
}

func (d *decoder) errorf(p Pos, format string, a ...any) {
	d.problems = append(d.problems, Problem{File: d.file, Line: p.Line, Col: p.Col, Msg: fmt.Sprintf(format, a...)})
}

func (d *decoder) warnf(p Pos, code, format string, a ...any) {
	d.warnings = append(d.warnings, Problem{File: d.file, Line: p.Line, Col: p.Col, Code: code, Msg: fmt.Sprintf(format, a...)})
}

func (d *decoder) intAttr(n *node, name string, min int) int {
	v, ok := n.attr(name)
	if !ok {
		return 0
	}
	i, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || i < min {
		d.errorf(n.pos, "attribute %s=%q: want an integer >= %d", name, v, min)
		return 0
	}
	return i
}

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
		for _, in := range c.all("input") {
			i := Input{Pos: in.pos, Doc: strings.TrimSpace(in.text.String())}
			i.Name, _ = in.attr("name")
			i.Default, i.HasDefault = in.attr("default")
			i.From, _ = in.attr("from")
			if v, ok := in.attr("relevant"); ok {
				v = strings.TrimSpace(v)
				i.Relevant = v == "true" || v == "1"
			}
			t.Inputs = append(t.Inputs, i)
		}
	}
	if c := n.child("context_management"); c != nil {
		t.Context.Pos = c.pos
		str := func(name string) *string {
			if e := c.child(name); e != nil {
				v := strings.TrimSpace(e.text.String())
				return &v
			}
			return nil
		}
		t.Context.Inherit = str("inherit_context")
		t.Context.Format = str("accumulation_format")
		t.Context.Fresh = str("fresh_context")
		if v := str("accumulate_data"); v != nil {
			b := *v == "true" || *v == "1"
			t.Context.Accumulate = &b
		}
		if v := str("max_tokens"); v != nil {
			if i, err := strconv.Atoi(*v); err == nil && i > 0 {
				t.Context.MaxTokens = i
			} else {
				d.errorf(t.Context.Pos, "max_tokens %q: want a positive integer", *v)
			}
		}
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
	if c := n.child("steps"); c != nil {
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
	} else if t.Type == "sequential" {
		d.errorf(t.Pos, "sequential task %q has no <steps>", t.Name)
	}
	return t
}

func (d *decoder) source(n *node) FileSource {
	s := FileSource{Pos: n.pos, Kind: "literal"}
	if v, ok := n.attr("source"); ok {
		s.Kind = strings.TrimSpace(v)
	}
	s.Limit = d.intAttr(n, "limit", 1)
	s.MaxFiles = d.intAttr(n, "max_files", 1)
	if v, ok := n.attr("min_score"); ok {
		f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil || !(f >= 0 && f <= 1) { // NaN compares false
			d.errorf(s.Pos, "min_score=%q: want a number between 0 and 1", v)
		} else {
			s.MinScore, s.HasMinScore = f, true
		}
	}
	if v, ok := n.attr("include"); ok {
		s.Include = strings.Fields(v)
	}
	if v, ok := n.attr("exclude"); ok {
		s.Exclude = strings.Fields(v)
	}
	child := ""
	for _, p := range n.all("path") {
		child = "path"
		ps := PathSpec{Value: strings.TrimSpace(p.text.String()), Pos: p.pos}
		ps.MaxLines = d.intAttr(p, "max_lines", 0)
		ps.SkipLines = d.intAttr(p, "skip_lines", 0)
		ps.MaxBytes = d.intAttr(p, "max_bytes", 1)
		s.Paths = append(s.Paths, ps)
	}
	if c := n.child("command"); c != nil {
		child = "command"
		s.Command = strings.TrimSpace(c.text.String())
		s.CommandTimeout = d.intAttr(c, "timeout", 1)
	}
	if c := n.child("description"); c != nil {
		child = "description"
		s.Description = strings.TrimSpace(c.text.String())
	}
	want := map[string]string{"literal": "path", "command": "command", "description": "description"}[s.Kind]
	if want == "" {
		d.errorf(s.Pos, "file_paths source=%q: want literal, command or description", s.Kind)
	} else if child != "" && child != want {
		d.errorf(s.Pos, "file_paths source=%q must hold <%s>, not <%s>", s.Kind, want, child)
	}
	if s.Kind != "description" {
		if _, ok := n.attr("limit"); ok {
			d.errorf(s.Pos, "limit applies only to source=\"description\"")
		}
		if s.HasMinScore {
			d.errorf(s.Pos, "min_score applies only to source=\"description\"")
		}
	}
	if s.Kind == "literal" && (len(s.Include) > 0 || len(s.Exclude) > 0) {
		d.errorf(s.Pos, "include and exclude apply only to command and description sources")
	}
	return s
}
