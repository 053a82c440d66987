package schema

import (
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/lestrrat-go/libxml2/xsd"

	"github.com/taskctl/taskctl/internal/diag"
	"github.com/taskctl/taskctl/internal/lazyregexp"
	"github.com/taskctl/taskctl/internal/xmltext"
)

//go:embed taskctl.xsd
var templateXSD []byte

//go:embed config.xsd
var configXSD []byte

// MaxInput is the largest document Validate accepts.
const MaxInput = 1 << 20

// A Schema is an embedded XSD, compiled once on first use. It is safe for
// concurrent use: the compiled schema is shared read-only and every
// validation has its own parser and validation context.
type Schema struct {
	name     string
	src      []byte
	once     sync.Once
	compiled *xsd.Schema
	err      error
}

var (
	templateSchema = &Schema{name: "taskctl.xsd", src: templateXSD}
	configSchema   = &Schema{name: "config.xsd", src: configXSD}
)

// Template returns the schema of task templates (taskctl.xsd).
func Template() *Schema { return templateSchema }

// Config returns the schema of configuration files (config.xsd).
func Config() *Schema { return configSchema }

// Source returns the XSD text.
func (s *Schema) Source() []byte { return s.src }

// Name returns the XSD's file name.
func (s *Schema) Name() string { return s.name }

func (s *Schema) compile() error {
	s.once.Do(func() {
		compiled, ps, err := compileXSD(s.src)
		if err != nil {
			msgs := []string{err.Error()}
			for _, p := range ps {
				if p.line > 0 {
					msgs = append(msgs, fmt.Sprintf("%s:%d: %s", s.name, p.line, cleanMsg(p.msg)))
				} else {
					msgs = append(msgs, fmt.Sprintf("%s: %s", s.name, cleanMsg(p.msg)))
				}
			}
			s.err = fmt.Errorf("schema %s: %s", s.name, strings.Join(msgs, "; "))
			return
		}
		s.compiled = compiled
	})
	return s.err
}

// ValidationError lists the problems of an invalid document, each at a
// 1-based line and column (the column counts Unicode code points).
type ValidationError struct {
	Problems []diag.Problem
}

func (e *ValidationError) Error() string {
	return diag.Lines(e.Problems)
}

// Validate checks data, the content of file, against the schema. It returns
// nil for a valid document and a *ValidationError listing every problem
// (up to 100) with file:line:col otherwise. Any other error means the schema
// itself could not be used.
//
// The document is UTF-8, with or without a byte-order mark, or UTF-16 with
// one (see package internal/xmltext); its bytes decide, whatever its XML
// declaration says, so an ASCII document declaring another encoding is fine
// and a byte that is not UTF-8 in a UTF-8 document is a problem.
//
// Documents are parsed without network access, without loading external
// entities, DTDs or schemas (xsi:schemaLocation is ignored), and a document
// with a DOCTYPE is refused before libxml2 sees it, so entity expansion
// attacks never start. Documents larger than MaxInput are refused.
func (s *Schema) Validate(file string, data []byte) error {
	return s.validate(file, data, MaxInput)
}

func (s *Schema) validate(file string, data []byte, limit int) error {
	if err := s.compile(); err != nil {
		return err
	}
	text, sc, refusal := admit(data, limit)
	if refusal != nil {
		refusal.File = file
		return &ValidationError{Problems: []diag.Problem{*refusal}}
	}
	raw, dropped, dtd, err := validateC(s.compiled, text)
	if err != nil {
		return err
	}
	if dtd { // found by libxml2 where the scan did not: still refused
		l, c := 1, 1
		if i := bytes.Index(text, []byte("<!DOCTYPE")); i >= 0 {
			l, c = lineCol(text, int64(i))
		}
		return &ValidationError{Problems: []diag.Problem{{File: file, Line: l, Col: c, Message: "DOCTYPE is not allowed"}}}
	}
	if len(raw) == 0 {
		return nil
	}
	return &ValidationError{Problems: place(file, text, sc, raw, dropped)}
}

// admit decodes data to UTF-8 text and scans it, or returns why it is
// refused before libxml2 sees it (the problem's File is left to the
// caller).
func admit(data []byte, limit int) ([]byte, scanResult, *diag.Problem) {
	if len(data) > limit {
		return nil, scanResult{}, &diag.Problem{Line: 1, Col: 1,
			Message: fmt.Sprintf("document is %d bytes; the limit is %d", len(data), limit)}
	}
	text, err := xmltext.Decode(data)
	if err != nil {
		p := &diag.Problem{Line: 1, Col: 1, Message: err.Error()}
		var xe *xmltext.Error
		if errors.As(err, &xe) {
			p.Line, p.Col, p.Message = xe.Line, xe.Col, xe.Msg
		}
		return nil, scanResult{}, p
	}
	if len(bytes.TrimSpace(text)) == 0 {
		return nil, scanResult{}, &diag.Problem{Line: 1, Col: 1, Message: "document is empty"}
	}
	// libxml2 takes a NUL byte for the end of the input when it is not
	// inside an element, so a valid document followed by NUL and anything at
	// all would pass. XML never allows the character: refuse it here.
	if i := bytes.IndexByte(text, 0); i >= 0 {
		l, c := lineCol(text, int64(i))
		return nil, scanResult{}, &diag.Problem{Line: l, Col: c,
			Message: "NUL byte: the character U+0000 is not allowed in XML"}
	}
	sc := scan(text)
	if sc.doctype >= 0 {
		l, c := lineCol(text, sc.doctype)
		return nil, scanResult{}, &diag.Problem{Line: l, Col: c,
			Message: "DOCTYPE is not allowed: templates never need one, and DTDs and entities are refused"}
	}
	return text, sc, nil
}

// place turns libxml2's problems with text into Problems of file: a
// validity problem is put at the '<' of its element, or at the attribute
// it names; a well-formedness problem stays where libxml2 put it. dropped
// problems beyond the cap become a note.
func place(file string, text []byte, sc scanResult, raw []rawProblem, dropped int) []diag.Problem {
	var out []diag.Problem
	pos := newPositions(text)
	for _, r := range raw {
		p := diag.Problem{File: file, Line: r.line, Col: r.col, Message: cleanMsg(r.msg)}
		if !r.parse && r.elem >= 0 && r.elem < len(sc.starts) {
			off := sc.starts[r.elem]
			if r.attr == "" {
				if m := attrInMsg.Re().FindStringSubmatch(r.msg); m != nil {
					r.attr = m[1]
				}
			}
			if r.attr != "" {
				if a := attrOffset(text, off, r.attr); a >= 0 {
					off = a
				}
			}
			p.Line, p.Col = pos.at(off)
		}
		p.Line, p.Col = max(p.Line, 1), max(p.Col, 1)
		out = append(out, p)
	}
	if dropped > 0 {
		last := out[len(out)-1]
		out = append(out, diag.Problem{File: file, Line: last.Line, Col: last.Col,
			Message: fmt.Sprintf("%d more problems not shown", dropped)})
	}
	return out
}

// attrInMsg finds the attribute a libxml2 validity message is about.
var attrInMsg = lazyregexp.New(`^Element '[^']*', attribute '([^']+)'`)

// scanResult holds the offset of the '<' of every start tag in document
// order, and of a DOCTYPE (or -1).
type scanResult struct {
	starts  []int64
	doctype int64
}

// scan finds start tags and a DOCTYPE lexically. The start tags are only
// used once libxml2 has found the document well-formed, and then every '<'
// outside comments, CDATA sections and processing instructions (each ending
// at its first terminator, as in libxml2) begins a tag: neither text nor
// attribute values may hold one. So the offsets pair one to one with
// libxml2's elements whatever the names, the XML version or the declared
// encoding — unlike a second XML parser, which would stop wherever it is
// stricter than libxml2.
//
// A DOCTYPE is a "<!DOCTYPE" before the first start tag: libxml2 reads a
// document type declaration only in the prolog, after the XML declaration,
// comments and processing instructions, which this scan skips the same way.
func scan(data []byte) scanResult {
	r := scanResult{doctype: -1}
	i := 0
	for {
		j := bytes.IndexByte(data[i:], '<')
		if j < 0 {
			return r
		}
		i += j
		rest := data[i:]
		var end []byte
		switch {
		case bytes.HasPrefix(rest, []byte("<!--")):
			end = []byte("-->")
		case bytes.HasPrefix(rest, []byte("<![CDATA[")):
			end = []byte("]]>")
		case bytes.HasPrefix(rest, []byte("<?")):
			end = []byte("?>")
		case bytes.HasPrefix(rest, []byte("<!DOCTYPE")) && len(r.starts) == 0:
			r.doctype = int64(i)
			return r
		case bytes.HasPrefix(rest, []byte("</")), bytes.HasPrefix(rest, []byte("<!")):
		default:
			r.starts = append(r.starts, int64(i))
		}
		if end == nil {
			i++
			continue
		}
		k := bytes.Index(rest[2:], end)
		if k < 0 {
			return r
		}
		i += 2 + k + len(end)
	}
}

// attrOffset returns the offset of attribute name in the start tag whose
// '<' is at off, or -1. name is as libxml2 prints it: "local", or
// "{namespace}local" for a namespaced attribute, which then matches any
// "prefix:local". Quoted values are skipped, so a name inside another
// attribute's value is never taken for the attribute.
func attrOffset(data []byte, off int64, name string) int64 {
	local, namespaced := name, false
	if strings.HasPrefix(name, "{") {
		if k := strings.IndexByte(name, '}'); k >= 0 {
			local, namespaced = name[k+1:], true
		}
	}
	isSpace := func(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
	ends := func(c byte) bool { return isSpace(c) || c == '=' || c == '>' || c == '/' }
	i := int(off) + 1
	for i < len(data) && !ends(data[i]) { // the element's name
		i++
	}
	for {
		for i < len(data) && isSpace(data[i]) {
			i++
		}
		if i >= len(data) || data[i] == '>' || data[i] == '/' || data[i] == '=' {
			return -1
		}
		start := i
		for i < len(data) && !ends(data[i]) {
			i++
		}
		attr := string(data[start:i])
		if (!namespaced && attr == name) || (namespaced && strings.HasSuffix(attr, ":"+local)) {
			return int64(start)
		}
		for i < len(data) && isSpace(data[i]) {
			i++
		}
		if i >= len(data) || data[i] != '=' {
			return -1
		}
		i++
		for i < len(data) && isSpace(data[i]) {
			i++
		}
		if i >= len(data) || (data[i] != '"' && data[i] != '\'') {
			return -1
		}
		end := bytes.IndexByte(data[i+1:], data[i])
		if end < 0 {
			return -1
		}
		i += end + 2
	}
}

// lineCol turns a byte offset into a 1-based line and rune column.
func lineCol(data []byte, off int64) (int, int) { return newPositions(data).at(off) }

// positions turns byte offsets into 1-based lines and rune columns of text,
// which xmltext.Decode has stripped of its byte-order mark. Asked
// for offsets in increasing order, as libxml2 reports problems, it reads
// the document once in all: counting from the start of the line for each
// problem cost a pass over the line per problem, 100 passes on a one-line
// document of 1 MiB.
type positions struct {
	data      []byte
	off       int64 // how far it has read
	line, col int   // the position of off
}

func newPositions(data []byte) *positions { return &positions{data: data, line: 1, col: 1} }

func (p *positions) at(off int64) (int, int) {
	off = min(max(off, 0), int64(len(p.data)))
	if off < p.off {
		*p = *newPositions(p.data)
	}
	for p.off < off {
		c := p.data[p.off]
		switch {
		case c == '\n':
			p.line++
			p.col = 1
			p.off++
			continue
		case c < utf8.RuneSelf:
			p.off++
		default:
			_, n := utf8.DecodeRune(p.data[p.off:off]) // an invalid byte counts as one
			p.off += int64(n)
		}
		p.col++
	}
	return p.line, p.col
}

// cleanMsg trims libxml2's message: no trailing newline, valid UTF-8, and
// long quoted values shortened so a message stays readable.
func cleanMsg(m string) string {
	m = strings.ToValidUTF8(strings.TrimSpace(m), "\uFFFD")
	m = strings.Join(strings.Fields(m), " ")
	// Declared encodings are ignored (the bytes decide), so libxml2's
	// advice to "indicate encoding" would mislead.
	if rest, ok := strings.CutPrefix(m, "Input is not proper UTF-8, indicate encoding !"); ok {
		m = "invalid UTF-8; templates must be UTF-8." + rest
	}
	if len(m) > 400 {
		m = m[:400]
		for !utf8.ValidString(m) {
			m = m[:len(m)-1]
		}
		m += "…"
	}
	return m
}
