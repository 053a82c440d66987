package template_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/taskctl/taskctl/template"
)

func TestEffectiveContext(t *testing.T) {
	f, err := template.Parse("t.xml", []byte(`<tasks>
<task name="a"><description>a</description></task>
<task name="s" type="sequential"><description>s</description><steps><task name="x"><description>x</description></task></steps></task>
<task name="p"><description>p</description><context_management><accumulate_data>true</accumulate_data><accumulation_format>full_output</accumulation_format></context_management></task>
</tasks>`))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]template.Context{
		"a": {Inherit: "full", Accumulate: false, Format: "notes_only", Fresh: "disabled"},
		"s": {Inherit: "full", Accumulate: true, Format: "notes_only", Fresh: "disabled"},
		"p": {Inherit: "full", Accumulate: true, Format: "full_output", Fresh: "disabled"},
	}
	for name, w := range want {
		if got := f.Lookup(name).EffectiveContext(); got != w {
			t.Errorf("%s: %+v, want %+v", name, got, w)
		}
	}
}

func TestBind(t *testing.T) {
	f, err := template.Parse("t.xml", []byte(`<task name="s" type="sequential">
  <description>outer {{ area }}</description>
  <inputs>
    <input name="area" default="src"/>
    <input name="who">required</input>
  </inputs>
  <file_paths><path>{{area}}/a.go</path></file_paths>
  <file_paths source="command"><command>grep -rl x "$area"</command></file_paths>
  <steps>
    <task name="a"><description>in {{area}} for {{who}}</description></task>
    <task name="b">
      <description>after {{prev}}</description>
      <inputs><input name="prev" from="a.output"/></inputs>
    </task>
  </steps>
</task>`))
	if err != nil {
		t.Fatal(err)
	}
	s := f.Tasks[0]
	_, err = s.Bind(nil)
	var ie *template.InputError
	if !errors.As(err, &ie) || ie.Input != "who" || ie.Pos.Line != 5 || !strings.Contains(err.Error(), `missing required input "who"`) || !strings.Contains(err.Error(), "t.xml:5:") {
		t.Fatalf("Bind(nil) = %v, want a missing-input error for who at line 5", err)
	}
	b, err := s.Bind(map[string]string{"who": "ada"})
	if err != nil {
		t.Fatal(err)
	}
	if b.Description != "outer src" || b.Sources[0].Paths[0].Value != "src/a.go" || b.Sources[1].Command != `grep -rl x "$area"` {
		t.Errorf("bound: %q %q %q", b.Description, b.Sources[0].Paths[0].Value, b.Sources[1].Command)
	}
	if v := b.Vars(); v["area"] != "src" || v["who"] != "ada" {
		t.Errorf("Vars = %v", v)
	}
	if s.Description != "outer {{ area }}" || s.Vars() != nil {
		t.Error("Bind changed the original")
	}
	b.Sources[0].Paths[0].Value = "changed"
	if s.Sources[0].Paths[0].Value != "{{area}}/a.go" {
		t.Error("Bind did not deep-copy the sources")
	}
	// Steps see the bound values of the task around them.
	a, err := b.Steps[0].Bind(nil)
	if err != nil {
		t.Fatal(err)
	}
	if a.Description != "in src for ada" {
		t.Errorf("step a: %q", a.Description)
	}
	// A from input not yet known is pending; given a value, it substitutes.
	pb, err := b.Steps[1].Bind(nil)
	if err != nil || pb.Description != "after <pending: a.output>" {
		t.Errorf("pending: %q %v", pb.Description, err)
	}
	pb, err = b.Steps[1].Bind(map[string]string{"prev": "the plan"})
	if err != nil || pb.Description != "after the plan" {
		t.Errorf("bound from: %q %v", pb.Description, err)
	}
	// --var wins over a default.
	o, _ := s.Bind(map[string]string{"who": "x", "area": "cmd"})
	if o.Description != "outer cmd" {
		t.Errorf("var over default: %q", o.Description)
	}
	d := s.Declared()
	if !d["area"] || !d["who"] || !d["prev"] || d["nosuch"] {
		t.Errorf("Declared = %v", d)
	}
}

func FuzzParse(f *testing.F) {
	seeds, _ := filepath.Glob("../examples/demo/.taskctl/tasks/*.xml")
	more, _ := filepath.Glob("../schema/testdata/valid/*.xml")
	for _, p := range append(seeds, more...) {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte(`<task><description>{{a}}</description></task>`))
	f.Add([]byte(`<tasks><task name="a" type="sequential"><description>x</description><steps><task name="a"/></steps></task></tasks>`))
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := template.Parse("f.xml", data)
		if err != nil {
			var te *template.Error
			if !errors.As(err, &te) || len(te.Problems) == 0 {
				t.Fatalf("error %v is not a *template.Error with problems", err)
			}
			for _, p := range te.Problems {
				if p.Line < 1 || p.Col < 1 {
					t.Fatalf("bad position %+v", p)
				}
			}
			return
		}
		for _, task := range file.Tasks {
			b, err := task.Bind(map[string]string{})
			if err == nil {
				for _, s := range b.Steps {
					s.Bind(nil)
				}
			}
			_ = task.EffectiveContext()
		}
	})
}

func BenchmarkParse(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("<tasks>\n")
	for i := range 50 {
		fmt.Fprintf(&sb, `<task name="t%d"><description>task %d in {{area}}</description><inputs><input name="area" default="src"/></inputs>
<file_paths><path>{{area}}/**/*.go</path></file_paths><file_paths source="command"><command>grep -rl TODO "$area"</command></file_paths></task>
`, i, i)
	}
	sb.WriteString("</tasks>\n")
	data := []byte(sb.String())
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := template.Parse("b.xml", data); err != nil {
			b.Fatal(err)
		}
	}
}
