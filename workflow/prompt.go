package workflow

import (
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/taskctl/taskctl/contextgen"
	"github.com/taskctl/taskctl/internal/lazyregexp"
	"github.com/taskctl/taskctl/template"
)

// Accumulation formats.
const (
	NotesOnly  = "notes_only"
	FullOutput = "full_output"
)

// prompt renders what an atomic step's executor reads on stdin: two XML
// elements, the task and its context.
//
//	<task name="NAME">
//	<description>...</description>
//	<instructions>...</instructions>
//	<inputs>
//	<input name="NAME">value</input>
//	</inputs>
//	<previous_outputs format="notes_only|full_output">
//	<step name="NAME" status="ok">
//	<notes>...</notes>
//	<output>...</output>
//	</step>
//	</previous_outputs>
//	<output_format type="json" schema="object"/>
//	</task>
//	<context>
//	the context document
//	</context>
//
// No value can close an element or open one: every attribute is escaped,
// and a value that holds markup (<, &, "]]>" or a carriage return) is
// written in CDATA sections (see writeText), so that a parser reads back
// exactly the value and the model sees it as it was. Characters XML 1.0
// cannot carry become U+FFFD. A context document made of well-formed XML
// elements goes in as XML (contextgen's XML style, one <context> element,
// as it is); any other document, such as the markdown and plain styles, is
// the value of a <context> element (see docKind). Empty sections are left
// out.
//
// In a dry run (dry), the notes and output of an earlier step show as
// <pending: NAME.notes> and <pending: NAME.output>, and a bound input that
// waits for one as <pending: STEP.FIELD>: such markers, which are not XML,
// are kept as they are where the reference is plain (letters, digits and
// _ - . #), so a planned prompt is XML but for them.
func prompt(t *template.Task, hist []*StepResult, format string, document string, dry bool) string {
	return promptWith(t, hist, format, document, dry, nil)
}

// promptWith is prompt with the sections extra writes (a reduction task's
// results) after previous_outputs.
func promptWith(t *template.Task, hist []*StepResult, format string, document string, dry bool, extra func(*promptWriter)) string {
	p := &promptWriter{dry: dry}
	b := &p.b
	b.WriteString("<task name=\"")
	p.attr(t.Name)
	b.WriteString("\">\n")
	p.section("description", strings.TrimSpace(t.Description))
	p.section("instructions", strings.TrimSpace(t.Instructions))
	if len(t.Inputs) > 0 {
		vals := t.Vars()
		b.WriteString("<inputs>\n")
		for _, in := range t.Inputs {
			b.WriteString("<input name=\"")
			p.attr(in.Name)
			b.WriteString("\">")
			p.block(vals[in.Name])
			b.WriteString("</input>\n")
		}
		b.WriteString("</inputs>\n")
	}
	if format != "" && len(hist) > 0 {
		b.WriteString("<previous_outputs format=\"")
		p.attr(format)
		b.WriteString("\">\n")
		for _, h := range hist {
			p.previous(h, format)
		}
		b.WriteString("</previous_outputs>\n")
	}
	if extra != nil {
		extra(p)
	}
	if o := t.Output; o != nil && o.Type != "" {
		b.WriteString("<output_format type=\"")
		p.attr(o.Type)
		if o.Schema != "" {
			b.WriteString("\" schema=\"")
			p.attr(o.Schema)
		}
		b.WriteString("\"/>\n")
	}
	b.WriteString("</task>\n")
	if d := strings.TrimSpace(document); d != "" {
		switch docKind(d) {
		case docContext:
			b.WriteString(withNewline(document))
		case docElements:
			fmt.Fprintf(b, "<context>\n%s</context>\n", withNewline(document))
		default:
			b.WriteString("<context>\n")
			p.text(withNewline(document))
			b.WriteString("</context>\n")
		}
	}
	return b.String()
}

// previous writes the <step> of an earlier result h.
func (p *promptWriter) previous(h *StepResult, format string) {
	b := &p.b
	b.WriteString("<step name=\"")
	p.attr(h.label())
	switch {
	case h.Status == StepPlanned:
		b.WriteString("\" status=\"pending\">\n<notes>")
		p.text(pending(h.label() + ".notes"))
		b.WriteString("</notes>\n")
		if format == FullOutput {
			b.WriteString("<output>")
			p.text(pending(h.label() + ".output"))
			b.WriteString("</output>\n")
		}
		b.WriteString("</step>\n")
		return
	case h.Status != StepOK:
		b.WriteString("\" status=\"")
		p.attr(h.Status)
		b.WriteString("\"/>\n")
		return
	}
	b.WriteString("\" status=\"")
	p.attr(h.Status)
	b.WriteString("\">\n")
	notes := "(none)"
	if h.Notes != nil {
		if v, err := decode(h.Notes); err == nil {
			notes = text(v)
		}
	}
	b.WriteString("<notes>")
	p.block(notes)
	b.WriteString("</notes>\n")
	if format == FullOutput {
		b.WriteString("<output>")
		p.block(h.Output)
		b.WriteString("</output>\n")
	}
	b.WriteString("</step>\n")
}

// promptWriter builds a prompt; in a dry run it keeps pending markers.
type promptWriter struct {
	b   strings.Builder
	dry bool
}

func (p *promptWriter) section(tag, s string) {
	if s == "" {
		return
	}
	p.b.WriteString("<" + tag + ">")
	p.block(s)
	p.b.WriteString("</" + tag + ">\n")
}

// block writes s as an element's content, a multi-line s on lines of its
// own, without its trailing line breaks.
func (p *promptWriter) block(s string) {
	s = strings.TrimRight(s, "\r\n")
	multi := strings.Contains(s, "\n")
	if multi {
		p.b.WriteByte('\n')
	}
	p.text(s)
	if multi {
		p.b.WriteByte('\n')
	}
}

// pendingMarker is a dry run's "<pending: STEP.FIELD>" with a plain
// reference.
var pendingMarker = lazyregexp.New(`<pending: [A-Za-z0-9_#.\-]+>`)

// text writes s as character data; in a dry run, pending markers as they are.
func (p *promptWriter) text(s string) {
	if !p.dry || !strings.Contains(s, "<pending: ") {
		writeText(&p.b, s)
		return
	}
	done := 0
	for _, m := range pendingMarker.Re().FindAllStringIndex(s, -1) {
		writeText(&p.b, s[done:m[0]])
		p.b.WriteString(s[m[0]:m[1]])
		done = m[1]
	}
	writeText(&p.b, s[done:])
}

// attr writes s escaped for a double-quoted attribute (line breaks and
// tabs as character references, so that they survive a parser's
// attribute normalisation).
func (p *promptWriter) attr(s string) {
	// (xml.EscapeText also replaces what XML cannot carry with U+FFFD; it
	// cannot fail on a strings.Builder.)
	_ = xml.EscapeText(&p.b, []byte(s))
}

// writeText writes s as XML character data that a parser reads back as s
// (less what XML 1.0 cannot carry, which becomes U+FFFD). Text without <,
// & or "]]>" is written as it is. Other text goes in CDATA sections, which
// keep code and JSON as they are for the model instead of turning every <
// into &lt;: a section ends before the ">" of each "]]>" and starts again
// after it, and a carriage return is written between two sections as
// &#xD;, since a parser turns a literal one (and \r\n) into \n.
func writeText(b *strings.Builder, s string) {
	s = contextgen.XMLSafe(s)
	if !strings.ContainsAny(s, "<&\r") && !strings.Contains(s, "]]>") {
		b.WriteString(s)
		return
	}
	b.WriteString("<![CDATA[")
	for {
		i := strings.IndexAny(s, "]\r")
		if i < 0 {
			break
		}
		switch {
		case s[i] == '\r':
			b.WriteString(s[:i])
			b.WriteString("]]>&#xD;<![CDATA[")
			s = s[i+1:]
		case strings.HasPrefix(s[i:], "]]>"):
			b.WriteString(s[:i+2])
			b.WriteString("]]><![CDATA[")
			s = s[i+2:]
		default:
			b.WriteString(s[:i+1])
			s = s[i+1:]
		}
	}
	b.WriteString(s)
	b.WriteString("]]>")
}

// Kinds of context document (docKind).
const (
	docText     = iota // anything else: a value of <context>
	docElements        // well-formed XML elements: the content of <context>
	docContext         // one well-formed <context> element: the whole of it
)

// docKind says how a context document goes into a prompt. Only a document
// made of nothing but well-formed XML elements (and white space between
// them) goes in as XML: contextgen's XML style is one <context> element,
// taken as it is; other elements are wrapped in one. The markdown and
// plain styles start with text and are values.
func docKind(doc string) int {
	if !strings.HasPrefix(doc, "<") {
		return docText
	}
	d := xml.NewDecoder(strings.NewReader(doc))
	var open []xml.Name // (RawToken does not match end tags to start tags)
	roots, context := 0, false
	for {
		tok, err := d.RawToken()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return docText
		}
		switch x := tok.(type) {
		case xml.StartElement:
			if len(open) == 0 {
				roots++
				context = x.Name == xml.Name{Local: "context"}
			}
			open = append(open, x.Name)
		case xml.EndElement:
			if len(open) == 0 || open[len(open)-1] != x.Name {
				return docText
			}
			open = open[:len(open)-1]
		case xml.CharData:
			if len(open) == 0 && strings.TrimSpace(string(x)) != "" {
				return docText
			}
		case xml.ProcInst, xml.Directive:
			return docText
		}
	}
	switch {
	case len(open) != 0 || roots == 0:
		return docText
	case roots == 1 && context:
		return docContext
	}
	return docElements
}

func withNewline(s string) string {
	if strings.HasSuffix(s, "\n") {
		return s
	}
	return s + "\n"
}
