package workflow

import (
	"fmt"
	"strings"

	"github.com/taskctl/taskctl/template"
)

// Accumulation formats.
const (
	NotesOnly  = "notes_only"
	FullOutput = "full_output"
)

// prompt renders what an atomic step's executor reads on stdin. It is text
// whose sections are delimited by XML-like tags; the content of a section is
// not escaped, so the prompt is not an XML document:
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
// A document that is already a <context> element (the XML style) is not
// wrapped again. Empty sections are left out. In a dry run the notes and output of an
// earlier step show as <pending: NAME.notes> and <pending: NAME.output>.
func prompt(t *template.Task, hist []*StepResult, format string, document string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "<task name=%q>\n", t.Name)
	section(&b, "description", t.Description)
	section(&b, "instructions", t.Instructions)
	if len(t.Inputs) > 0 {
		vals := t.Vars()
		b.WriteString("<inputs>\n")
		for _, in := range t.Inputs {
			fmt.Fprintf(&b, "<input name=%q>%s</input>\n", in.Name, block(vals[in.Name]))
		}
		b.WriteString("</inputs>\n")
	}
	if format != "" && len(hist) > 0 {
		fmt.Fprintf(&b, "<previous_outputs format=%q>\n", format)
		for _, h := range hist {
			if h.Status == StepPlanned {
				fmt.Fprintf(&b, "<step name=%q status=\"pending\">\n<notes>%s</notes>\n", h.label(), pending(h.label()+".notes"))
				if format == FullOutput {
					fmt.Fprintf(&b, "<output>%s</output>\n", pending(h.label()+".output"))
				}
				b.WriteString("</step>\n")
				continue
			}
			if h.Status != StepOK {
				fmt.Fprintf(&b, "<step name=%q status=%q/>\n", h.label(), h.Status)
				continue
			}
			fmt.Fprintf(&b, "<step name=%q status=%q>\n", h.label(), h.Status)
			notes := "(none)"
			if h.Notes != nil {
				if v, err := decode(h.Notes); err == nil {
					notes = text(v)
				}
			}
			fmt.Fprintf(&b, "<notes>%s</notes>\n", block(notes))
			if format == FullOutput {
				fmt.Fprintf(&b, "<output>%s</output>\n", block(h.Output))
			}
			b.WriteString("</step>\n")
		}
		b.WriteString("</previous_outputs>\n")
	}
	if o := t.Output; o != nil && o.Type != "" {
		if o.Schema != "" {
			fmt.Fprintf(&b, "<output_format type=%q schema=%q/>\n", o.Type, o.Schema)
		} else {
			fmt.Fprintf(&b, "<output_format type=%q/>\n", o.Type)
		}
	}
	b.WriteString("</task>\n")
	switch d := strings.TrimSpace(document); {
	case d == "":
	case strings.HasPrefix(d, "<context"):
		// contextgen's XML style is already a <context> element.
		b.WriteString(withNewline(document))
	default:
		fmt.Fprintf(&b, "<context>\n%s</context>\n", withNewline(document))
	}
	return b.String()
}

func section(b *strings.Builder, tag, s string) {
	if s = strings.TrimSpace(s); s != "" {
		fmt.Fprintf(b, "<%s>%s</%s>\n", tag, block(s), tag)
	}
}

// block puts multi-line text on lines of its own.
func block(s string) string {
	s = strings.TrimRight(s, "\r\n")
	if strings.Contains(s, "\n") {
		return "\n" + s + "\n"
	}
	return s
}

func withNewline(s string) string {
	if strings.HasSuffix(s, "\n") {
		return s
	}
	return s + "\n"
}
