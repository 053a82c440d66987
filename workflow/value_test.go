package workflow_test

import (
	"context"
	"strings"
	"testing"

	"github.com/taskctl/taskctl/workflow"
)

// byStep is an executor that prints, for each step, the text given.
func byStep(outputs map[string]string) []string {
	var b strings.Builder
	b.WriteString(`cat >/dev/null; case "$TASKCTL_STEP" in `)
	for step, out := range outputs {
		b.WriteString(step + `) printf '%s' '` + strings.ReplaceAll(out, `'`, `'\''`) + `' ;; `)
	}
	b.WriteString(`esac`)
	return []string{"bash", "-c", b.String()}
}

const fenced = "Here it is:\n```json\n" +
	`{"notes":{"list":["a","b"],"n":3.50,"flag":true,"nil":null,"obj":{"k":"v"}},"arr":[{"x":1}]}` +
	"\n```\n"

func TestBindingValues(t *testing.T) {
	project, runs := setup(t)
	src := `<task name="v" type="sequential"><description>d</description><steps>
	  <task name="src"><description>d</description><output_format type="json" schema="object"/></task>
	  <task name="use"><description>d</description><inputs>
	    <input name="list" from="src.notes.list"/>
	    <input name="n" from="src.notes.n"/>
	    <input name="flag" from="src.notes.flag"/>
	    <input name="nil" from="src.notes.nil"/>
	    <input name="obj" from="src.notes.obj"/>
	    <input name="x" from="src.parsed.arr.0.x"/>
	    <input name="out" from="src.output"/>
	  </inputs></task>
	</steps></task>`
	opt := options(&fake{dir: project}, project, runs, byStep(map[string]string{"src": fenced, "use": "done"}))
	rec, err := workflow.Run(context.Background(), parse(t, src), opt)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"list": "a\nb", "n": "3.50", "flag": "true", "nil": "", "obj": "{\n  \"k\": \"v\"\n}", "x": "1",
		"out": strings.TrimRight(fenced, "\n"),
	}
	got := rec.Step("use").Inputs
	for k, w := range want {
		if got[k] != w {
			t.Errorf("input %s = %q, want %q", k, got[k], w)
		}
	}
	if s := string(rec.Step("src").Notes); !strings.HasPrefix(s, `{"list":["a","b"]`) {
		t.Errorf("notes from the fenced block = %s", s)
	}
}

// An object bound to an input or shown as notes keeps <, > and & as the
// executor wrote them; it was HTML-escaped (\u003c) before.
func TestBindingKeepsMarkup(t *testing.T) {
	project, runs := setup(t)
	src := `<task name="v" type="sequential"><description>d</description><steps>
	  <task name="src"><description>d</description><output_format type="json"/></task>
	  <task name="use"><description>d</description>
	    <inputs><input name="obj" from="src.notes.obj"/></inputs>
	    <context_management><accumulate_data>true</accumulate_data></context_management>
	  </task>
	</steps></task>`
	out := `{"notes":{"obj":{"cond":"a < b && c > d"}}}`
	opt := options(&fake{dir: project}, project, runs, byStep(map[string]string{"src": out, "use": "done"}))
	rec, err := workflow.Run(context.Background(), parse(t, src), opt)
	if err != nil {
		t.Fatal(err)
	}
	want := "{\n  \"cond\": \"a < b && c > d\"\n}"
	if got := rec.Step("use").Inputs["obj"]; got != want {
		t.Errorf("input obj = %q, want %q", got, want)
	}
	if p := rec.Step("use").Prompt; !strings.Contains(p, `"cond": "a < b && c > d"`) || strings.Contains(p, `\u003c`) {
		t.Errorf("prompt's notes escape the markup:\n%s", p)
	}
}

func TestBindingErrors(t *testing.T) {
	for _, tc := range []struct{ from, out, want string }{
		{"src.notes.missing", `{"notes":{"k":1}}`, `src.notes has no key "missing"`},
		{"src.parsed.list.5", `{"list":[1,2]}`, `src.parsed.list is an array of 2; "5" is not an index`},
		{"src.parsed.s.x", `{"s":"str"}`, `src.parsed.s is a string, not an object or array`},
		{"src.notes.k", `{"no_notes":1}`, `has no "notes" key`},
	} {
		project, runs := setup(t)
		src := `<task name="v" type="sequential"><description>d</description><steps>
		  <task name="src"><description>d</description><output_format type="json"/></task>
		  <task name="use"><description>d</description><inputs><input name="i" from="` + tc.from + `"/></inputs></task>
		</steps></task>`
		opt := options(&fake{dir: project}, project, runs, byStep(map[string]string{"src": tc.out, "use": "x"}))
		rec, err := workflow.Run(context.Background(), parse(t, src), opt)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("from=%q: %v, want %q", tc.from, err, tc.want)
			continue
		}
		if s := rec.Step("use"); s.Status != workflow.StepFailed || rec.Step("src").Status != workflow.StepOK {
			t.Errorf("from=%q: statuses %q %q", tc.from, rec.Step("src").Status, s.Status)
		}
	}
}

func TestNotJSON(t *testing.T) {
	project, runs := setup(t)
	src := `<task name="v" type="sequential"><description>d</description><steps>
	  <task name="src"><description>d</description><output_format type="json"/></task></steps></task>`
	opt := options(&fake{dir: project}, project, runs, byStep(map[string]string{"src": "sorry, no JSON today"}))
	rec, err := workflow.Run(context.Background(), parse(t, src), opt)
	if err == nil || !strings.Contains(err.Error(), "output_format json: the output is not JSON") {
		t.Fatalf("Run = %v", err)
	}
	if s := rec.Step("src"); s.Output != "sorry, no JSON today" || s.Status != workflow.StepFailed {
		t.Errorf("src = %+v", s)
	}
}
