package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/taskctl/taskctl/contextgen"
	"github.com/taskctl/taskctl/internal/diag"
	"github.com/taskctl/taskctl/internal/sandbox"
	"github.com/taskctl/taskctl/project"
	"github.com/taskctl/taskctl/template"
	"github.com/taskctl/taskctl/workflow"
)

func runCmd() *command {
	return &command{
		name:  "run",
		usage: "FILE|TASKNAME [--task NAME] [--executor CMD] [--var K=V]... [--dry-run]",
		short: "run a task or workflow: hand each step's prompt to an executor and carry results forward",
		long: `For each atomic step, taskctl assembles its context, renders the prompt
(description, instructions, inputs, earlier outputs, context document), writes
it to the executor's stdin and takes its stdout as the step's output. The
executor is any program you name (a model CLI, a script, cat); it runs from the
project dir with TASKCTL_RUN_DIR, TASKCTL_WORKSPACE, TASKCTL_TASK and
TASKCTL_STEP set, and its stderr goes to yours. On Linux it runs confined by
Landlock (--sandbox): read-only-project, the default, lets it write only in
the run's directory, the workspace (.taskctl/workspace) and the temp dir;
strict also takes the network and the temp dir away; off confines nothing.
Where the kernel has no Landlock the default runs it unconfined with a
SANDBOX_UNAVAILABLE warning.

With no executor (flag or config run.executor), or with --dry-run, nothing is
executed: the plan and each step's context are printed, later steps' bound
inputs shown as pending. Every real run is recorded under
.taskctl/runs/<id>/. The last step's output goes to stdout, the summary to
stderr. A failed step exits 1 (10 if it timed out) with error.code
STEP_FAILED and the results so far in error.details.`,
		examples: []string{
			"taskctl run fix-login --dry-run",
			"taskctl run fix-login --executor 'llm -m gpt-4o'",
			"taskctl run flow.xml --executor ./scripts/agent.sh --var issue=1234 --output json",
		},
		flags: func(fs *pflag.FlagSet, o *opts) {
			fs.StringVar(&o.task, "task", "", "run the task named `NAME` of a library file")
			fs.StringVar(&o.executor, "executor", "", "the executor command line, split as a shell splits words")
			fs.StringArrayVar(&o.vars, "var", nil, "set input `KEY=VALUE` (repeatable, once per KEY)")
			fs.BoolVar(&o.dryRun, "dry-run", false, "print the plan and each step's context; execute nothing")
			fs.DurationVar(&o.timeout, "timeout", 0, "per-step time limit (default 10m, config run.step_timeout; 0 for none)")
			fs.StringVar(&o.style, "style", "xml", "context document style in prompts: xml, markdown or plain")
			fs.BoolVar(&o.strict, "strict", false, "fail (exit 3) on any warning; a step whose context has one is not executed")
			fs.StringVar(&o.sandbox, "sandbox", "", "confine each executor: off, read-only-project or strict (default read-only-project where Landlock is available; config run.sandbox)")
		},
		run: runRun,
	}
}

func runRun(ctx context.Context, e *env, args []string) (any, error) {
	// A workflow lives as long as its executors: collect garbage as it
	// comes (at 4× the live heap), not only near the memory limit Main
	// sets for the commands that end as soon as their work is done.
	if e.getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	if len(args) != 1 {
		return nil, usageErr("run needs exactly one FILE or TASKNAME")
	}
	switch e.opts.style {
	case "", "xml", "markdown", "plain":
	default:
		// Checked before anything runs: it failed each step (exit 1,
		// STEP_FAILED) after a run record was made.
		return nil, usageErr("--style must be xml, markdown or plain, not %q", e.opts.style)
	}
	_, t, vars, err := e.loadTask(args[0])
	if err != nil {
		return nil, err
	}
	cfg, err := e.config()
	if err != nil {
		return nil, err
	}
	p, err := e.project()
	if err != nil {
		return nil, err
	}
	var argv []string
	if cfg.Executor != "" && !e.opts.dryRun {
		if argv, err = workflow.SplitCommand(cfg.Executor); err != nil {
			return nil, usageErr("--executor: %v", err)
		}
	}
	workDir := e.execDir()
	if src := cfg.sources["run.executor"]; src != "default" && !strings.HasPrefix(src, "flag ") {
		// A relative path in a config file is the file's: the project's
		// config (.taskctl/config.xml) names it from the project dir,
		// another config file from its own directory.
		switch dir := filepath.Dir(src); {
		case dir == p.Workspace():
			workDir = p.Dir()
		case filepath.IsAbs(dir):
			workDir = dir
		default:
			workDir = filepath.Join(e.execDir(), dir)
		}
	}
	mode, err := e.sandboxMode(cfg, p)
	if err != nil {
		return nil, err
	}
	opt := workflow.Options{
		Assemble:    e.assembleStep,
		Executor:    argv,
		StepTimeout: cfg.StepTimeout,
		ProjectDir:  p.Dir(),
		WorkDir:     workDir,
		Stderr:      e.stderr,
		Vars:        vars,
		DryRun:      argv == nil,
		Supervisor:  self(superviseCmd),
		// --strict stops a step whose context gave a warning before its
		// executor runs; it ran every step and only then exited 3.
		Strict:        e.opts.strict,
		Sandbox:       mode,
		SandboxHelper: self(sandbox.HelperArg),
	}
	if e.json() {
		opt.Stderr = e.stderr
	}
	if !opt.DryRun {
		// Warnings found so far (the template's, --var names no input
		// declares) stop a strict run before it starts.
		if err := e.strictCheck(); err != nil {
			return nil, err
		}
		dir, err := p.EnsureWorkspace("runs")
		if err != nil {
			return nil, fmt.Errorf("run: %w", err)
		}
		opt.RunsDir = dir
		if opt.Workspace, err = p.EnsureWorkspace("workspace"); err != nil {
			return nil, fmt.Errorf("run: %w", err)
		}
	}
	rec, err := workflow.Run(ctx, t, opt)
	if rec != nil {
		for _, w := range rec.Warnings {
			e.warn(w)
		}
		for _, s := range rec.Steps {
			for _, w := range s.Warnings {
				e.warn(diag.Warning{Code: w.Code, Message: stepLabel(s) + ": " + w.Message, Path: w.Path})
			}
		}
	}
	if err != nil {
		var se *workflow.StepError
		if errors.As(err, &se) {
			if !e.json() && se.Run != nil {
				workflow.WriteSummary(e.stderr, se.Run)
			}
			ce := &cliError{code: diag.StepFailed, exit: exitError, msg: err.Error()}
			if se.Run != nil {
				ce.details = runData(se.Run, false)
			}
			switch {
			case errors.Is(err, workflow.ErrStrict):
				ce.code, ce.exit = diag.StrictWarnings, exitPartial
			case errors.Is(err, workflow.ErrTimeout):
				ce.exit = exitTimeout
			case errors.Is(err, context.Canceled):
				ce.code, ce.exit = diag.Interrupted, exitInterrupted
			}
			return nil, ce
		}
		if errors.Is(err, sandbox.ErrUnavailable) {
			return nil, &cliError{code: diag.SandboxUnavailable, exit: exitError, msg: err.Error()}
		}
		var ie *workflow.InputError
		if errors.As(err, &ie) || errors.Is(err, workflow.ErrNoExecutor) {
			return nil, usageErr("%v", err)
		}
		return nil, err
	}
	if err := e.strictCheck(); err != nil {
		return nil, err
	}
	if !e.json() {
		if opt.DryRun {
			if err := workflow.WritePlan(e.stdout, rec, workflow.PlanOptions{Files: true, Prompts: true}); err != nil {
				return nil, err
			}
		} else {
			workflow.WriteSummary(e.stderr, rec)
			if n := len(rec.Steps); n > 0 {
				// (io.WriteString: fmt.Fprint copied the output into
				// its buffer first)
				out := rec.Steps[n-1].Output
				io.WriteString(e.stdout, out)
				if out != "" && out[len(out)-1] != '\n' {
					fmt.Fprintln(e.stdout)
				}
			}
		}
	}
	return runData(rec, opt.DryRun), nil
}

// runStep is a step in the json envelope: the record's fields, its output
// as a jsonText (up to 64 MiB), and in a dry run, for an atomic step, the
// prompt it would be sent (a dry run writes no record, so the prompt has
// no file to point at).
type runStep struct {
	*workflow.StepResult
	Output jsonText `json:"output"`
	Prompt string   `json:"prompt,omitempty"`
}

// runData is the envelope's data (or error.details) for run --output json.
func runData(rec *workflow.Record, dry bool) any {
	steps := make([]runStep, len(rec.Steps))
	for i, s := range rec.Steps {
		steps[i] = runStep{StepResult: s, Output: jsonText(s.Output)}
		if dry {
			steps[i].Prompt = s.Prompt
		}
	}
	return struct {
		*workflow.Record
		Steps []runStep `json:"steps"`
	}{rec, steps}
}

func stepLabel(s *workflow.StepResult) string {
	if s.Name != "" {
		return s.Name
	}
	return fmt.Sprintf("#%d", s.Index)
}

// assembleStep is the workflow's AssembleFunc: it assembles one bound step
// with the parent's files and renders the document in --style.
func (e *env) assembleStep(ctx context.Context, step *template.Task, inherit template.InheritMode, parentFiles []string) (*workflow.Assembled, error) {
	if e.proj != nil {
		// An earlier step's executor may have changed the ignore files.
		e.proj.Reload()
	}
	opt, err := e.contextOptions(step)
	if err != nil {
		return nil, err
	}
	opt.Inherit = inherit
	opt.Inherited = e.filesOf(parentFiles)
	doc, err := contextgen.Assemble(ctx, step, opt)
	if err != nil {
		return nil, err
	}
	e.saveCaches(opt)
	var buf bytes.Buffer
	style := e.opts.style
	if style == "" {
		style = "xml"
	}
	if err := doc.Render(&buf, style); err != nil {
		return nil, usageErr("%v", err)
	}
	a := &workflow.Assembled{Files: doc.Paths(), Document: buf.String(), Data: doc}
	a.Warnings = doc.Warnings
	if style == "xml" {
		a.Warnings = append(a.Warnings, replacedWarnings(doc)...)
	}
	return a, nil
}

// filesOf turns absolute paths into the inherited files of a context.
func (e *env) filesOf(paths []string) []*contextgen.File {
	if len(paths) == 0 {
		return nil
	}
	p, err := e.project()
	if err != nil {
		return nil
	}
	out := make([]*contextgen.File, 0, len(paths))
	for _, path := range paths {
		rel, err := filepath.Rel(p.Dir(), path)
		if err != nil {
			continue
		}
		out = append(out, &contextgen.File{Path: path, Rel: filepath.ToSlash(rel)})
	}
	return out
}

// previewData is what `assemble --run ID` binds from a recorded run.
type previewData struct {
	vars      map[string]string
	inherited []*contextgen.File
}

// preview loads run --run ID (if given) and returns the bindings of task t
// recorded there.
func (e *env) preview(ctx context.Context, tf *template.File, t *template.Task, vars map[string]string) (previewData, error) {
	if e.opts.runID == "" {
		return previewData{}, nil
	}
	p, err := e.project()
	if err != nil {
		return previewData{}, err
	}
	rec, err := workflow.LoadRun(filepath.Join(p.Workspace(), "runs"), e.opts.runID)
	if err != nil {
		return previewData{}, codedErr(diag.RunNotFound, exitNotFound, "run %s: %v", e.opts.runID, err)
	}
	if chain := chainTo(tf, t); len(chain) > 0 && rec.Task != "" && !slices.Contains(chain, rec.Task) {
		// Steps of another workflow may share t's name: their outputs
		// were bound without a word.
		return previewData{}, usageErr("run %s is a run of task %q, which does not hold %s (%s)", e.opts.runID, rec.Task, t.Name, strings.Join(chain, " > "))
	}
	pv, parent, err := rec.Preview(t)
	if err != nil {
		return previewData{}, usageErr("run %s: %v", e.opts.runID, err)
	}
	return previewData{vars: pv, inherited: e.filesOf(parent)}, nil
}

// chainTo returns the names of the tasks of tf from its top-level task down
// to t, t's own last; nil if tf does not hold t.
func chainTo(tf *template.File, t *template.Task) []string {
	var names []string
	for _, x := range pathTo(tf, t) {
		names = append(names, x.Name)
	}
	return names
}

// pathTo returns the tasks of tf from its top-level task down to t, t
// last; nil if tf does not hold t.
func pathTo(tf *template.File, t *template.Task) []*template.Task {
	var find func(x *template.Task, path []*template.Task) []*template.Task
	find = func(x *template.Task, path []*template.Task) []*template.Task {
		path = append(path[:len(path):len(path)], x)
		if x == t {
			return path
		}
		for _, s := range x.Steps {
			if p := find(s, path); p != nil {
				return p
			}
		}
		return nil
	}
	for _, top := range tf.Tasks {
		if p := find(top, nil); p != nil {
			return p
		}
	}
	return nil
}

// execDir is where a relative executor path is looked up: --cwd if given,
// else the directory taskctl was started in (as the user's shell would).
func (e *env) execDir() string {
	if e.opts.cwd != "" {
		return e.workingDir
	}
	if wd, err := os.Getwd(); err == nil {
		return wd
	}
	return e.workingDir
}

// superviseCmd is the hidden first argument that makes taskctl the
// supervisor of one executor (workflow.Supervise).
const superviseCmd = "__supervise"

// sandboxMode is --sandbox, or config run.sandbox ("" for the default).
// The project's own config comes with the repository: it may make the
// sandbox stricter, but its "off" is ignored, with a warning.
func (e *env) sandboxMode(cfg *settings, p *project.Project) (sandbox.Mode, error) {
	if cfg.Sandbox == "" {
		return "", nil
	}
	m, err := sandbox.ParseMode(cfg.Sandbox)
	if err != nil {
		return "", usageErr("--sandbox: %v", err)
	}
	if src := cfg.sources["run.sandbox"]; m == sandbox.Off && src == filepath.Join(p.Workspace(), "config.xml") {
		e.warn(diag.Warning{Code: diag.ConfigIgnored, Path: src,
			Message: "run.sandbox: the project's own config may not turn the sandbox off (--sandbox=off or your user config can)"})
		return "", nil
	}
	return m, nil
}

// self is the command line that runs this program, as it was started (so
// that a copy run under another name still finds itself), with arg, a
// hidden first argument (superviseCmd, sandbox.HelperArg); nil if it
// cannot be found.
func self(arg string) []string {
	path := os.Args[0]
	var err error
	if strings.Contains(path, "/") {
		path, err = filepath.Abs(path)
	} else {
		path, err = exec.LookPath(path)
	}
	if err != nil {
		if path, err = os.Executable(); err != nil {
			return nil
		}
	}
	return []string{path, arg}
}
