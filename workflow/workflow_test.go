package workflow_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/taskctl/taskctl/internal/diag"
	"github.com/taskctl/taskctl/internal/sandbox"
	"github.com/taskctl/taskctl/template"
	"github.com/taskctl/taskctl/workflow"
)

// call is one call of the fake assembler.
type call struct {
	step    string
	inherit template.InheritMode
	parent  []string
}

// fake is an assembler that needs no project: a literal <path> (one per line)
// is joined to dir; "full" inherits every parent file, "subset" those whose
// base name (without extension) is a word of the step's description. The
// document lists the files as <file path="..."/> lines.
type fake struct {
	dir   string
	mu    sync.Mutex
	calls []call
}

func (f *fake) assemble(ctx context.Context, t *template.Task, inherit template.InheritMode, parent []string) (*workflow.Assembled, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	f.mu.Lock()
	f.calls = append(f.calls, call{t.Name, inherit, slices.Clone(parent)})
	f.mu.Unlock()
	var files []string
	add := func(p string) {
		if !slices.Contains(files, p) {
			files = append(files, p)
		}
	}
	for _, s := range t.Sources {
		for _, ps := range s.Paths {
			for _, line := range strings.Split(ps.Value, "\n") {
				if line = strings.TrimSpace(line); line == "" {
					continue
				}
				if !filepath.IsAbs(line) {
					line = filepath.Join(f.dir, line)
				}
				add(line)
			}
		}
	}
	words := strings.Fields(strings.ToLower(t.Description))
	for _, p := range parent {
		base := strings.TrimSuffix(filepath.Base(p), filepath.Ext(p))
		if inherit == template.InheritFull || inherit == template.InheritSubset && slices.Contains(words, base) {
			add(p)
		}
	}
	var doc strings.Builder
	for _, p := range files {
		fmt.Fprintf(&doc, "<file path=%q/>\n", p)
	}
	return &workflow.Assembled{Files: files, Document: doc.String()}, nil
}

func (f *fake) call(step string) (call, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, c := range f.calls {
		if c.step == step {
			return c, true
		}
	}
	return call{}, false
}

func parse(t *testing.T, src string) *template.Task {
	t.Helper()
	tf, err := template.Parse("test.xml", []byte(src))
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	return tf.Tasks[0]
}

func script(t *testing.T, name string) []string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return []string{p}
}

// setup makes a project dir with a few files and its runs dir.
func setup(t *testing.T) (project, runs string) {
	t.Helper()
	project = t.TempDir()
	for _, f := range []string{"docs/architecture.md", "auth/login.go", "auth/session.go", "store/store.go"} {
		p := filepath.Join(project, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(f+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	runs = filepath.Join(project, ".taskctl", "runs")
	if err := os.MkdirAll(runs, 0o755); err != nil {
		t.Fatal(err)
	}
	return project, runs
}

func options(f *fake, project, runs string, executor []string) workflow.Options {
	return workflow.Options{
		Assemble:   f.assemble,
		Executor:   executor,
		RunsDir:    runs,
		ProjectDir: project,
		Stderr:     &bytes.Buffer{},
		Supervisor: []string{os.Args[0], superviseArg},
		// The default sandbox, applied by the test binary.
		SandboxHelper: []string{os.Args[0], sandbox.HelperArg},
	}
}

// superviseArg makes the test binary the executors' supervisor, as
// "__supervise" makes taskctl: every test's executor runs under one.
const superviseArg = "-workflow-supervise"

func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == superviseArg {
		os.Exit(workflow.Supervise(os.Args[2:]))
	}
	if len(os.Args) > 1 && os.Args[1] == sandbox.HelperArg {
		os.Exit(sandbox.Exec(os.Args[2:]))
	}
	os.Exit(m.Run())
}

const threeSteps = `<task name="fix" type="sequential">
  <description>Fix the login</description>
  <file_paths><path>docs/architecture.md</path><path>auth/login.go</path></file_paths>
  <steps>
    <task name="find">
      <description>Find the login code</description>
      <output_format type="json"/>
    </task>
    <task name="plan">
      <description>Plan the change</description>
      <inputs>
        <input name="summary" from="find.notes.summary"/>
      </inputs>
      <instructions>The finder said: {{summary}}</instructions>
      <file_paths><path>store/store.go</path></file_paths>
      <output_format type="json" schema="object"/>
    </task>
    <task name="write">
      <description>Write the change</description>
      <inputs>
        <input name="plan" from="plan.output"/>
        <input name="summary" from="find.notes.summary"/>
        <input name="deep" from="plan.parsed.a.b"/>
        <input name="found" from="find.files"/>
      </inputs>
      <instructions>Plan: {{plan}} Deep: {{deep}}</instructions>
      <context_management><inherit_context>none</inherit_context></context_management>
      <file_paths><path>{{found}}</path></file_paths>
    </task>
  </steps>
</task>`

func TestThreeSteps(t *testing.T) {
	project, runs := setup(t)
	f := &fake{dir: project}
	rec, err := workflow.Run(context.Background(), parse(t, threeSteps), options(f, project, runs, script(t, "notes.sh")))
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if rec.Status != workflow.RunOK {
		t.Fatalf("status %q, want ok", rec.Status)
	}
	rootFiles := []string{filepath.Join(project, "docs/architecture.md"), filepath.Join(project, "auth/login.go")}
	if !slices.Equal(rec.Files, rootFiles) {
		t.Errorf("root files %q, want %q", rec.Files, rootFiles)
	}
	find, plan, write := rec.Step("find"), rec.Step("plan"), rec.Step("write")
	if !slices.Equal(find.Files, rootFiles) {
		t.Errorf("find files %q, want the parent's %q", find.Files, rootFiles)
	}
	var notes map[string]string
	if err := json.Unmarshal(find.Notes, &notes); err != nil {
		t.Fatalf("find notes %s: %v", find.Notes, err)
	}
	if notes["summary"] != "find saw 2 files" || notes["cwd"] != project || notes["run_dir"] != rec.Dir {
		t.Errorf("find notes = %v; want summary, cwd %s, run_dir %s", notes, project, rec.Dir)
	}
	if !strings.Contains(plan.Prompt, "The finder said: find saw 2 files") {
		t.Errorf("plan prompt lacks find's notes:\n%s", plan.Prompt)
	}

	// The third step's prompt holds what the first two produced.
	wantIn := []string{
		strings.TrimSpace(plan.Output),                                            // plan.output
		"Deep: deep-plan",                                                         // plan.parsed.a.b
		"<input name=\"summary\">find saw 2 files</input>",                        // find.notes.summary
		"<input name=\"found\">\n" + strings.Join(rootFiles, "\n") + "\n</input>", // find.files
	}
	for _, w := range wantIn {
		if !strings.Contains(write.Prompt, w) {
			t.Errorf("write prompt lacks %q:\n%s", w, write.Prompt)
		}
	}
	// find.files fed write's literal file list; it inherited nothing.
	if !slices.Equal(write.Files, rootFiles) {
		t.Errorf("write files %q, want find's %q", write.Files, rootFiles)
	}
	if c, _ := f.call("write"); c.inherit != template.InheritNone || c.parent != nil {
		t.Errorf("write assembled with %q %q, want none and no parent files", c.inherit, c.parent)
	}
	if write.Inherit != template.InheritNone || write.Bindings["found"] != "find.files" {
		t.Errorf("write recorded inherit %q bindings %v", write.Inherit, write.Bindings)
	}

	// The record on disk.
	for _, s := range rec.Steps {
		prompt, err := os.ReadFile(filepath.Join(rec.Dir, s.PromptFile))
		if err != nil || string(prompt) != s.Prompt {
			t.Errorf("%s: prompt file %s: %v (same as sent: %v)", s.Name, s.PromptFile, err, string(prompt) == s.Prompt)
		}
		out, err := os.ReadFile(filepath.Join(rec.Dir, s.OutputFile))
		if err != nil || string(out) != s.Output {
			t.Errorf("%s: output file %s: %v", s.Name, s.OutputFile, err)
		}
	}
	if find.PromptFile != "01-find.prompt.txt" || write.OutputFile != "03-write.output.txt" {
		t.Errorf("file names %q %q", find.PromptFile, write.OutputFile)
	}
	ents, _ := os.ReadDir(rec.Dir)
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), ".") {
			t.Errorf("left a temporary file: %s", e.Name())
		}
	}
	wroteOutsideRuns(t, project)

	// LoadRun reads back what Run returned.
	got, err := workflow.LoadRun(runs, rec.ID)
	if err != nil {
		t.Fatalf("LoadRun: %v", err)
	}
	if got.Status != workflow.RunOK || got.ID != rec.ID || got.Dir != rec.Dir || len(got.Steps) != 3 {
		t.Fatalf("LoadRun = %+v", got)
	}
	for i, s := range got.Steps {
		w := rec.Steps[i]
		if s.Name != w.Name || s.Status != w.Status || s.Output != w.Output || !bytes.Equal(s.Notes, w.Notes) ||
			!bytes.Equal(s.Parsed, w.Parsed) || !slices.Equal(s.Files, w.Files) || s.Inputs["plan"] != w.Inputs["plan"] {
			t.Errorf("step %d read back as %+v, want %+v", i, s, w)
		}
	}

	// Preview binds write's inputs from the recorded results.
	root := parse(t, threeSteps)
	vars, parent, err := got.Preview(root.Steps[2])
	if err != nil {
		t.Fatalf("Preview: %v", err)
	}
	if vars["plan"] != strings.TrimSpace(plan.Output) || vars["deep"] != "deep-plan" || vars["found"] != strings.Join(rootFiles, "\n") {
		t.Errorf("Preview vars = %v", vars)
	}
	if parent != nil {
		t.Errorf("Preview parent files of an inherit=none step = %q, want none", parent)
	}
	if _, parent, _ := got.Preview(root.Steps[1]); !slices.Equal(parent, rootFiles) {
		t.Errorf("Preview parent files of plan = %q, want %q", parent, rootFiles)
	}
	ids, err := workflow.Runs(runs)
	if err != nil || !slices.Equal(ids, []string{rec.ID}) {
		t.Errorf("Runs = %q, %v", ids, err)
	}
	if latest, err := workflow.LoadRun(runs, "latest"); err != nil || latest.ID != rec.ID {
		t.Errorf("LoadRun(latest) = %v", err)
	}
	for _, bad := range []string{"../runs", "20261122-104500-ab12/../x", "x"} {
		if _, err := workflow.LoadRun(runs, bad); err == nil || !strings.Contains(err.Error(), "not a run ID") {
			t.Errorf("LoadRun(%q) = %v, want a refusal", bad, err)
		}
	}
	if _, err := workflow.LoadRun(runs, "20000101-000000-0000"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("LoadRun of a missing run = %v, want ErrNotExist", err)
	}
}

// wroteOutsideRuns fails if anything but the runs dir changed in project.
func wroteOutsideRuns(t *testing.T, project string) {
	t.Helper()
	filepath.WalkDir(project, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(project, p)
		switch rel {
		case ".", "docs", "auth", "store", ".taskctl", "docs/architecture.md", "auth/login.go", "auth/session.go", "store/store.go":
			return nil
		}
		if rel == filepath.Join(".taskctl", "runs") {
			return filepath.SkipDir
		}
		t.Errorf("wrote %s outside the runs dir", rel)
		return nil
	})
}

const accumulate = `<task name="acc" type="sequential">
  <description>Accumulate</description>
  <context_management><accumulation_format>%s</accumulation_format></context_management>
  <steps>
    <task name="one"><description>one</description><output_format type="json"/></task>
    <task name="two"><description>two</description><output_format type="json"/></task>
    <task name="three"><description>three</description>
      <context_management><accumulate_data>%s</accumulate_data></context_management>
    </task>
  </steps>
</task>`

func TestAccumulate(t *testing.T) {
	for _, tc := range []struct {
		seqFormat, stepAcc string
		notes, outputs     bool
	}{
		{"notes_only", "false", true, false},
		{"full_output", "false", true, true},
		{"notes_only", "true", true, false}, // the step's own default format
	} {
		t.Run(tc.seqFormat+"/"+tc.stepAcc, func(t *testing.T) {
			project, runs := setup(t)
			f := &fake{dir: project}
			src := fmt.Sprintf(accumulate, tc.seqFormat, tc.stepAcc)
			rec, err := workflow.Run(context.Background(), parse(t, src), options(f, project, runs, script(t, "notes.sh")))
			if err != nil {
				t.Fatal(err)
			}
			p := rec.Step("three").Prompt
			for _, prev := range []string{"one", "two"} {
				if got := strings.Contains(p, "\"summary\": \""+prev+" saw 0 files\""); got != tc.notes {
					t.Errorf("prompt holds %s's notes: %v, want %v\n%s", prev, got, tc.notes, p)
				}
				if got := strings.Contains(p, "OUTPUT-MARKER-"+prev); got != tc.outputs {
					t.Errorf("prompt holds %s's output: %v, want %v\n%s", prev, got, tc.outputs, p)
				}
			}
			if !strings.Contains(p, "<previous_outputs format=\""+tc.seqFormat+"\">") {
				t.Errorf("prompt lacks the previous_outputs section:\n%s", p)
			}
			if strings.Contains(rec.Step("one").Prompt, "<previous_outputs") {
				t.Errorf("the first step has previous outputs:\n%s", rec.Step("one").Prompt)
			}
		})
	}
}

func TestNoAccumulation(t *testing.T) {
	project, runs := setup(t)
	f := &fake{dir: project}
	src := strings.Replace(fmt.Sprintf(accumulate, "full_output", "false"),
		"<accumulation_format>", "<accumulate_data>false</accumulate_data><accumulation_format>", 1)
	rec, err := workflow.Run(context.Background(), parse(t, src), options(f, project, runs, script(t, "notes.sh")))
	if err != nil {
		t.Fatal(err)
	}
	if p := rec.Step("three").Prompt; strings.Contains(p, "previous_outputs") {
		t.Errorf("accumulate_data=false still passed earlier outputs:\n%s", p)
	}
}

const nested = `<task name="outer" type="sequential">
  <description>Outer</description>
  <file_paths><path>auth/login.go</path><path>auth/session.go</path><path>store/store.go</path></file_paths>
  <steps>
    <task name="look"><description>Look at session handling</description>
      <context_management><inherit_context>subset</inherit_context></context_management>
      <output_format type="json"/>
    </task>
    <task name="inner" type="sequential">
      <description>Inner store work</description>
      <context_management><inherit_context>subset</inherit_context></context_management>
      <file_paths><path>docs/architecture.md</path></file_paths>
      <steps>
        <task name="deep"><description>deep</description><output_format type="json"/></task>
      </steps>
    </task>
    <task name="after"><description>after</description>
      <inputs><input name="x" from="inner.notes.summary"/><input name="y" from="inner.files"/></inputs>
      <instructions>{{x}}</instructions>
    </task>
  </steps>
</task>`

func TestSubsetAndNesting(t *testing.T) {
	project, runs := setup(t)
	f := &fake{dir: project}
	rec, err := workflow.Run(context.Background(), parse(t, nested), options(f, project, runs, script(t, "notes.sh")))
	if err != nil {
		t.Fatal(err)
	}
	outer := []string{filepath.Join(project, "auth/login.go"), filepath.Join(project, "auth/session.go"), filepath.Join(project, "store/store.go")}
	c, _ := f.call("look")
	if c.inherit != template.InheritSubset || !slices.Equal(c.parent, outer) {
		t.Errorf("look assembled with %q %q, want subset of %q", c.inherit, c.parent, outer)
	}
	if want := []string{filepath.Join(project, "auth/session.go")}; !slices.Equal(rec.Step("look").Files, want) {
		t.Errorf("look files %q, want %q", rec.Step("look").Files, want)
	}
	// The nested task's context is its own path plus its subset of outer's
	// files; that is what its steps inherit.
	inner := []string{filepath.Join(project, "docs/architecture.md"), filepath.Join(project, "store/store.go")}
	if got := rec.Step("inner").Files; !slices.Equal(got, inner) {
		t.Errorf("inner files %q, want %q", got, inner)
	}
	if c, _ := f.call("deep"); c.inherit != template.InheritFull || !slices.Equal(c.parent, inner) {
		t.Errorf("deep assembled with %q %q, want full of %q", c.inherit, c.parent, inner)
	}
	in, deep := rec.Step("inner"), rec.Step("deep")
	if in.Type != "sequential" || in.Depth != 1 || deep.Parent != "inner" || deep.Depth != 2 || in.Output != deep.Output {
		t.Errorf("inner %+v / deep %+v", in, deep)
	}
	if p := rec.Step("after").Prompt; !strings.Contains(p, "deep saw 2 files") || !strings.Contains(p, strings.Join(inner, "\n")) {
		t.Errorf("after's prompt lacks inner's notes or files:\n%s", p)
	}
	// The history of a nested step: outer's earlier steps, then its own.
	if p := deep.Prompt; !strings.Contains(p, `<step name="look" status="ok">`) {
		t.Errorf("deep's prompt lacks look's notes:\n%s", p)
	}
	if p := rec.Step("after").Prompt; !strings.Contains(p, `<step name="inner" status="ok">`) || strings.Contains(p, `<step name="deep"`) {
		t.Errorf("after's history should hold inner as one entry:\n%s", p)
	}
	got, err := workflow.LoadRun(runs, rec.ID)
	if err != nil {
		t.Fatal(err)
	}
	root := parse(t, nested)
	if _, parent, err := got.Preview(root.Steps[1].Steps[0]); err != nil || !slices.Equal(parent, inner) {
		t.Errorf("Preview(deep) parent files %q, %v; want %q", parent, err, inner)
	}
}

func TestDryRun(t *testing.T) {
	for _, tc := range []struct {
		name string
		opt  func(*workflow.Options, []string)
	}{
		{"DryRun", func(o *workflow.Options, marker []string) { o.Executor, o.DryRun = marker, true }},
		{"NoExecutor", func(o *workflow.Options, _ []string) { o.Executor = nil }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			project, runs := setup(t)
			marker := filepath.Join(t.TempDir(), "ran")
			t.Setenv("MARKER", marker)
			f := &fake{dir: project}
			opt := options(f, project, runs, nil)
			tc.opt(&opt, script(t, "marker.sh"))
			rec, err := workflow.Run(context.Background(), parse(t, threeSteps), opt)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(marker); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("the executor ran in a dry run (marker: %v)", err)
			}
			if rec.Status != workflow.RunPlanned || rec.ID != "" || rec.Dir != "" {
				t.Errorf("record %q %q %q, want planned and unrecorded", rec.Status, rec.ID, rec.Dir)
			}
			if ents, _ := os.ReadDir(runs); len(ents) != 0 {
				t.Errorf("a dry run wrote %d entries in the runs dir", len(ents))
			}
			if len(f.calls) != 4 {
				t.Errorf("assembled %d contexts, want 4 (the root and three steps)", len(f.calls))
			}
			write := rec.Step("write")
			for _, w := range []string{"Plan: <pending: plan.output> Deep: <pending: plan.parsed.a.b>",
				`<input name="found"><pending: find.files></input>`,
				`<step name="plan" status="pending">`} {
				if !strings.Contains(write.Prompt, w) {
					t.Errorf("write's planned prompt lacks %q:\n%s", w, write.Prompt)
				}
			}
			for _, s := range rec.Steps {
				if s.Status != workflow.StepPlanned {
					t.Errorf("%s: status %q, want planned", s.Name, s.Status)
				}
			}
			if len(write.Warnings) != 1 || write.Warnings[0].Code != diag.InputPending {
				t.Errorf("write warnings %v, want one %s", write.Warnings, diag.InputPending)
			}
			var b strings.Builder
			if err := workflow.WritePlan(&b, rec, workflow.PlanOptions{Files: true}); err != nil {
				t.Fatal(err)
			}
			for _, w := range []string{"03 write (atomic, inherit none, accumulates notes_only): 0 files", "found <- find.files"} {
				if !strings.Contains(b.String(), w) {
					t.Errorf("plan lacks %q:\n%s", w, b.String())
				}
			}
		})
	}
}

const failing = `<task name="f" type="sequential">
  <description>Fails in step 2</description>
  <steps>
    <task name="first"><description>first</description><output_format type="json"/></task>
    <task name="fail_here"><description>second</description></task>
    <task name="never"><description>third</description></task>
  </steps>
</task>`

func TestFailure(t *testing.T) {
	project, runs := setup(t)
	f := &fake{dir: project}
	opt := options(f, project, runs, script(t, "dispatch.sh"))
	rec, err := workflow.Run(context.Background(), parse(t, failing), opt)
	var se *workflow.StepError
	if !errors.As(err, &se) {
		t.Fatalf("Run error %v, want a *StepError", err)
	}
	if se.Step != "fail_here" || se.Run != rec || !strings.Contains(err.Error(), "the executor failed (exit status 3)") || !strings.Contains(err.Error(), "boom in step fail_here") {
		t.Errorf("StepError %q (step %q)", err, se.Step)
	}
	if !strings.Contains(opt.Stderr.(*bytes.Buffer).String(), "boom in step fail_here") {
		t.Errorf("the executor's stderr did not reach Options.Stderr")
	}
	check := func(rec *workflow.Record) {
		t.Helper()
		if rec.Status != workflow.RunFailed {
			t.Errorf("run status %q, want failed", rec.Status)
		}
		first, second, third := rec.Step("first"), rec.Step("fail_here"), rec.Step("never")
		if first.Status != workflow.StepOK || !strings.Contains(first.Output, "OUTPUT-MARKER-first") || first.Notes == nil {
			t.Errorf("step 1 kept %+v", first)
		}
		if second.Status != workflow.StepFailed || second.ExitCode == nil || *second.ExitCode != 3 || second.Error == "" {
			t.Errorf("step 2 = %+v", second)
		}
		if third.Status != workflow.StepSkipped {
			t.Errorf("step 3 status %q, want skipped", third.Status)
		}
	}
	check(rec)
	got, err := workflow.LoadRun(runs, rec.ID)
	if err != nil {
		t.Fatal(err)
	}
	check(got)
	var b strings.Builder
	workflow.WriteSummary(&b, got)
	if !strings.Contains(b.String(), "failed      02 fail_here") || !strings.Contains(b.String(), "boom in step fail_here") {
		t.Errorf("summary:\n%s", b.String())
	}
}

// nest builds, without the template parser (which rejects too deep a file
// itself), levels sequential tasks around one atomic task.
func nest(levels int) *template.Task {
	t := &template.Task{Name: "leaf", Type: "atomic", Description: "leaf"}
	for i := levels; i > 0; i-- {
		t = &template.Task{Name: fmt.Sprintf("s%d", i), Type: "sequential", Description: "d", Steps: []*template.Task{t}}
	}
	return t
}

func TestDepthLimit(t *testing.T) {
	project, runs := setup(t)
	f := &fake{dir: project}
	// The top-level task is at depth 1, so MaxDepth-1 sequential tasks hold
	// the deepest atomic step.
	rec, err := workflow.Run(context.Background(), nest(workflow.MaxDepth-1), options(f, project, runs, nil))
	if err != nil || rec.Step("leaf").Depth != workflow.MaxDepth-1 {
		t.Errorf("depth %d: %v", workflow.MaxDepth, err)
	}
	_, err = workflow.Run(context.Background(), nest(workflow.MaxDepth), options(f, project, runs, script(t, "notes.sh")))
	if err == nil || !strings.Contains(err.Error(), "task leaf is nested 9 deep; the limit is 8") {
		t.Errorf("depth %d: error %v, want the depth limit", workflow.MaxDepth+1, err)
	}
	if ents, _ := os.ReadDir(runs); len(ents) != 0 {
		t.Errorf("a rejected plan left %d runs", len(ents))
	}
}

// TestCheck builds tasks without the parser, which rejects these itself.
func TestCheck(t *testing.T) {
	task := func(name string, from ...string) *template.Task {
		t := &template.Task{Name: name, Type: "atomic", Description: "d"}
		for i, f := range from {
			t.Inputs = append(t.Inputs, template.Input{Name: fmt.Sprintf("i%d", i), From: f})
		}
		return t
	}
	seq := func(name string, steps ...*template.Task) *template.Task {
		return &template.Task{Name: name, Type: "sequential", Description: "d", Steps: steps}
	}
	for _, tc := range []struct {
		root *template.Task
		want string
	}{
		{seq("a", task("x", "y.output"), task("y")), `no step named "y" finishes before`},
		{seq("a", task("x", "a.output")), `no step named "a"`},
		{seq("a", seq("b", task("x", "b.files"))), `no step named "b"`},
		{seq("a", task("x"), task("y", "x.stdout")), `unknown field "stdout"`},
		{seq("a", task("x"), task("y", "x.output.more")), `output has no fields`},
		{seq("a", task("x"), task("x")), `two tasks are named "x"`},
		{&template.Task{Name: "a", Type: "atomic", Description: "d", Steps: []*template.Task{task("x")}}, "only a sequential task has steps"},
	} {
		err := workflow.Check(tc.root)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Check = %v, want %q", err, tc.want)
		}
	}
	if err := workflow.Check(seq("a", seq("b", task("x")), task("y", "x.notes.k", "b.parsed.a.0", "x.files"))); err != nil {
		t.Errorf("Check of a valid plan: %v", err)
	}
}

func TestMissingInput(t *testing.T) {
	project, runs := setup(t)
	src := `<task name="a" type="sequential"><description>d</description><steps>
		<task name="x"><description>{{area}}</description><inputs><input name="area"/></inputs></task></steps></task>`
	_, err := workflow.Run(context.Background(), parse(t, src), options(&fake{dir: project}, project, runs, script(t, "notes.sh")))
	var ie *template.InputError
	if !errors.As(err, &ie) || ie.Task != "x" || ie.Input != "area" {
		t.Fatalf("Run = %v, want an InputError for x's area", err)
	}
	opt := options(&fake{dir: project}, project, runs, script(t, "notes.sh"))
	opt.Vars = map[string]string{"area": "auth"}
	rec, err := workflow.Run(context.Background(), parse(t, src), opt)
	if err != nil || !strings.Contains(rec.Step("x").Prompt, "<description>auth</description>") {
		t.Fatalf("with --var: %v", err)
	}
}

func TestJSONOutputRequired(t *testing.T) {
	project, runs := setup(t)
	src := `<task name="a" type="sequential"><description>d</description><steps>
		<task name="x"><description>d</description><output_format type="json" schema="array"/></task></steps></task>`
	rec, err := workflow.Run(context.Background(), parse(t, src), options(&fake{dir: project}, project, runs, script(t, "notes.sh")))
	if err == nil || !strings.Contains(err.Error(), `schema "array": the output is an object`) {
		t.Fatalf("Run = %v, want a schema mismatch", err)
	}
	if x := rec.Step("x"); x.Status != workflow.StepFailed || !strings.Contains(x.Output, "OUTPUT-MARKER") {
		t.Errorf("x = %+v; want failed with its output kept", x)
	}
}

func TestAtomicRoot(t *testing.T) {
	project, runs := setup(t)
	f := &fake{dir: project}
	src := `<task name="solo"><description>d</description><file_paths><path>auth/login.go</path></file_paths></task>`
	rec, err := workflow.Run(context.Background(), parse(t, src), options(f, project, runs, script(t, "notes.sh")))
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Steps) != 1 || rec.Steps[0].Name != "solo" || !strings.Contains(rec.Steps[0].Output, "solo saw 1 files") {
		t.Errorf("record %+v", rec.Steps)
	}
}

func TestExecutorPath(t *testing.T) {
	project, runs := setup(t)
	src := `<task name="solo"><description>d</description></task>`
	// A relative path with a slash is resolved against WorkDir (here the
	// process's working dir, the package dir), not the project dir the
	// executor runs in.
	rec, err := workflow.Run(context.Background(), parse(t, src), options(&fake{dir: project}, project, runs, []string{"testdata/notes.sh"}))
	if err != nil || !strings.Contains(rec.Steps[0].Output, `"cwd":"`+project+`"`) {
		t.Fatalf("relative executor: %v", err)
	}
	_, err = workflow.Run(context.Background(), parse(t, src), options(&fake{dir: project}, project, runs, []string{"no-such-executor-here"}))
	if !errors.Is(err, exec.ErrNotFound) || !errors.Is(err, workflow.ErrNoExecutor) {
		t.Errorf("missing executor: %v, want exec.ErrNotFound and workflow.ErrNoExecutor", err)
	}
	if ids, _ := workflow.Runs(runs); len(ids) != 1 {
		t.Errorf("runs %q; a missing executor should not start a run", ids)
	}
}

const scoped = `<task name="outer" type="sequential">
  <description>d</description>
  <inputs><input name="area" default="src"/></inputs>
  <steps>
    <task name="first"><description>d</description><output_format type="json"/></task>
    <task name="inner" type="sequential"><description>d</description>
      <inputs><input name="sum" from="first.notes.summary"/></inputs>
      <steps>
        <task name="a"><description>A {{area}} {{sum}}</description></task>
        <task name="b"><description>B {{area}}</description><inputs><input name="area" default="docs"/></inputs></task>
      </steps>
    </task>
  </steps>
</task>`

func TestScopes(t *testing.T) {
	for _, tc := range []struct {
		vars map[string]string
		a, b string
	}{
		{nil, "A src first saw 0 files", "B docs"},
		{map[string]string{"area": "x"}, "A x first saw 0 files", "B x"},
	} {
		project, runs := setup(t)
		opt := options(&fake{dir: project}, project, runs, script(t, "notes.sh"))
		opt.Vars = tc.vars
		rec, err := workflow.Run(context.Background(), parse(t, scoped), opt)
		if err != nil {
			t.Fatal(err)
		}
		a, b := rec.Step("a"), rec.Step("b")
		if !strings.Contains(a.Prompt, "<description>"+tc.a+"</description>") || !strings.Contains(b.Prompt, "<description>"+tc.b+"</description>") {
			t.Errorf("vars %v: prompts\n%s\n%s", tc.vars, a.Prompt, b.Prompt)
		}
		// Preview gives Bind what the run gave it.
		got, err := workflow.LoadRun(runs, rec.ID)
		if err != nil {
			t.Fatal(err)
		}
		tf, _ := template.Parse("test.xml", []byte(scoped))
		for _, name := range []string{"a", "b"} {
			step := tf.Lookup(name)
			vars, _, err := got.Preview(step)
			if err != nil {
				t.Fatal(err)
			}
			bound, err := step.Bind(vars)
			if err != nil {
				t.Fatal(err)
			}
			if want := rec.Step(name).Inputs; fmt.Sprint(bound.Vars()) != fmt.Sprint(want) {
				t.Errorf("Preview(%s) binds %v, the run bound %v", name, bound.Vars(), want)
			}
		}
	}
}

func TestPromptContext(t *testing.T) {
	project, runs := setup(t)
	for _, tc := range []struct{ doc, want string }{
		{`<context task="solo"><file path="/x"/></context>`, "</task>\n<context task=\"solo\"><file path=\"/x\"/></context>\n"},
		{"## /x\n\ncontent\n", "</task>\n<context>\n## /x\n\ncontent\n</context>\n"},
		{"", "</task>\n"},
	} {
		opt := options(nil, project, runs, nil)
		opt.Assemble = func(context.Context, *template.Task, template.InheritMode, []string) (*workflow.Assembled, error) {
			return &workflow.Assembled{Document: tc.doc}, nil
		}
		rec, err := workflow.Run(context.Background(), parse(t, `<task name="solo"><description>d</description></task>`), opt)
		if err != nil {
			t.Fatal(err)
		}
		if p := rec.Steps[0].Prompt; !strings.HasSuffix(p, tc.want) {
			t.Errorf("document %q: prompt\n%s\nwant it to end with\n%s", tc.doc, p, tc.want)
		}
	}
}

func TestRecordPermissions(t *testing.T) {
	project, runs := setup(t)
	rec, err := workflow.Run(context.Background(), parse(t, `<task name="solo"><description>d</description></task>`),
		options(&fake{dir: project}, project, runs, script(t, "notes.sh")))
	if err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(rec.Dir); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("run dir: %v %v, want 0700", fi.Mode(), err)
	}
	for _, name := range []string{"run.json", "01-solo.prompt.txt", "01-solo.output.txt"} {
		if fi, err := os.Stat(filepath.Join(rec.Dir, name)); err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: %v, want 0600", name, err)
		}
	}
}

// A step that inherits nothing but gets earlier results in its prompt has
// context: the assembler's EMPTY_CONTEXT about its (empty) document is
// dropped. The first step has no earlier results, and keeps it.
func TestEmptyContextWithHistory(t *testing.T) {
	project, runs := setup(t)
	f := &fake{dir: project}
	opt := options(f, project, runs, nil)
	opt.Assemble = func(ctx context.Context, t *template.Task, inherit template.InheritMode, parent []string) (*workflow.Assembled, error) {
		a, err := f.assemble(ctx, t, inherit, parent)
		if err == nil && len(a.Files) == 0 {
			a.Warnings = append(a.Warnings, diag.Warning{Code: diag.EmptyContext, Message: "its context is empty"})
		}
		return a, err
	}
	rec, err := workflow.Run(context.Background(), parse(t, `<task name="s" type="sequential"><description>d</description><steps>
<task name="a"><description>a</description><context_management><inherit_context>none</inherit_context></context_management></task>
<task name="b"><description>b</description><context_management><inherit_context>none</inherit_context></context_management></task>
</steps></task>`), opt)
	if err != nil {
		t.Fatal(err)
	}
	codes := func(name string) (out []diag.Code) {
		for _, w := range rec.Step(name).Warnings {
			out = append(out, w.Code)
		}
		return out
	}
	if got := codes("a"); !slices.Equal(got, []diag.Code{diag.EmptyContext}) {
		t.Errorf("step a warnings %v, want [EMPTY_CONTEXT]", got)
	}
	if got := codes("b"); len(got) != 0 || rec.Step("b").Accumulate != workflow.NotesOnly {
		t.Errorf("step b (accumulating %q) warnings %v, want none", rec.Step("b").Accumulate, got)
	}
}

// In a dry run, a command that reads an input bound to an earlier step's
// result is left out with INPUT_PENDING, like a pending literal path; a
// command that reads only ready values, or a variable whose name merely
// starts like a pending one, still runs.
func TestDryRunPendingCommand(t *testing.T) {
	project, runs := setup(t)
	f := &fake{dir: project}
	opt := options(f, project, runs, nil)
	var commands []string
	opt.Assemble = func(ctx context.Context, t *template.Task, inherit template.InheritMode, parent []string) (*workflow.Assembled, error) {
		for _, s := range t.Sources {
			if s.Kind == "command" {
				commands = append(commands, t.Name+": "+s.Command)
			}
		}
		return f.assemble(ctx, t, inherit, parent)
	}
	rec, err := workflow.Run(context.Background(), parse(t, `<task name="s" type="sequential"><description>d</description><steps>
<task name="a"><description>a</description></task>
<task name="b"><description>b</description>
  <inputs><input name="out" from="a.output"/><input name="area" default="auth"/></inputs>
  <file_paths source="command"><command>printf '%s\n' "$out"</command></file_paths>
  <file_paths source="command"><command>ls ${out:-x}</command></file_paths>
  <file_paths source="command"><command>ls "$area"</command></file_paths>
  <file_paths source="command"><command>ls $outer</command></file_paths>
</task>
</steps></task>`), opt)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{`b: ls "$area"`, `b: ls $outer`}
	if !slices.Equal(commands, want) {
		t.Errorf("commands assembled %q, want %q", commands, want)
	}
	n := 0
	for _, w := range rec.Step("b").Warnings {
		if w.Code == diag.InputPending && strings.Contains(w.Message, "reads $out,") {
			n++
		}
	}
	if n != 2 {
		t.Errorf("warnings %+v, want two INPUT_PENDING naming $out", rec.Step("b").Warnings)
	}
}

// The plan names the file a step's warning is about.
func TestPlanWarningPath(t *testing.T) {
	project, runs := setup(t)
	f := &fake{dir: project}
	opt := options(f, project, runs, nil)
	missing := filepath.Join(project, "nosuch.go")
	opt.Assemble = func(ctx context.Context, t *template.Task, inherit template.InheritMode, parent []string) (*workflow.Assembled, error) {
		a, err := f.assemble(ctx, t, inherit, parent)
		if err == nil && t.Name == "a" {
			a.Warnings = append(a.Warnings, diag.Warning{Code: "PATH_NOT_FOUND", Message: "no such file or directory", Path: missing})
		}
		return a, err
	}
	rec, err := workflow.Run(context.Background(), parse(t, `<task name="s" type="sequential"><description>d</description><steps>
<task name="a"><description>a</description></task></steps></task>`), opt)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := workflow.WritePlan(&b, rec, workflow.PlanOptions{}); err != nil {
		t.Fatal(err)
	}
	if want := "warning: PATH_NOT_FOUND: " + missing + ": no such file or directory\n"; !strings.Contains(b.String(), want) {
		t.Errorf("plan:\n%s\nwant a line ending %q", b.String(), want)
	}
}

// A subset step that keeps none of its parent's files says so.
func TestSubsetEmpty(t *testing.T) {
	project, runs := setup(t)
	f := &fake{dir: project}
	rec, err := workflow.Run(context.Background(), parse(t, `<task name="s" type="sequential"><description>d</description>
<file_paths><path>auth/login.go</path><path>store/store.go</path></file_paths><steps>
<task name="none_kept"><description>write the change</description><context_management><inherit_context>subset</inherit_context></context_management></task>
<task name="one_kept"><description>fix login</description><context_management><inherit_context>subset</inherit_context></context_management></task>
</steps></task>`), options(f, project, runs, nil))
	if err != nil {
		t.Fatal(err)
	}
	has := func(name string) bool {
		for _, w := range rec.Step(name).Warnings {
			if w.Code == diag.SubsetEmpty && strings.Contains(w.Message, "none of the parent's 2 files") {
				return true
			}
		}
		return false
	}
	if !has("none_kept") || has("one_kept") || len(rec.Step("one_kept").Files) != 1 {
		t.Errorf("SUBSET_EMPTY on none_kept %v (want true), on one_kept %v (want false); warnings %+v", has("none_kept"), has("one_kept"), rec.Step("none_kept").Warnings)
	}
}

// A step run on its own takes an input bound to a step outside the run from
// Vars; without a value it cannot start, and a value never stands in for a
// step of the run itself.
func TestStepOnItsOwn(t *testing.T) {
	project, runs := setup(t)
	flow := parse(t, `<task name="s" type="sequential"><description>d</description><steps>
<task name="a"><description>a</description></task>
<task name="b"><description>b says {{prev}}</description><inputs><input name="prev" from="a.notes.summary"/></inputs></task>
</steps></task>`)
	step := flow.Steps[1]
	f := &fake{dir: project}
	opt := options(f, project, runs, script(t, "notes.sh"))
	if _, err := workflow.Run(context.Background(), step, opt); err == nil || !strings.Contains(err.Error(), "--var prev=VALUE") {
		t.Errorf("without a value: %v, want an error naming --var prev=VALUE", err)
	}
	opt.Vars = map[string]string{"prev": "given by hand"}
	rec, err := workflow.Run(context.Background(), step, opt)
	if err != nil {
		t.Fatal(err)
	}
	if got := rec.Step("b"); got.Status != workflow.StepOK || got.Inputs["prev"] != "given by hand" || !strings.Contains(got.Prompt, "b says given by hand") {
		t.Errorf("step b: status %q, inputs %v, prompt:\n%s", got.Status, got.Inputs, got.Prompt)
	}
	opt.DryRun = true
	if rec, err := workflow.Run(context.Background(), step, opt); err != nil || rec.Step("b").Inputs["prev"] != "given by hand" {
		t.Errorf("dry run: %v, inputs %v", err, rec.Step("b").Inputs)
	}
	// Within the run, the step's result is what binds, not a value.
	x := &template.Task{Name: "x", Type: "atomic", Description: "x", Inputs: []template.Input{{Name: "v", From: "y.output"}}}
	y := &template.Task{Name: "y", Type: "atomic", Description: "y"}
	_, err = workflow.Run(context.Background(), &template.Task{Name: "s", Type: "sequential", Description: "d", Steps: []*template.Task{x, y}}, workflow.Options{Assemble: f.assemble, RunsDir: runs, ProjectDir: project, Vars: map[string]string{"v": "no"}, DryRun: true})
	if err == nil {
		t.Errorf("a value let x bind to y, which runs after it")
	}
}

// An executor's stdout is capped at Options.MaxOutput bytes: a step whose
// executor prints more fails with an error that says so, whether the
// executor finished writing before the cap was reached or was still writing
// (and then dies of a broken pipe), and keeps the first MaxOutput bytes as
// its output, in the record and in its output file. Exactly MaxOutput bytes
// is not too many.
func TestOutputCap(t *testing.T) {
	project, runs := setup(t)
	for _, tc := range []struct {
		n    int  // bytes printed
		fail bool // the step fails
	}{
		{1000, false},
		{1001, true},
		{5000, true},
		{1 << 20, true}, // more than a pipe holds
	} {
		opt := options(&fake{dir: project}, project, runs,
			[]string{"bash", "-c", fmt.Sprintf(`cat >/dev/null; head -c %d /dev/zero | tr '\0' x`, tc.n)})
		opt.MaxOutput = 1000
		rec, err := workflow.Run(context.Background(), parse(t, `<task name="big"><description>d</description></task>`), opt)
		if tc.fail != (err != nil) {
			t.Errorf("%d bytes: Run error %v, want failure %v", tc.n, err, tc.fail)
			continue
		}
		if tc.fail && !strings.Contains(err.Error(), "step big: the executor's output exceeds 1000 bytes") {
			t.Errorf("%d bytes: error %q does not name the cap", tc.n, err)
		}
		s := rec.Step("big")
		if want := strings.Repeat("x", 1000); s.Output != want {
			t.Errorf("%d bytes: output of %d bytes, want the first 1000", tc.n, len(s.Output))
		}
		if out, err := os.ReadFile(filepath.Join(rec.Dir, s.OutputFile)); err != nil || string(out) != s.Output {
			t.Errorf("%d bytes: output file of %d bytes (%v), want the step's output", tc.n, len(out), err)
		}
	}
}

// run.json does not hold what the executors printed, which it rewrote after
// every step: a step's output is in its output file (a sequential task's is
// its last step's), and LoadRun reads it from there. A record of version 1,
// which held the outputs itself, reads back with them; a record whose
// output file is gone does not read back.
func TestOutputOnlyInItsFile(t *testing.T) {
	project, runs := setup(t)
	rec, err := workflow.Run(context.Background(), parse(t, nested), options(&fake{dir: project}, project, runs, script(t, "notes.sh")))
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(rec.Dir, "run.json"))
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(data, []byte(`"output":`)) {
		t.Errorf("run.json holds the outputs:\n%s", data)
	}
	if in, deep := rec.Step("inner"), rec.Step("deep"); in.OutputFile != deep.OutputFile || in.Output != deep.Output {
		t.Errorf("inner's output file %q, want its last step's %q", in.OutputFile, deep.OutputFile)
	}
	got, err := workflow.LoadRun(runs, rec.ID)
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range got.Steps {
		if s.Output == "" || s.Output != rec.Steps[i].Output {
			t.Errorf("step %s read back with output %q, want %q", s.Name, s.Output, rec.Steps[i].Output)
		}
	}

	old := filepath.Join(runs, "20200101-000000-abcd")
	if err := os.Mkdir(old, 0o700); err != nil {
		t.Fatal(err)
	}
	v1 := `{"version": 1, "run_id": "20200101-000000-abcd", "task": "old", "status": "ok",
  "started": "2020-01-01T00:00:00Z", "duration_ms": 1, "files": [],
  "steps": [{"index": 1, "name": "a", "type": "atomic", "depth": 1, "status": "ok", "output": "old output\n",
    "files": [], "inherit": "full", "duration_ms": 1, "output_file": "01-a.output.txt"}]}`
	if err := os.WriteFile(filepath.Join(old, "run.json"), []byte(v1), 0o600); err != nil {
		t.Fatal(err)
	}
	if got, err := workflow.LoadRun(runs, "20200101-000000-abcd"); err != nil || got.Steps[0].Output != "old output\n" {
		t.Errorf("version 1 record: %v, want its output read back", err)
	}

	if err := os.Remove(filepath.Join(rec.Dir, rec.Step("after").OutputFile)); err != nil {
		t.Fatal(err)
	}
	if _, err := workflow.LoadRun(runs, rec.ID); err == nil || !strings.Contains(err.Error(), "step after: read its output") {
		t.Errorf("LoadRun without an output file: %v, want an error naming the step", err)
	}
}
