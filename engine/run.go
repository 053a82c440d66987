package engine

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/taskctl/taskctl/contextgen"
	"github.com/taskctl/taskctl/contextgen/tokens"
	"github.com/taskctl/taskctl/internal/diag"
	"github.com/taskctl/taskctl/internal/sandbox"
	"github.com/taskctl/taskctl/project"
	"github.com/taskctl/taskctl/template"
	"github.com/taskctl/taskctl/workflow"
)

// RunRequest runs a task or workflow.
type RunRequest struct {
	Template string   // a template file (relative to the working dir) or a task name
	Task     string   // the task of a library file
	Vars     []string // KEY=VALUE inputs
	DryRun   bool     // print the plan and each step's context; execute nothing
	Style    string   // the context document's style in prompts ("": xml)
	Strict   bool     // a step whose context has a warning is not executed
	Hashes   bool     // give each file's sha256 in the steps' contexts
	// Stderr receives the executors' stderr.
	Stderr io.Writer
	// Supervisor is the command line that runs an executor under
	// workflow.Supervise (nil: none).
	Supervisor []string
	// SandboxHelper is the command line of the sandbox helper that
	// confines an executor ([SandboxExec]; nil: none).
	SandboxHelper []string
	// Resume is the ID of a run of the same task to resume ("latest" for
	// the newest): Template and Task default to the ones it ran, its
	// --var values are taken (Vars override them), and the outputs of
	// its steps that finished with the prompts this run renders are
	// reused instead of run again.
	Resume string
}

// RunResult is a run's record; DryRun when nothing was executed (the
// steps' prompts are in the record).
type RunResult struct {
	Record *workflow.Record
	DryRun bool
	Report
}

// Run runs task t's steps: for each atomic step it assembles the context,
// renders the prompt, hands it to the executor (settings run.executor) and
// carries the output forward. With no executor, or DryRun, nothing is
// executed. A failed step is an *Error (STEP_FAILED; a timeout's class is
// ClassTimeout, --strict's STRICT_WARNINGS) whose Details is the
// *RunResult so far.
func (e *Engine) Run(ctx context.Context, req RunRequest) (*RunResult, error) {
	var ws warnings
	res, err := e.run(ctx, req, &ws)
	return done(res, err, ws)
}

func (e *Engine) run(ctx context.Context, req RunRequest, ws *warnings) (*RunResult, error) {
	// Checked before anything runs: it failed each step (exit 1,
	// STEP_FAILED) after a run record was made.
	if err := checkStyle(req.Style); err != nil {
		return nil, err
	}
	var prev *workflow.Record
	if req.Resume != "" {
		var err error
		if prev, err = e.resumable(&req); err != nil {
			return nil, err
		}
	}
	_, t, vars, err := e.loadTask(ws, req.Template, req.Task, req.Vars)
	if err != nil {
		return nil, err
	}
	if prev != nil && (t.Name != prev.Task || (prev.Template != "" && t.File() != prev.Template)) {
		return nil, codedErr(diag.ResumeMismatch, ClassUsage, "run %s is a run of task %q of %s, not of %q of %s", prev.ID, prev.Task, prev.Template, t.Name, t.File())
	}
	opt, err := e.runOptions(req, vars, ws)
	if err != nil {
		return nil, err
	}
	opt.Resume = prev
	rec, err := workflow.Run(ctx, t, opt)
	if rec != nil {
		ws.addAll(rec.Warnings)
		for _, s := range rec.Steps {
			for _, w := range s.Warnings {
				ws.add(diag.Warning{Code: w.Code, Message: stepLabel(s) + ": " + w.Message, Path: w.Path})
			}
		}
	}
	if err != nil {
		return nil, e.runError(err)
	}
	return &RunResult{Record: rec, DryRun: opt.DryRun}, nil
}

// runOptions are the workflow's options: the executor, where it runs, the
// step time limit and the assembler of each step.
func (e *Engine) runOptions(req RunRequest, vars map[string]string, ws *warnings) (workflow.Options, error) {
	cfg, err := e.Settings()
	if err != nil {
		return workflow.Options{}, err
	}
	p, err := e.Project()
	if err != nil {
		return workflow.Options{}, err
	}
	mode, err := e.sandboxMode(cfg, p, ws)
	if err != nil {
		return workflow.Options{}, err
	}
	var argv []string
	if cfg.Executor != "" && !req.DryRun {
		if argv, err = workflow.SplitCommand(cfg.Executor); err != nil {
			return workflow.Options{}, UsageError("%s: %v", e.name(FieldExecutor), err)
		}
	}
	opt := workflow.Options{
		Assemble: func(ctx context.Context, step *template.Task, inherit template.InheritMode, parentFiles []string) (*workflow.Assembled, error) {
			return e.assembleStep(ctx, step, inherit, parentFiles, req.Style, req.Hashes)
		},
		Executor:    argv,
		StepTimeout: cfg.StepTimeout,
		ProjectDir:  p.Dir(),
		WorkDir:     e.executorDir(cfg, p.Workspace(), p.Dir()),
		Stderr:      req.Stderr,
		Vars:        vars,
		DryRun:      argv == nil,
		Supervisor:  req.Supervisor,
		// Strict stops a step whose context gave a warning before its
		// executor runs; it ran every step and only then exited 3.
		Strict:        req.Strict,
		Sandbox:       mode,
		SandboxHelper: req.SandboxHelper,
		AllowScripts:  cfg.AllowScripts,
		// The write roots of config (never an untrusted project's) are
		// where agents may write: executors too.
		WriteRoots: cfg.WriteRoots,
		Tokens:     reduceCounter(cfg.Tokenizer),
	}
	if !opt.DryRun {
		// Warnings found so far (the template's, --var names no input
		// declares) stop a strict run before it starts.
		if err := e.StrictCheck(req.Strict, append(slices.Clip(e.ConfigWarnings()), *ws...)); err != nil {
			return opt, err
		}
		dir, err := p.EnsureWorkspace("runs")
		if err != nil {
			return opt, fmt.Errorf("run: %w", err)
		}
		opt.RunsDir = dir
		// The executors' workspace is the file operations' (<workspace>,
		// or .taskctl/workspace): what a step writes there, an agent
		// reads back through taskctl fs or the MCP server.
		fsys, err := e.openFS(ws)
		if err != nil {
			return opt, err
		}
		if opt.Workspace, err = fsys.EnsureWorkspace(); err != nil {
			return opt, fmt.Errorf("run: %w", err)
		}
	}
	return opt, nil
}

// sandboxMode is --sandbox, or config run.sandbox ("" for the default).
// The project's own config comes with the repository: it may make the
// sandbox stricter, but its "off" is ignored, with a warning.
func (e *Engine) sandboxMode(cfg *Settings, p *project.Project, ws *warnings) (sandbox.Mode, error) {
	if cfg.Sandbox == "" {
		return "", nil
	}
	m, err := sandbox.ParseMode(cfg.Sandbox)
	if err != nil {
		return "", UsageError("%s: %v", e.name(FieldSandbox), err)
	}
	if src := cfg.Sources["run.sandbox"]; m == sandbox.Off && (src == cfg.projectConfig || src == filepath.Join(p.Workspace(), "config.xml")) {
		can := "your user config can"
		if flag := e.spell(FieldSandbox); flag != "" && flag != string(FieldSandbox) {
			can = flag + "=off or " + can
		}
		ws.add(diag.Warning{Code: diag.ConfigIgnored, Path: src,
			Message: "run.sandbox: the project's own config may not turn the sandbox off (" + can + ")"})
		return "", nil
	}
	return m, nil
}

// executorDir is where the executor runs and a relative executor path is
// looked up. A relative path in a config file is the file's: the project's
// config (.taskctl/config.xml) names it from the project dir, another
// config file from its own directory; a flag's from where taskctl started.
func (e *Engine) executorDir(cfg *Settings, workspace, projectDir string) string {
	src := cfg.Sources["run.executor"]
	if src == "default" || strings.HasPrefix(src, "flag ") {
		return e.execDir()
	}
	switch dir := filepath.Dir(src); {
	case dir == workspace:
		return projectDir
	case filepath.IsAbs(dir):
		return dir
	default:
		return filepath.Join(e.execDir(), dir)
	}
}

// reduceCounter counts the tokens of a reduce's results with the
// configured tokenizer, loaded when a reduce first needs it; nil (four
// bytes a token) for --tokenizer none or one that does not load.
func reduceCounter(name string) func(string) int {
	if name == "none" {
		return nil
	}
	var once sync.Once
	var c tokens.Counter
	return func(s string) int {
		once.Do(func() { c, _ = tokens.New(name) })
		if c == nil {
			return (len(s) + 3) / 4
		}
		return c.Count([]byte(s))
	}
}

// runError is the *Error of a failed run.
func (e *Engine) runError(err error) error {
	var se *workflow.StepError
	if errors.As(err, &se) {
		ce := &Error{Code: diag.StepFailed, Class: ClassError, Message: err.Error()}
		if se.Run != nil {
			ce.Details = &RunResult{Record: se.Run}
		}
		switch {
		case errors.Is(err, workflow.ErrStrict):
			ce.Code, ce.Class = diag.StrictWarnings, ClassPartial
		case errors.Is(err, workflow.ErrNotConverged):
			ce.Code = diag.LoopNotConverged
		case errors.Is(err, workflow.ErrTimeBudget):
			ce.Code, ce.Class = diag.LoopTimeBudget, ClassTimeout
		case errors.Is(err, workflow.ErrVerdict):
			ce.Code = diag.VerdictInvalid
		case errors.Is(err, workflow.ErrTimeout):
			ce.Class = ClassTimeout
		case errors.Is(err, context.Canceled):
			ce.Code, ce.Class = diag.Interrupted, ClassInterrupted
		}
		return ce
	}
	var sce *workflow.ScriptError
	if errors.As(err, &sce) {
		if errors.Is(err, workflow.ErrScriptNotAllowed) {
			return &Error{Code: diag.ScriptNotAllowed, Class: ClassUsage, Message: e.scriptNotAllowed(sce)}
		}
		return &Error{Code: diag.ArgInvalid, Class: ClassUsage, Message: err.Error()}
	}
	if errors.Is(err, sandbox.ErrUnavailable) {
		return &Error{Code: diag.SandboxUnavailable, Class: ClassError, Message: err.Error()}
	}
	var ie *workflow.InputError
	if errors.As(err, &ie) {
		return e.bindError(err)
	}
	var pe *workflow.PendingError
	if errors.As(err, &pe) {
		how := "nothing gives it"
		if v := e.spell(FieldVar); v != "" {
			how = fmt.Sprintf("a step run on its own takes such an input's value from %s %s=VALUE", v, pe.Input)
		}
		// A general error, as workflow's own is.
		return codedErr(diag.Error, ClassError, "task %s: input %s: from=%q: no step named %q finishes before this task starts (%s)",
			pe.Task, pe.Input, pe.From, pe.Step, how)
	}
	if errors.Is(err, workflow.ErrNoExecutor) {
		return UsageError("%v", err)
	}
	return err
}

// scriptNotAllowed says why a script step did not run and how the user
// allows it, in the door's terms.
func (e *Engine) scriptNotAllowed(sce *workflow.ScriptError) string {
	how := string(FieldAllowScripts) + " in your own or a trusted config"
	if flag := e.spell(FieldAllowScripts); flag != "" && flag != string(FieldAllowScripts) {
		how = flag + " or " + how
	}
	return fmt.Sprintf("%s:%d:%d: the script %q would run a process that the template (a file of the project, not yours) names; allow it with %s",
		sce.File, sce.Pos.Line, sce.Pos.Col, sce.Command, how)
}

// bindError is the usage error of inputs that do not bind: a required
// input that nothing sets says how to set it in the door's terms.
func (e *Engine) bindError(err error) error {
	var ie *template.InputError
	if !errors.As(err, &ie) {
		return UsageError("%v", err)
	}
	how := "give it a value"
	if v := e.spell(FieldVar); v != "" {
		how = fmt.Sprintf("set it with %s %s=VALUE", v, ie.Input)
	}
	return UsageError("missing required input %q of task %q (declared at %s:%d:%d): %s",
		ie.Input, ie.Task, ie.File, ie.Pos.Line, ie.Pos.Col, how)
}

func stepLabel(s *workflow.StepResult) string {
	if s.Name != "" {
		return s.Name
	}
	return fmt.Sprintf("#%d", s.Index)
}

// assembleStep is the workflow's AssembleFunc: it assembles one bound step
// with the parent's files and renders the document in --style.
func (e *Engine) assembleStep(ctx context.Context, step *template.Task, inherit template.InheritMode, parentFiles []string, style string, hashes bool) (*workflow.Assembled, error) {
	// An earlier step's executor may have changed the ignore files.
	e.ReloadProject()
	// What assembling the step said is the step's (its record's).
	var ws warnings
	opt, err := e.contextOptions(&ws, step, style, hashes, false)
	if err != nil {
		return nil, err
	}
	opt.Inherit = inherit
	opt.Inherited = e.filesOf(parentFiles)
	doc, err := contextgen.Assemble(ctx, step, opt)
	if err != nil {
		return nil, err
	}
	e.saveCaches(opt, &ws)
	var buf bytes.Buffer
	if style == "" {
		style = "xml"
	}
	if err := doc.Render(&buf, style); err != nil {
		return nil, UsageError("%v", err)
	}
	a := &workflow.Assembled{Files: doc.Paths(), Document: buf.String(), Data: doc}
	a.Warnings = append(ws, doc.Warnings...)
	if style == "xml" {
		a.Warnings = append(a.Warnings, ReplacedWarnings(doc)...)
	}
	return a, nil
}

// filesOf turns absolute paths into the inherited files of a context.
func (e *Engine) filesOf(paths []string) []*contextgen.File {
	if len(paths) == 0 {
		return nil
	}
	p, err := e.Project()
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
func (e *Engine) preview(tf *template.File, t *template.Task, runID string) (previewData, error) {
	if runID == "" {
		return previewData{}, nil
	}
	p, err := e.Project()
	if err != nil {
		return previewData{}, err
	}
	rec, err := workflow.LoadRun(filepath.Join(p.Workspace(), "runs"), runID)
	if err != nil {
		return previewData{}, codedErr(diag.RunNotFound, ClassNotFound, "run %s: %v", runID, err)
	}
	if chain := chainTo(tf, t); len(chain) > 0 && rec.Task != "" && !slices.Contains(chain, rec.Task) {
		// Steps of another workflow may share t's name: their outputs
		// were bound without a word.
		return previewData{}, UsageError("run %s is a run of task %q, which does not hold %s (%s)", runID, rec.Task, t.Name, strings.Join(chain, " > "))
	}
	pv, parent, err := rec.Preview(t)
	if err != nil {
		return previewData{}, UsageError("run %s: %v", runID, err)
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
func (e *Engine) execDir() string {
	if e.opts.Cwd != "" {
		return e.workingDir
	}
	if wd, err := os.Getwd(); err == nil {
		return wd
	}
	return e.workingDir
}
