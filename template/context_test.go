package template_test

import (
	"testing"

	"github.com/taskctl/taskctl/template"
)

func TestEffectiveContext(t *testing.T) {
	const steps = `<steps><task><description>x</description></task></steps>`
	cases := []struct {
		name, typ, cm string // cm: the children of <context_management>, or "-" for none
		want          template.Context
	}{
		{"atomic defaults", "atomic", "-",
			template.Context{Inherit: "full", Accumulate: false, Format: "notes_only", Fresh: "disabled"}},
		{"sequential defaults", "sequential", "-",
			template.Context{Inherit: "full", Accumulate: true, Format: "notes_only", Fresh: "disabled"}},
		{"empty element is all defaults", "sequential", "",
			template.Context{Inherit: "full", Accumulate: true, Format: "notes_only", Fresh: "disabled"}},
		{"inherit only", "atomic", "<inherit_context>subset</inherit_context>",
			template.Context{Inherit: "subset", Accumulate: false, Format: "notes_only", Fresh: "disabled"}},
		{"accumulate on atomic", "atomic", "<accumulate_data>true</accumulate_data>",
			template.Context{Inherit: "full", Accumulate: true, Format: "notes_only", Fresh: "disabled"}},
		{"accumulate 1", "atomic", "<accumulate_data> 1 </accumulate_data>",
			template.Context{Inherit: "full", Accumulate: true, Format: "notes_only", Fresh: "disabled"}},
		{"accumulate off on sequential", "sequential", "<accumulate_data>false</accumulate_data>",
			template.Context{Inherit: "full", Accumulate: false, Format: "notes_only", Fresh: "disabled"}},
		{"format only keeps the sequential accumulate", "sequential", "<accumulation_format>full_output</accumulation_format>",
			template.Context{Inherit: "full", Accumulate: true, Format: "full_output", Fresh: "disabled"}},
		{"fresh with none", "atomic", "<fresh_context>enabled</fresh_context><inherit_context>none</inherit_context>",
			template.Context{Inherit: "none", Accumulate: false, Format: "notes_only", Fresh: "enabled"}},
		{"max_tokens only", "sequential", "<max_tokens>300</max_tokens>",
			template.Context{Inherit: "full", Accumulate: true, Format: "notes_only", Fresh: "disabled", MaxTokens: 300}},
		{"everything", "atomic", "<inherit_context>none</inherit_context><accumulate_data>true</accumulate_data><accumulation_format>full_output</accumulation_format><fresh_context>disabled</fresh_context><max_tokens>7</max_tokens>",
			template.Context{Inherit: "none", Accumulate: true, Format: "full_output", Fresh: "disabled", MaxTokens: 7}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			doc := `<task name="t" type="` + c.typ + `"><description>d</description>`
			if c.cm != "-" {
				doc += "<context_management>" + c.cm + "</context_management>"
			}
			if c.typ == "sequential" {
				doc += steps
			}
			doc += "</task>"
			f, err := template.Parse("t.xml", []byte(doc))
			if err != nil {
				t.Fatal(err)
			}
			if got := f.Tasks[0].EffectiveContext(); got != c.want {
				t.Errorf("EffectiveContext() = %+v, want %+v", got, c.want)
			}
		})
	}
}

// A step's effective context comes from its own type and settings, not from
// the sequential task around it.
func TestEffectiveContextOfStep(t *testing.T) {
	f, err := template.Parse("t.xml", []byte(`<task name="s" type="sequential"><description>d</description>
<context_management><inherit_context>subset</inherit_context><accumulation_format>full_output</accumulation_format></context_management>
<steps><task name="a"><description>a</description></task></steps></task>`))
	if err != nil {
		t.Fatal(err)
	}
	want := template.Context{Inherit: "full", Format: "notes_only", Fresh: "disabled"}
	if got := f.Lookup("a").EffectiveContext(); got != want {
		t.Errorf("step: %+v, want %+v", got, want)
	}
}
