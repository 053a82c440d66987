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

func parseProblems(t *testing.T, doc string) []string {
	t.Helper()
	_, err := template.Parse("t.xml", []byte(doc))
	if err == nil {
		return nil
	}
	var te *template.Error
	if !errors.As(err, &te) {
		t.Fatalf("Parse: %v is not a *template.Error", err)
	}
	var out []string
	for _, p := range te.Problems {
		if p.File != "t.xml" || p.Line < 1 || p.Col < 1 {
			t.Errorf("bad problem %+v", p)
		}
		out = append(out, fmt.Sprintf("%d:%d: %s", p.Line, p.Col, p.Msg))
	}
	return out
}

func TestChecks(t *testing.T) {
	cases := []struct {
		name, doc string
		want      []string // "line:col: message substring"; nil means valid
	}{
		{"valid", `<task name="a"><description>x</description></task>`, nil},
		{"duplicate names",
			"<tasks>\n<task name=\"a\"><description>x</description></task>\n<task name=\"a\"><description>y</description></task>\n</tasks>",
			[]string{"3:1: task name \"a\" is already used at line 2"}},
		{"duplicate in steps",
			"<task name=\"s\" type=\"sequential\"><description>x</description><steps>\n<task name=\"s\"><description>y</description></task></steps></task>",
			[]string{"2:1: task name \"s\" is already used"}},
		{"source path vs command",
			"<task><description>x</description>\n  <file_paths source=\"command\"><path>p</path></file_paths></task>",
			[]string{"2:3: file_paths source=\"command\" must hold <command>, not <path>"}},
		{"source description vs path",
			"<task><description>x</description>\n<file_paths source=\"literal\"><description>d</description></file_paths></task>",
			[]string{"2:1: file_paths source=\"literal\" must hold <path>, not <description>"}},
		{"default source is literal",
			"<task><description>x</description>\n<file_paths><command>ls</command></file_paths></task>",
			[]string{"2:1: file_paths source=\"literal\" must hold <path>, not <command>"}},
		{"fresh with inherit full (atomic default)",
			"<task><description>x</description>\n<context_management><fresh_context>enabled</fresh_context></context_management></task>",
			[]string{"2:1: fresh_context=enabled needs inherit_context=none (it is full)"}},
		{"fresh with subset",
			"<task><description>x</description>\n<context_management><inherit_context>subset</inherit_context><fresh_context>enabled</fresh_context></context_management></task>",
			[]string{"2:1: fresh_context=enabled needs inherit_context=none (it is subset)"}},
		{"fresh with none is fine",
			"<task><description>x</description><context_management><inherit_context>none</inherit_context><fresh_context>enabled</fresh_context></context_management></task>",
			nil},
		{"undeclared var in description",
			"<task>\n  <description>review {{area}}</description></task>",
			[]string{"2:3: description uses {{area}}, which is not a declared input"}},
		{"undeclared var in instructions",
			"<task><description>x</description>\n<instructions>{{ who }}</instructions></task>",
			[]string{"2:1: instructions uses {{who}}"}},
		{"undeclared var in path",
			"<task><description>x</description><file_paths>\n<path>{{dir}}/a</path></file_paths></task>",
			[]string{"2:1: path uses {{dir}}"}},
		{"undeclared var in description source",
			"<task><description>x</description>\n<file_paths source=\"description\"><description>{{q}}</description></file_paths></task>",
			[]string{"2:1: description source uses {{q}}"}},
		{"undeclared var in default",
			"<task><description>x</description><inputs>\n<input name=\"a\" default=\"{{b}}\"/></inputs></task>",
			[]string{"2:1: default of input \"a\" uses {{b}}"}},
		{"enclosing input visible in step",
			"<task name=\"s\" type=\"sequential\"><description>x</description><inputs><input name=\"area\" default=\".\"/></inputs><steps><task name=\"a\"><description>{{area}}</description></task></steps></task>",
			nil},
		{"braces in command",
			"<task><description>x</description>\n<file_paths source=\"command\"><command>grep -rl {{x}} .</command></file_paths></task>",
			[]string{"2:1: {{...}} is not substituted inside <command>: read inputs as shell variables"}},
		{"steps on atomic",
			"<task><description>x</description>\n<steps><task><description>y</description></task></steps></task>",
			[]string{"2:1: steps are only allowed on type=\"sequential\""}},
		{"sequential without steps",
			"<task name=\"s\" type=\"sequential\"><description>x</description></task>",
			[]string{"1:1: sequential task \"s\" has no <steps>"}},
		{"duplicate input",
			"<task><description>x</description><inputs><input name=\"a\"/>\n<input name=\"a\"/></inputs></task>",
			[]string{"2:1: input \"a\" is declared twice"}},
		{"from unknown step",
			"<task name=\"s\" type=\"sequential\"><description>x</description><steps><task name=\"a\"><description>a</description><inputs>\n<input name=\"x\" from=\"zz.output\"/></inputs></task></steps></task>",
			[]string{"2:1: input \"x\": from=\"zz.output\" names no step \"zz\""}},
		{"from later step",
			"<task name=\"s\" type=\"sequential\"><description>x</description><steps><task name=\"a\"><description>a</description><inputs>\n<input name=\"x\" from=\"b.output\"/></inputs></task><task name=\"b\"><description>b</description></task></steps></task>",
			[]string{"2:1: input \"x\": from=\"b.output\" names step \"b\", which does not finish before this task starts"}},
		{"from itself",
			"<task name=\"s\" type=\"sequential\"><description>x</description><steps><task name=\"a\"><description>a</description><inputs>\n<input name=\"x\" from=\"a.output\"/></inputs></task></steps></task>",
			[]string{"2:1: input \"x\": from=\"a.output\" names the task itself"}},
		{"from a nested step of an earlier sibling",
			"<task name=\"s\" type=\"sequential\"><description>x</description><steps><task name=\"n\" type=\"sequential\"><description>n</description><steps><task name=\"deep\"><description>d</description></task></steps></task><task name=\"b\"><description>b</description><inputs><input name=\"x\" from=\"deep.notes.k\"/></inputs></task></steps></task>",
			nil},
		{"from an enclosing task's earlier sibling",
			"<task name=\"s\" type=\"sequential\"><description>x</description><steps><task name=\"a\"><description>a</description></task><task name=\"n\" type=\"sequential\"><description>n</description><steps><task name=\"c\"><description>c</description><inputs><input name=\"x\" from=\"a.files\"/></inputs></task></steps></task></steps></task>",
			nil},
		{"bad from syntax",
			"<task name=\"s\" type=\"sequential\"><description>x</description><steps><task name=\"a\"><description>a</description></task><task name=\"b\"><description>b</description><inputs>\n<input name=\"x\" from=\"a.stdout\"/></inputs></task></steps></task>",
			[]string{"2:1: input \"x\": from=\"a.stdout\": want STEP.output, STEP.files, STEP.notes.KEY or STEP.parsed.a.b"}},
		{"from with default",
			"<task name=\"s\" type=\"sequential\"><description>x</description><steps><task name=\"a\"><description>a</description></task><task name=\"b\"><description>b</description><inputs>\n<input name=\"x\" from=\"a.output\" default=\"d\"/></inputs></task></steps></task>",
			[]string{"2:1: input \"x\" has both from and default"}},
		{"limit on literal",
			"<task><description>x</description>\n<file_paths limit=\"3\"><path>p</path></file_paths></task>",
			[]string{"2:1: limit applies only to source=\"description\""}},
		{"include on literal",
			"<task><description>x</description>\n<file_paths include=\"a/**\"><path>p</path></file_paths></task>",
			[]string{"2:1: include and exclude apply only to command and description sources"}},
		{"bad integer",
			"<task><description>x</description><file_paths>\n<path max_lines=\"many\">p</path></file_paths></task>",
			[]string{"2:1: attribute max_lines=\"many\": want an integer >= 0"}},
		{"empty description",
			"<task name=\"e\"><description>  </description></task>",
			[]string{"1:1: task \"e\" has an empty <description>"}},
		{"wrong root", "<config/>", []string{"1:1: root element <config>: want <task> or <tasks>"}},
		{"malformed", "<task><description>x</task>", []string{"1:"}},
		{"doctype", "<!DOCTYPE task>\n<task><description>x</description></task>", []string{"1:1: DOCTYPE and other directives are not allowed"}},
		{"rune columns",
			"<task><description>日本語</description>\n  <file_paths source=\"command\"><path>p</path></file_paths></task>",
			[]string{"2:3: "}},
		{"several, sorted",
			"<task>\n<description>{{a}}</description>\n<file_paths source=\"command\"><path>p</path></file_paths>\n<file_paths limit=\"2\"><path>p</path></file_paths></task>",
			[]string{"2:1: description uses {{a}}", "3:1: file_paths source=\"command\" must hold <command>", "4:1: limit applies only"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := parseProblems(t, c.doc)
			if len(got) != len(c.want) {
				t.Fatalf("got %q, want %q", got, c.want)
			}
			for i := range got {
				// want is "LINE:COL: text" (or just "LINE:"): the position
				// must match exactly and the message must hold text.
				pos, text, _ := strings.Cut(c.want[i], " ")
				if !strings.HasPrefix(got[i], pos) || !strings.Contains(got[i], text) {
					t.Errorf("problem %d = %q, want %q", i, got[i], c.want[i])
				}
			}
		})
	}
}

func TestNestingDepth(t *testing.T) {
	build := func(depth int) string {
		var b strings.Builder
		for i := 1; i < depth; i++ {
			fmt.Fprintf(&b, "<task name=\"s%d\" type=\"sequential\"><description>d</description><steps>\n", i)
		}
		b.WriteString("<task name=\"leaf\"><description>d</description></task>\n")
		for i := 1; i < depth; i++ {
			b.WriteString("</steps></task>")
		}
		return b.String()
	}
	if got := parseProblems(t, build(template.MaxDepth)); got != nil {
		t.Fatalf("depth %d: %q", template.MaxDepth, got)
	}
	got := parseProblems(t, build(template.MaxDepth+1))
	if len(got) == 0 || !strings.Contains(got[0], "nested 9 deep: the limit is 8") {
		t.Fatalf("depth 9: %q", got)
	}
}

func TestDecodeEverything(t *testing.T) {
	data, err := os.ReadFile("../schema/testdata/valid/everything.xml")
	if err != nil {
		t.Fatal(err)
	}
	f, err := template.Parse("everything.xml", data)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Tasks) != 2 {
		t.Fatalf("%d tasks", len(f.Tasks))
	}
	a := f.Tasks[0]
	if a.Name != "all" || a.Type != "atomic" || a.Subtype != "standard" || a.Description != "Review {{area}}" || a.Instructions != "Be brief." {
		t.Errorf("task fields: %+v", a)
	}
	if len(a.Inputs) != 1 || a.Inputs[0] != (template.Input{Name: "area", Doc: "the area", Default: "src", HasDefault: true, Relevant: true, Pos: a.Inputs[0].Pos}) || a.Inputs[0].Pos.Line != 8 {
		t.Errorf("inputs: %+v", a.Inputs)
	}
	c := a.Context
	if *c.Inherit != "none" || *c.Accumulate || *c.Format != "notes_only" || *c.Fresh != "enabled" || c.MaxTokens != 5000 {
		t.Errorf("context: %+v", c)
	}
	if len(a.Sources) != 3 {
		t.Fatalf("sources: %+v", a.Sources)
	}
	lit, cmd, desc := a.Sources[0], a.Sources[1], a.Sources[2]
	if lit.Kind != "literal" || lit.MaxFiles != 10 || len(lit.Paths) != 2 ||
		lit.Paths[0] != (template.PathSpec{Value: "{{area}}/main.go", MaxLines: 40, SkipLines: 2, MaxBytes: 4096, Pos: lit.Paths[0].Pos}) ||
		lit.Paths[1].Value != "docs/**/*.md" || lit.Paths[0].Pos != (template.Pos{Line: 18, Col: 7}) {
		t.Errorf("literal: %+v", lit)
	}
	if cmd.Kind != "command" || cmd.Command != "git ls-files '*.go'" || cmd.CommandTimeout != 5 ||
		strings.Join(cmd.Include, ",") != "src/**" || strings.Join(cmd.Exclude, ",") != "**/*_test.go" {
		t.Errorf("command: %+v", cmd)
	}
	if desc.Kind != "description" || desc.Description != "error handling" || desc.Limit != 5 || !desc.HasMinScore || desc.MinScore != 0.2 ||
		strings.Join(desc.Include, ",") != "src/**,cmd/**" {
		t.Errorf("description: %+v", desc)
	}
	if a.Output == nil || a.Output.Type != "json" || a.Output.Schema != "object" {
		t.Errorf("output: %+v", a.Output)
	}
	flow := f.Lookup("flow")
	if flow == nil || flow.Type != "sequential" || len(flow.Steps) != 2 || f.Lookup("two").Inputs[0].From != "one.output" {
		t.Fatalf("flow: %+v", flow)
	}
	if f.Lookup("two").Parent() != flow || flow.Parent() != nil || f.Lookup("nosuch") != nil {
		t.Error("Lookup/Parent")
	}
}

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
