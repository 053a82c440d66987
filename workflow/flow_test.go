package workflow_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/taskctl/taskctl/workflow"
)

// TestReduceBound: a reduce over 12 items with parallelism 3 never has more
// than 3 executors running at once, by the record's own timestamps (each
// item's start and end, taken while its worker holds its slot) and by its
// count; every item is recorded and reads back.
func TestReduceBound(t *testing.T) {
	project, runs := setup(t)
	root := parse(t, `<task name="all" type="reduce">
  <description>Each</description>
  <inputs><input name="list"/></inputs>
  <items source="var" var="list" parallelism="3"/>
  <inner_task name="one"><description>Do {{item}}</description></inner_task>
  <reduction_task name="sum"><description>Sum</description></reduction_task>
</task>`)
	f := &fake{dir: project}
	opt := options(f, project, runs, script(t, "slow.sh"))
	opt.Vars = map[string]string{"list": "a,b,c,d,e,f,g,h,i,j,k,l"}
	rec, err := workflow.Run(context.Background(), root, opt)
	if err != nil {
		t.Fatal(err)
	}
	back, err := workflow.LoadRun(runs, rec.ID)
	if err != nil {
		t.Fatal(err)
	}
	var items []*workflow.StepResult
	for _, s := range back.Steps {
		if s.Role == "inner_task" {
			items = append(items, s)
		}
	}
	if len(items) != 12 {
		t.Fatalf("%d item runs recorded, want 12", len(items))
	}
	most := 0
	for _, a := range items {
		if a.Started == nil || a.Ended == nil {
			t.Fatalf("item %s has no start or end", a.Label())
		}
		n := 0
		for _, b := range items {
			// b runs while a starts.
			if !b.Started.After(*a.Started) && b.Ended.After(*a.Started) {
				n++
			}
		}
		most = max(most, n)
	}
	if most > 3 {
		t.Errorf("the record shows %d items running at once; parallelism is 3", most)
	}
	if p := back.Steps[0].PeakParallel; p < 1 || p > 3 {
		t.Errorf("peak_parallel = %d, want 1..3", p)
	}
	if sum := back.Steps[len(back.Steps)-1]; sum.Role != "reduction_task" {
		t.Fatalf("last step = %s (%s), want the reduction", sum.Label(), sum.Role)
	}
	if !strings.Contains(back.Steps[0].Output, "done sum") {
		t.Errorf("the reduce's output = %q, want the reduction's", back.Steps[0].Output)
	}
}

// TestLoopDryRun: a dry run plans one iteration of a loop without a script
// being allowed, and executes nothing.
func TestLoopDryRun(t *testing.T) {
	project, runs := setup(t)
	root := parse(t, `<task name="fix" type="director_evaluator_loop">
  <description>Fix</description>
  <file_paths><path>auth/login.go</path></file_paths>
  <director name="write"><description>Write</description></director>
  <script_execution><command>go test ./...</command></script_execution>
  <evaluator name="judge"><description>Judge</description></evaluator>
</task>`)
	f := &fake{dir: project}
	rec, err := workflow.Run(context.Background(), root, options(f, project, runs, nil))
	if err != nil {
		t.Fatal(err)
	}
	var labels []string
	for _, s := range rec.Steps {
		labels = append(labels, s.Label()+":"+s.Status)
	}
	want := "fix:planned write@1:planned script@1:planned judge@1:planned"
	if got := strings.Join(labels, " "); got != want {
		t.Fatalf("plan = %s, want %s", got, want)
	}
}

// TestScriptNotAllowed: a run whose template has a script step does not
// start unless AllowScripts says so.
func TestScriptNotAllowed(t *testing.T) {
	project, runs := setup(t)
	root := parse(t, `<task name="fix" type="director_evaluator_loop">
  <description>Fix</description>
  <director name="write"><description>Write</description></director>
  <script_execution><command>touch pwned</command></script_execution>
  <evaluator name="judge"><description>Judge</description></evaluator>
</task>`)
	f := &fake{dir: project}
	_, err := workflow.Run(context.Background(), root, options(f, project, runs, script(t, "notes.sh")))
	var se *workflow.ScriptError
	if err == nil || !strings.Contains(err.Error(), "test.xml:4:21:") || !asScriptError(err, &se) {
		t.Fatalf("Run = %v, want a *ScriptError at test.xml:4:21", err)
	}
	if len(f.calls) != 0 {
		t.Fatalf("the assembler was called %d times: the run started", len(f.calls))
	}
}

func asScriptError(err error, se **workflow.ScriptError) bool {
	return errors.As(err, se) && errors.Is(err, workflow.ErrScriptNotAllowed)
}

// TestResumeReduce: a reduce whose third item failed resumes with the first
// two items' outputs reused and the rest run, each item once in all.
func TestResumeReduce(t *testing.T) {
	project, runs := setup(t)
	root := parse(t, `<task name="all" type="reduce">
  <description>Each</description>
  <inputs><input name="list"/></inputs>
  <items source="var" var="list" parallelism="1"/>
  <inner_task name="one"><description>Do {{item}}</description></inner_task>
  <reduction_task name="sum"><description>Sum</description></reduction_task>
</task>`)
	dir := t.TempDir()
	f := &fake{dir: project}
	opt := options(f, project, runs, script(t, "flaky.sh"))
	opt.Vars = map[string]string{"list": "a,b,c,d"}
	opt.Env = append(os.Environ(), "FLAKY_DIR="+dir, "FLAKY_STEP=one[3]")
	opt.WriteRoots = []string{dir} // (the sandbox lets the executor write there)
	first, err := workflow.Run(context.Background(), root, opt)
	if err == nil {
		t.Fatal("the first run succeeded; one[3] should have failed")
	}
	opt.Resume = first
	second, err := workflow.Run(context.Background(), root, opt)
	if err != nil {
		t.Fatal(err)
	}
	var reused []string
	for _, s := range second.Steps {
		if s.ReusedFrom != "" {
			reused = append(reused, s.Label())
		}
	}
	if got := strings.Join(reused, " "); got != "one[1] one[2]" {
		t.Errorf("reused %q, want one[1] one[2]", got)
	}
	calls, err := os.ReadFile(filepath.Join(dir, "calls"))
	if err != nil {
		t.Fatal(err)
	}
	want := "one[1]\none[2]\none[3]\none[3]\none[4]\nsum\n"
	if string(calls) != want {
		t.Errorf("executor calls:\n%s\nwant:\n%s", calls, want)
	}
	if second.ResumedFrom != first.ID || second.Status != workflow.RunOK {
		t.Errorf("second run: resumed_from %q, status %s", second.ResumedFrom, second.Status)
	}
}
