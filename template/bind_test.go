package template_test

import (
	"errors"
	"maps"
	"strings"
	"testing"

	"github.com/taskctl/taskctl/template"
)

func mustParse(t *testing.T, doc string) *template.File {
	t.Helper()
	f, err := template.Parse("t.xml", []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

const flow = `<task name="s" type="sequential">
  <description>outer {{ area }} for {{who}}</description>
  <instructions>{{area}}{{area}} {{ dir }}</instructions>
  <inputs>
    <input name="area" default="src"/>
    <input name="who">required</input>
    <input name="dir" default="{{area}}/{{who}}"/>
  </inputs>
  <file_paths><path>{{area}}/a.go</path><path>{{dir}}</path></file_paths>
  <file_paths source="command"><command>grep -rl x "$area"</command></file_paths>
  <file_paths source="description" include="a/**" exclude="b/**"><description>errors in {{area}}</description></file_paths>
  <output_format type="json"/>
  <context_management><inherit_context>subset</inherit_context></context_management>
  <steps>
    <task name="a"><description>in {{area}} for {{who}} under {{dir}}</description>
      <file_paths source="command"><command>echo "$who"</command></file_paths></task>
    <task name="b">
      <description>after {{prev}}</description>
      <inputs><input name="prev" from="a.output"/></inputs>
    </task>
  </steps>
</task>`

func TestBindMissingInput(t *testing.T) {
	f := mustParse(t, flow)
	_, err := f.Tasks[0].Bind(nil)
	var ie *template.InputError
	if !errors.As(err, &ie) {
		t.Fatalf("Bind(nil) = %v, want an *InputError", err)
	}
	want := template.InputError{Task: "s", Input: "who", File: "t.xml", Pos: template.Pos{Line: 6, Col: 5}}
	if *ie != want {
		t.Errorf("InputError = %+v, want %+v", *ie, want)
	}
	const msg = `missing required input "who" of task "s" (declared at t.xml:6:5): set it with --var who=VALUE`
	if err.Error() != msg {
		t.Errorf("Error() = %q, want %q", err.Error(), msg)
	}
	// A step's own required input.
	g := mustParse(t, "<tasks><task name=\"x\"><description>d</description><inputs>\n  <input name=\"q\"/></inputs></task></tasks>")
	_, err = g.Tasks[0].Bind(map[string]string{"other": "1"})
	if !errors.As(err, &ie) || *ie != (template.InputError{Task: "x", Input: "q", File: "t.xml", Pos: template.Pos{Line: 2, Col: 3}}) {
		t.Errorf("Bind = %v, want q missing at 2:3", err)
	}
}

func TestBind(t *testing.T) {
	f := mustParse(t, flow)
	s := f.Tasks[0]
	// Parse refuses {{...}} in a command; put it there to see Bind leave it.
	s.Sources[1].Command += " {{area}}"
	b, err := s.Bind(map[string]string{"who": "ada"})
	if err != nil {
		t.Fatal(err)
	}
	checks := []struct{ what, got, want string }{
		{"description", b.Description, "outer src for ada"},
		{"instructions", b.Instructions, "srcsrc src/ada"},
		{"path", b.Sources[0].Paths[0].Value, "src/a.go"},
		{"path from a default that uses vars", b.Sources[0].Paths[1].Value, "src/ada"},
		{"command", b.Sources[1].Command, `grep -rl x "$area" {{area}}`},
		{"description source", b.Sources[2].Description, "errors in src"},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s = %q, want %q", c.what, c.got, c.want)
		}
	}
	if v, want := b.Vars(), map[string]string{"area": "src", "who": "ada", "dir": "src/ada"}; !maps.Equal(v, want) {
		t.Errorf("Vars() = %v, want %v", v, want)
	}
	// Steps are copied, not bound.
	if b.Steps[0].Description != "in {{area}} for {{who}} under {{dir}}" || b.Steps[0].Vars() != nil {
		t.Errorf("step of the bound copy: %q %v", b.Steps[0].Description, b.Steps[0].Vars())
	}

	// Vars win over defaults; a var's value is not itself substituted.
	o, err := s.Bind(map[string]string{"who": "{{area}}", "area": "cmd", "unused": "1"})
	if err != nil {
		t.Fatal(err)
	}
	if o.Description != "outer cmd for {{area}}" || o.Sources[0].Paths[1].Value != "cmd/{{area}}" {
		t.Errorf("vars over defaults: %q %q", o.Description, o.Sources[0].Paths[1].Value)
	}
	if _, ok := o.Vars()["unused"]; ok {
		t.Error("Vars() holds a var no input declares")
	}
}

func TestBindStep(t *testing.T) {
	f := mustParse(t, flow)
	s := f.Tasks[0]
	b, err := s.Bind(map[string]string{"who": "ada", "area": "lib"})
	if err != nil {
		t.Fatal(err)
	}
	// Through the bound values of the task around it.
	a, err := b.Steps[0].Bind(nil)
	if err != nil {
		t.Fatal(err)
	}
	if a.Description != "in lib for ada under lib/ada" || a.Sources[0].Command != `echo "$who"` {
		t.Errorf("step a via the bound parent: %q %q", a.Description, a.Sources[0].Command)
	}
	if v, want := a.Vars(), map[string]string{"area": "lib", "who": "ada", "dir": "lib/ada"}; !maps.Equal(v, want) {
		t.Errorf("step a Vars() = %v, want %v", v, want)
	}
	if a.Parent() != b {
		t.Error("the bound step's Parent is not the bound task")
	}
	// Through vars, on the parsed (unbound) tree; defaults around it apply,
	// substituted.
	a, err = f.Lookup("a").Bind(map[string]string{"who": "bob"})
	if err != nil {
		t.Fatal(err)
	}
	if a.Description != "in src for bob under src/bob" {
		t.Errorf("step a via vars: %q", a.Description)
	}
	if a.Parent() != s {
		t.Error("the step bound from the parsed tree lost its Parent")
	}

	// A from input without a value is pending; given one, it substitutes.
	pb, err := b.Steps[1].Bind(nil)
	if err != nil || pb.Description != "after <pending: a.output>" || pb.Vars()["prev"] != "<pending: a.output>" {
		t.Errorf("pending: %q %v %v", pb.Description, pb.Vars(), err)
	}
	pb, err = b.Steps[1].Bind(map[string]string{"prev": "the plan"})
	if err != nil || pb.Description != "after the plan" {
		t.Errorf("bound from: %q %v", pb.Description, err)
	}
}

// An input of a nested sequential task bound with from, and still pending
// when that task was bound, takes the value the engine passes later.
func TestBindPendingAround(t *testing.T) {
	f := mustParse(t, `<task name="s" type="sequential"><description>s</description><steps>
<task name="a"><description>a</description></task>
<task name="n" type="sequential"><description>n</description><inputs><input name="plan" from="a.output"/></inputs><steps>
<task name="c"><description>do {{plan}}</description></task></steps></task></steps></task>`)
	n, err := f.Lookup("n").Bind(nil)
	if err != nil {
		t.Fatal(err)
	}
	c, err := n.Steps[0].Bind(map[string]string{"plan": "the plan"})
	if err != nil {
		t.Fatal(err)
	}
	if c.Description != "do the plan" {
		t.Errorf("step c: %q, want the value passed over the pending one", c.Description)
	}
}

// A default may use any input of its task, declared before it or after.
func TestBindDefaultOrder(t *testing.T) {
	f := mustParse(t, `<task name="t"><description>{{a}} {{b}} {{c}}</description><inputs>
<input name="a" default="[{{b}}]"/><input name="b" default="{{c}}!"/><input name="c" default="x"/></inputs></task>`)
	b, err := f.Tasks[0].Bind(nil)
	if err != nil {
		t.Fatal(err)
	}
	if b.Description != "[x!] x! x" {
		t.Errorf("description = %q, want %q", b.Description, "[x!] x! x")
	}
	// A step's default may refine the value of the same input around it.
	g := mustParse(t, `<task name="s" type="sequential"><description>s</description><inputs><input name="area" default="src"/></inputs><steps>
<task name="a"><description>{{area}}</description><inputs><input name="area" default="{{area}}/sub"/></inputs></task></steps></task>`)
	if a, err := g.Lookup("a").Bind(nil); err != nil || a.Description != "src/sub" {
		t.Errorf("refined default: %v %v", a, err)
	}
}

// Parse refuses defaults that lead back to their own input; Bind, given such
// a task built by hand, fails rather than leave {{...}} in the text — unless
// a var breaks the cycle.
func TestBindDefaultCycle(t *testing.T) {
	task := &template.Task{Name: "t", Type: "atomic", Description: "{{p}}", Inputs: []template.Input{
		{Name: "p", Default: "{{q}}", HasDefault: true},
		{Name: "q", Default: "<{{p}}>", HasDefault: true},
	}}
	const want = `task "t": default of input "p" leads back to itself: its value would never be known`
	if _, err := task.Bind(nil); err == nil || err.Error() != want {
		t.Errorf("Bind(nil) = %v, want %q", err, want)
	}
	b, err := task.Bind(map[string]string{"q": "v"})
	if err != nil || b.Description != "v" {
		t.Errorf("Bind(q=v): %v %v", b, err)
	}
}

func TestBindDeepCopy(t *testing.T) {
	f := mustParse(t, flow)
	s := f.Tasks[0]
	b, err := s.Bind(map[string]string{"who": "ada"})
	if err != nil {
		t.Fatal(err)
	}
	before := dump(s)
	b.Name = "x"
	b.Inputs[0].Name = "x"
	b.Sources[0].Paths[0].Value = "x"
	b.Sources[2].Include[0] = "x"
	b.Sources[2].Exclude[0] = "x"
	b.Output.Type = "x"
	*b.Context.Inherit = "x"
	b.Steps[0].Description = "x"
	b.Steps[0].Sources[0].Command = "x"
	b.Steps[1].Inputs[0].From = "x"
	b.Steps = append(b.Steps[:0], b.Steps[1])
	if after := dump(s); after != before {
		t.Errorf("changing the bound copy changed the original:\n%s\nwas\n%s", after, before)
	}
	if s.Vars() != nil {
		t.Error("Bind gave the original values")
	}
	v := b.Vars()
	v["area"] = "changed"
	if b.Vars()["area"] != "src" {
		t.Error("Vars() returns the task's own map")
	}
}

func TestDeclared(t *testing.T) {
	f := mustParse(t, `<task name="s" type="sequential"><description>s</description><inputs><input name="o"/></inputs><steps>
<task name="a"><description>a</description><inputs><input name="ia"/></inputs></task>
<task name="n" type="sequential"><description>n</description><inputs><input name="in"/></inputs><steps>
<task name="c"><description>c</description><inputs><input name="ic"/></inputs></task></steps></task></steps></task>`)
	cases := []struct {
		task string
		want []string
	}{
		{"s", []string{"o", "ia", "in", "ic"}},
		{"a", []string{"o", "ia"}},
		{"n", []string{"o", "in", "ic"}},
		{"c", []string{"o", "in", "ic"}},
	}
	for _, c := range cases {
		want := map[string]bool{}
		for _, n := range c.want {
			want[n] = true
		}
		if got := f.Lookup(c.task).Declared(); !maps.Equal(got, want) {
			t.Errorf("%s.Declared() = %v, want %v", c.task, got, want)
		}
	}
}

func TestLookupParent(t *testing.T) {
	f := mustParse(t, `<tasks><task name="s" type="sequential"><description>s</description><steps>
<task name="a"><description>a</description></task>
<task name="n" type="sequential"><description>n</description><steps><task name="c"><description>c</description></task></steps></task></steps></task>
<task name="top"><description>t</description></task><task><description>unnamed</description></task></tasks>`)
	s, n, c := f.Lookup("s"), f.Lookup("n"), f.Lookup("c")
	if s != f.Tasks[0] || f.Lookup("top") != f.Tasks[1] || n != s.Steps[1] || c != n.Steps[0] || f.Lookup("a") != s.Steps[0] {
		t.Fatal("Lookup found the wrong tasks")
	}
	if f.Lookup("nosuch") != nil || f.Lookup("") != nil {
		t.Error("Lookup found a task that does not exist (or the unnamed one)")
	}
	if s.Parent() != nil || f.Lookup("top").Parent() != nil || f.Lookup("a").Parent() != s || n.Parent() != s || c.Parent() != n {
		t.Error("Parent")
	}
}

// TestScopeGlobDirectory: an include or exclude glob ending in / names a
// directory and stands for what it holds; as a glob on file paths it
// matched nothing.
func TestScopeGlobDirectory(t *testing.T) {
	f := mustParse(t, `<task name="d"><description>d</description>
  <file_paths source="description" include="src/ docs/** a//" exclude="src/gen/"><description>x</description></file_paths></task>`)
	s := f.Tasks[0].Sources[0]
	if got := strings.Join(s.Include, " "); got != "src/** docs/** a/**" {
		t.Errorf("Include = %q", got)
	}
	if got := strings.Join(s.Exclude, " "); got != "src/gen/**" {
		t.Errorf("Exclude = %q", got)
	}
}
