package template_test

import (
	"strings"
	"testing"

	"github.com/taskctl/taskctl/template"
)

const loopXML = `<task name="fix" type="director_evaluator_loop">
  <description>Fix the failing test</description>
  <file_paths><path>calc/*.go</path></file_paths>
  <max_iterations>3</max_iterations>
  <time_budget>600</time_budget>
  <director name="write"><description>Write a fix ({{iteration}}: {{feedback}})</description></director>
  <script_execution><command timeout="60">go test ./...</command></script_execution>
  <evaluator name="judge"><description>Judge {{director_output}} given {{script_exit_status}}</description></evaluator>
</task>`

func TestLoopDecodes(t *testing.T) {
	f, err := template.Parse("t.xml", []byte(loopXML))
	if err != nil {
		t.Fatal(err)
	}
	l := f.Tasks[0]
	if l.Loop == nil || l.Loop.MaxIterations != 3 || l.Loop.TimeBudget != 600 {
		t.Fatalf("loop spec = %+v", l.Loop)
	}
	if s := l.Loop.Script; s == nil || s.Command != "go test ./..." || s.Timeout != 60 || s.Pos != (template.Pos{Line: 7, Col: 21}) {
		t.Fatalf("script = %+v", s)
	}
	if len(l.Steps) != 2 || l.Steps[0].Role != template.RoleDirector || l.Steps[1].Role != template.RoleEvaluator {
		t.Fatalf("steps = %s", dump(l))
	}
	if o := l.Steps[1].Output; o == nil || o.Type != "json" {
		t.Fatalf("the evaluator's output format = %+v, want json", o)
	}
	if c := l.EffectiveContext(); c.Inherit != template.InheritNone || !c.Accumulate || c.Fresh != "disabled" {
		t.Fatalf("a loop's default context = %+v", c)
	}
}

func TestReduceDecodes(t *testing.T) {
	src := `<task name="all" type="reduce">
  <description>Review every file</description>
  <file_paths><path>src/*.go</path></file_paths>
  <items source="files" parallelism="4" max_tokens="100"/>
  <inner_task name="one"><description>Review {{item}}</description></inner_task>
  <reduction_task name="sum"><description>Sum up {{item_count}} reviews</description></reduction_task>
</task>`
	f, err := template.Parse("t.xml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	r := f.Tasks[0].Reduce
	if r == nil || r.Source != template.ItemsFiles || r.Parallelism != 4 || r.MaxTokens != 100 {
		t.Fatalf("reduce spec = %+v", r)
	}
}

func TestFlowProblems(t *testing.T) {
	for _, c := range []struct{ name, src, want string }{
		{"director on an atomic task",
			"<task><description>x</description>\n<director><description>d</description></director></task>",
			`t.xml:2:1: <director> is only allowed on type="director_evaluator_loop" tasks (task "" is atomic)`},
		{"loop without evaluator",
			"<task type=\"director_evaluator_loop\"><description>x</description>\n<director><description>d</description></director></task>",
			`t.xml:1:1: director_evaluator_loop "" needs a <director> and an <evaluator>`},
		{"max_iterations out of range",
			"<task type=\"director_evaluator_loop\"><description>x</description>\n<max_iterations>0</max_iterations><director><description>d</description></director><evaluator><description>e</description></evaluator></task>",
			`t.xml:2:1: <max_iterations>0</max_iterations>: want an integer from 1 to 100`},
		{"text verdict",
			"<task type=\"director_evaluator_loop\"><description>x</description><director><description>d</description></director><evaluator><description>e</description>\n<output_format type=\"text\"/></evaluator></task>",
			`t.xml:2:16: an evaluator's output_format is json`},
		{"lines from a later step",
			"<task type=\"reduce\"><description>x</description>\n<items source=\"lines\" from=\"nope.output\"/><inner_task><description>d</description></inner_task><reduction_task><description>e</description></reduction_task></task>",
			`t.xml:2:23: items from="nope.output" names no step "nope"`},
		{"var items without the input",
			"<task type=\"reduce\"><description>x</description>\n<items source=\"var\" var=\"files\"/><inner_task><description>d</description></inner_task><reduction_task><description>e</description></reduction_task></task>",
			`t.xml:2:21: items source="var" var="files": no input of that name`},
		{"director of another type",
			"<task type=\"director_evaluator_loop\"><description>x</description>\n<director type=\"sequential\"><description>d</description><steps><task><description>s</description></task></steps></director><evaluator><description>e</description></evaluator></task>",
			`t.xml:2:11: <director> is an atomic task, not sequential`},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := template.Parse("t.xml", []byte(c.src))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("Parse: %v\nwant a problem containing %s", err, c.want)
			}
		})
	}
}

// TestBindIntoLoop: a step after a loop binds the loop's result, not one of
// the steps it runs many times; inside the loop, the evaluator may bind the
// director.
func TestBindIntoLoop(t *testing.T) {
	src := `<task name="w" type="sequential"><description>w</description><steps>
<task name="l" type="director_evaluator_loop"><description>l</description>
  <director name="d"><description>d</description></director>
  <evaluator name="e"><description>e</description><inputs><input name="x" from="d.output"/></inputs></evaluator>
</task>
<task name="after"><description>a</description><inputs>
  <input name="y" from="d.output"/></inputs></task>
</steps></task>`
	_, err := template.Parse("t.xml", []byte(src))
	want := `t.xml:7:19: input "y": from="d.output" names step "d" of director_evaluator_loop "l", which runs it many times: bind l.output (its result) instead`
	if err == nil || err.Error() != want {
		t.Fatalf("Parse: %v\nwant %s", err, want)
	}
}
