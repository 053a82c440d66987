package workflow

import (
	"context"

	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/taskctl/taskctl/internal/diag"
	"github.com/taskctl/taskctl/internal/sandbox"
	"github.com/taskctl/taskctl/template"
)

type runner struct {
	opt   Options
	root  *template.Task
	rec   *Record
	st    *store // nil in a dry run
	dry   bool
	exe   string        // the executor's resolved path
	plan  *sandbox.Plan // how executors are confined; nil: not at all
	nodes map[*template.Task]*StepResult
	next  int // the Index of the next step result a loop or a reduce adds

	scripts map[*template.ScriptSpec][]string // the command line of each script step

	// Resuming: the steps of Options.Resume by key, and whether every step
	// so far was reused (replay; once one runs, the rest run too).
	prev   map[string]*StepResult
	replay bool

	// mu guards the record while a reduce runs items at once: a worker
	// holds it except while its executor runs (unlocked says so).
	mu       sync.Mutex
	unlocked bool
	running  atomic.Int32 // executors running at once in a reduce
	peak     atomic.Int32
}

// executable resolves the executor's program before anything runs: a path
// with a slash against WorkDir, a bare name through PATH.
func (r *runner) executable() (string, error) {
	name := r.opt.Executor[0]
	if strings.Contains(name, "/") && !filepath.IsAbs(name) {
		dir := r.opt.WorkDir
		if dir == "" {
			wd, err := os.Getwd()
			if err != nil {
				return "", fmt.Errorf("executor %s: %w", name, err)
			}
			dir = wd
		}
		name = filepath.Join(dir, name)
	}
	path, err := exec.LookPath(name)
	if err != nil {
		return "", fmt.Errorf("%w: %w", ErrNoExecutor, err)
	}
	return path, nil
}

func newRunner(root *template.Task, opt Options) *runner {
	r := &runner{
		opt:     opt,
		root:    root,
		dry:     opt.DryRun || len(opt.Executor) == 0,
		nodes:   map[*template.Task]*StepResult{},
		scripts: map[*template.ScriptSpec][]string{},
	}
	r.rec = &Record{
		Version:    recordVersion,
		Task:       root.Name,
		Status:     RunRunning,
		ProjectDir: opt.ProjectDir,
		Vars:       maps.Clone(opt.Vars),
		Files:      []string{},
		Steps:      []*StepResult{},
	}
	if !r.dry {
		r.rec.Executor = opt.Executor
	}
	status := StepPending
	if r.dry {
		status = StepPlanned
	}
	var walk func(t *template.Task, parent string, depth int)
	walk = func(t *template.Task, parent string, depth int) {
		res := &StepResult{
			Index:  len(r.rec.Steps) + 1,
			Name:   t.Name,
			Type:   kindOf(t),
			Parent: parent,
			Depth:  depth,
			Status: status,
			Files:  []string{},
		}
		r.rec.Steps = append(r.rec.Steps, res)
		r.nodes[t] = res
		if t.Type != sequential {
			return // a loop's and a reduce's steps are added as they run
		}
		for _, c := range t.Steps {
			walk(c, res.label(), depth+1)
		}
	}
	if root.Type == sequential {
		for _, c := range root.Steps {
			walk(c, "", 1)
		}
	} else {
		walk(root, "", 1)
	}
	r.next = len(r.rec.Steps) + 1
	r.rec.Template = root.File()
	if p := opt.Resume; p != nil && !r.dry {
		r.rec.ResumedFrom = p.ID
		r.prev = map[string]*StepResult{}
		for _, s := range p.Steps {
			r.prev[s.key()] = s
		}
		r.replay = true
	}
	return r
}

func kindOf(t *template.Task) string {
	if t.Type == "" {
		return "atomic"
	}
	return t.Type
}

// bindVars is what Bind gets for t: the bound values of the tasks around it
// (scope), its from inputs (value), and the --var values of its own inputs.
// An input of t with a default shadows an outer value of the same name
// unless --var sets it; a required input of t may take an outer value.
func bindVars(t *template.Task, scope, vars map[string]string, value func(template.Input) (string, error)) (map[string]string, error) {
	bv := maps.Clone(scope)
	if bv == nil {
		bv = map[string]string{}
	}
	for _, in := range t.Inputs {
		v, set := vars[in.Name]
		switch {
		case in.From != "":
			x, err := value(in)
			if err != nil {
				return nil, fmt.Errorf("input %s: %w", in.Name, err)
			}
			bv[in.Name] = x
		case set:
			bv[in.Name] = v
		case in.HasDefault:
			delete(bv, in.Name)
		}
	}
	return bv, nil
}

// preBind binds every task of the plan, with every from input pending, so
// that a missing required input (a *template.InputError) stops the run
// before anything starts.
func (r *runner) preBind(t *template.Task, scope map[string]string) error {
	bv, err := bindVars(t, scope, r.opt.Vars, func(in template.Input) (string, error) { return pending(in.From), nil })
	if err != nil {
		return err
	}
	bound, err := bindShallow(t, bv)
	if err != nil {
		return err
	}
	for _, c := range t.Steps {
		if err := r.preBind(c, bound.Vars()); err != nil {
			return err
		}
	}
	return nil
}

// run runs the task: prepared (inputs bound, scripts checked, the
// executor and the sandbox found), its record started, the root task run,
// and the record finished with the run's status.
func (r *runner) run(ctx context.Context) (*Record, error) {
	if err := r.prepareRun(); err != nil {
		return nil, err
	}
	r.rec.Started = time.Now().UTC()
	var bound *template.Task // a workflow's own task, bound
	if r.root.Type == sequential {
		var err error
		bv, _ := bindVars(r.root, nil, r.opt.Vars, nil)
		if bound, err = bindShallow(r.root, bv); err != nil {
			return nil, err
		}
	}
	if !r.dry {
		if err := r.startRecord(); err != nil {
			return nil, err
		}
		defer r.st.close()
	}
	failed, err := r.runRoot(ctx, bound)
	return r.finishRun(ctx, failed, err)
}

// prepareRun checks what can stop the run before anything starts: a required
// input nothing sets, a script step not allowed, the executor not found,
// a sandbox that cannot be set up.
func (r *runner) prepareRun() error {
	if err := r.preBind(r.root, nil); err != nil {
		return err
	}
	if err := r.checkScripts(); err != nil {
		return err
	}
	if r.dry {
		return nil
	}
	path, err := r.executable()
	if err != nil {
		return err
	}
	r.exe = path
	return r.prepareSandbox()
}

// runRoot runs the root task: a workflow (bound, its own context
// assembled first) step by step, or a single task. failed is the step
// that failed, if one did.
func (r *runner) runRoot(ctx context.Context, bound *template.Task) (failed *StepResult, err error) {
	rec := r.rec
	switch {
	case r.opt.Strict && !r.dry && len(rec.Warnings) > 0:
		return nil, strictErr(len(rec.Warnings), "the run's sandbox")
	case bound == nil:
		return r.task(ctx, r.root, r.nodes[r.root], nil, nil, nil, nil, nil)
	}
	eff := bound.EffectiveContext()
	asm, err := r.opt.Assemble(ctx, bound, eff.Inherit, nil)
	if err != nil {
		return nil, fmt.Errorf("assemble the context of %s: %w", label(r.root, 0), err)
	}
	if asm == nil {
		asm = &Assembled{}
	}
	rec.Files = nonNil(asm.Files)
	rec.Warnings = append(rec.Warnings, asm.Warnings...)
	rec.Inputs = bound.Vars()
	if r.opt.Strict && !r.dry && len(rec.Warnings) > 0 {
		return nil, strictErr(len(rec.Warnings), "the workflow's own context")
	}
	return r.sequence(ctx, r.root, &eff, bound.Vars(), rec.Files, nil)
}

// finishRun ends the record: its time, its status (planned, ok, interrupted
// or failed, the steps that never ran skipped) and its last save. A run
// that failed is a *StepError naming the step.
func (r *runner) finishRun(ctx context.Context, failed *StepResult, err error) (*Record, error) {
	rec := r.rec
	end := time.Now().UTC()
	rec.Ended = &end
	rec.DurationMS = end.Sub(rec.Started).Milliseconds()
	switch {
	case err == nil && r.dry:
		rec.Status = RunPlanned
	case err == nil:
		rec.Status = RunOK
	case ctx.Err() != nil:
		rec.Status = RunInterrupted
	default:
		rec.Status = RunFailed
	}
	if err != nil {
		rec.Error = err.Error()
		for _, s := range rec.Steps {
			if s.Status == StepPending || s.Status == StepPlanned {
				s.Status = StepSkipped
			}
		}
	}
	if r.st != nil {
		if serr := r.save(); serr != nil && err == nil {
			return rec, fmt.Errorf("write the run record: %w", serr)
		}
	}
	if err != nil {
		name := label(r.root, 0)
		if failed != nil {
			name = failed.label()
		}
		return rec, &StepError{Step: name, Run: rec, Err: err}
	}
	return rec, nil
}

// startRecord makes the run's directory, writes its first run.json and
// settles the runs before it that died.
func (r *runner) startRecord() error {
	st, err := create(r.opt.RunsDir, r.rec.Started)
	if err != nil {
		return fmt.Errorf("create the run record: %w", err)
	}
	r.st = st
	r.rec.ID = st.id
	r.rec.Dir = filepath.Join(r.opt.RunsDir, st.id)
	r.rec.PID = os.Getpid()
	r.rec.Host, _ = os.Hostname()
	if err := r.runDirPlan(); err != nil {
		st.close()
		return err
	}
	if err := r.save(); err != nil {
		st.close()
		return fmt.Errorf("write the run record: %w", err)
	}
	settle(r.opt.RunsDir, st.runs)
	return nil
}

// prepareSandbox makes the workspace, decides the run's sandbox (see
// sandboxPlan) and records the mode in force.
func (r *runner) prepareSandbox() error {
	if r.opt.Workspace != "" {
		if err := ensureWorkspace(r.opt.Workspace); err != nil {
			return err
		}
	}
	plan, warn, err := r.sandboxPlan()
	if err != nil {
		return err
	}
	r.plan = plan
	r.rec.Sandbox = string(sandbox.Off)
	if plan != nil {
		r.rec.Sandbox = string(plan.Mode)
	}
	if warn != nil {
		r.rec.Warnings = append(r.rec.Warnings, *warn)
	}
	return nil
}

// strictErr is the error of a step Options.Strict stops: n warnings in what.
func strictErr(n int, what string) error {
	return fmt.Errorf("%w: %d warning(s) in %s; the executor was not run", ErrStrict, n, what)
}

func (r *runner) save() error {
	if r.st == nil {
		return nil
	}
	return r.st.writeRecord(r.rec)
}

// sequence runs the steps of t, a sequential task whose own context holds
// files and whose scope holds the bound values of its inputs and those of the
// tasks around it, and returns the step that stopped it.
func (r *runner) sequence(ctx context.Context, t *template.Task, eff *template.Context, scope map[string]string, files []string, hist []*StepResult) (*StepResult, error) {
	h := append([]*StepResult(nil), hist...)
	for _, c := range t.Steps {
		if err := ctx.Err(); err != nil {
			res := r.nodes[c]
			res.Status = StepInterrupted
			res.Error = "interrupted before it started"
			return res, interrupted(ctx)
		}
		if failed, err := r.task(ctx, c, r.nodes[c], eff, scope, files, h, nil); err != nil {
			return failed, err
		}
		h = append(h, r.nodes[c])
	}
	return nil, nil
}

// fail ends step res with status and err, and saves the record.
func (r *runner) fail(ctx context.Context, res *StepResult, status string, err error) (*StepResult, error) {
	if ctx.Err() != nil && status == StepFailed {
		status = StepInterrupted
	}
	res.Status = status
	res.Error = err.Error()
	r.finish(res)
	if serr := r.save(); serr != nil {
		err = fmt.Errorf("%w (and the run record: %v)", err, serr)
	}
	return res, err
}

// task runs one step t, whose result is res, of a sequential task, a loop
// or a reduce whose effective context is parent (nil when t is the
// top-level task), and returns the step that failed, if any. own holds
// what the step's role gives it (a director's iteration and feedback, an
// inner task's item, and the results of the steps of its iteration, by
// name): they win over everything else.
func (r *runner) task(ctx context.Context, t *template.Task, res *StepResult, parent *template.Context, scope map[string]string, parentFiles []string, hist []*StepResult, own *roleValues) (*StepResult, error) {
	started := time.Now().UTC()
	res.Started = &started
	if !r.dry {
		res.Status = StepRunning
	}
	fail := func(status string, err error) (*StepResult, error) { return r.fail(ctx, res, status, err) }

	bound, err := r.bindStep(t, scope, res, own)
	if err != nil {
		return fail(StepFailed, err)
	}
	eff := bound.EffectiveContext()
	inherit := eff.Inherit
	if inherit == "" {
		inherit = template.InheritFull
	}
	res.Inherit = inherit
	pf := parentFiles
	if inherit == template.InheritNone {
		pf = nil
	}
	var warns []diag.Warning
	if r.dry {
		warns = DropPending(bound)
	}

	asm, err := r.opt.Assemble(ctx, bound, inherit, pf)
	if err != nil {
		return fail(StepFailed, fmt.Errorf("assemble the context: %w", err))
	}
	if asm == nil {
		asm = &Assembled{}
	}
	res.Context = asm
	res.Files = nonNil(asm.Files)
	res.Warnings = append(warns, asm.Warnings...)
	if own != nil {
		res.Warnings = append(res.Warnings, own.warnings...)
	}
	if inherit == template.InheritSubset && len(pf) > 0 && !slices.ContainsFunc(pf, func(f string) bool { return slices.Contains(res.Files, f) }) {
		res.Warnings = append(res.Warnings, diag.Warning{Code: diag.SubsetEmpty,
			Message: fmt.Sprintf("inherit_context=subset kept none of the parent's %d files: none matches the step's description", len(pf))})
	}

	if t.HasSteps() {
		if r.opt.Strict && !r.dry && len(res.Warnings) > 0 {
			return fail(StepFailed, strictErr(len(res.Warnings), "its own context"))
		}
		switch t.Type {
		case template.TypeLoop:
			return r.loopTask(ctx, t, res, &eff, bound, hist)
		case template.TypeReduce:
			return r.reduceTask(ctx, t, res, &eff, bound, hist)
		}
		return r.sequenceTask(ctx, t, res, &eff, bound, hist)
	}
	p, err := r.prepare(res, bound, parent, eff, hist, asm, own)
	if err != nil || r.dry {
		if err != nil {
			return fail(StepFailed, err)
		}
		return nil, nil
	}
	if r.reuse(res) {
		return nil, r.save()
	}
	ex := r.executeUnlocked(ctx, res, p, res.fileBase()+".output.txt")
	return r.complete(ctx, res, bound, ex)
}

// prepare renders the prompt of an atomic step whose context asm holds and
// writes it to the run's directory (in a dry run, only renders it).
func (r *runner) prepare(res *StepResult, bound *template.Task, parent *template.Context, eff template.Context, hist []*StepResult, asm *Assembled, own *roleValues) (string, error) {
	acc, format := accumulation(parent, eff)
	if acc {
		res.Accumulate = format
	} else {
		hist = nil
	}
	if len(hist) > 0 {
		// The prompt holds earlier results: an empty context document is
		// not an empty context, whatever the assembler said of it.
		res.Warnings = slices.DeleteFunc(res.Warnings, func(w diag.Warning) bool { return w.Code == diag.EmptyContext })
	}
	p := promptWith(bound, hist, format, asm.Document, r.dry, own.section())
	res.Prompt = p
	res.PromptSHA256, res.ContextSHA256 = digest(p), digest(asm.Document)
	if r.dry {
		r.finish(res)
		return p, nil
	}
	if r.opt.Strict && len(res.Warnings) > 0 {
		return "", strictErr(len(res.Warnings), "its context")
	}
	res.PromptFile = res.fileBase() + ".prompt.txt"
	if err := r.st.write(res.PromptFile, p); err != nil {
		return "", fmt.Errorf("write the prompt: %w", err)
	}
	if err := r.save(); err != nil {
		return "", fmt.Errorf("write the run record: %w", err)
	}
	return p, nil
}

// complete takes what the executor of atomic step res produced.
func (r *runner) complete(ctx context.Context, res *StepResult, bound *template.Task, ex execution) (*StepResult, error) {
	res.Output, res.ExitCode, res.OutputFile = ex.stdout, ex.exitCode, ex.file
	if ex.err != nil {
		return r.fail(ctx, res, ex.status, ex.err)
	}
	if err := r.parse(res, bound.Output); err != nil {
		if res.Role == template.RoleEvaluator {
			err = fmt.Errorf("evaluator %s: %w: %w", res.label(), ErrVerdict, err)
		}
		return r.fail(ctx, res, StepFailed, err)
	}
	res.Status = StepOK
	r.finish(res)
	if err := r.save(); err != nil {
		return res, fmt.Errorf("write the run record: %w", err)
	}
	return nil, nil
}

// bindStep binds step t's inputs: declared values and defaults from scope
// and Vars, and from= references to the results of earlier steps (pending
// markers in a dry run). It records the bindings and the bound values in res.
func (r *runner) bindStep(t *template.Task, scope map[string]string, res *StepResult, own *roleValues) (*template.Task, error) {
	for _, in := range t.Inputs {
		if in.From != "" {
			if res.Bindings == nil {
				res.Bindings = map[string]string{}
			}
			res.Bindings[in.Name] = in.From
		}
	}
	vars := r.opt.Vars
	if own != nil && len(own.vars) > 0 {
		vars = maps.Clone(vars)
		if vars == nil {
			vars = map[string]string{}
		}
		maps.Copy(vars, own.vars)
	}
	bv, err := bindVars(t, scope, vars, func(in template.Input) (string, error) {
		rf, err := parseRef(in.From)
		if err != nil {
			return "", err
		}
		if s := own.step(rf.step); s != nil && !r.dry {
			return s.value(rf)
		}
		if r.rec.Step(rf.step) == nil {
			// A step outside this run (check let it through only with a
			// value in Vars).
			if v, ok := r.opt.Vars[in.Name]; ok {
				return v, nil
			}
		}
		if r.dry {
			return pending(in.From), nil
		}
		src := r.rec.Step(rf.step)
		if src == nil || src.Status != StepOK {
			return "", fmt.Errorf("from=%q: step %s has no result", in.From, rf.step)
		}
		return src.value(rf)
	})
	if err != nil {
		return nil, err
	}
	bound, err := bindShallow(t, bv)
	if err != nil {
		return nil, err
	}
	res.Inputs = maps.Clone(bound.Vars())
	return bound, nil
}

// sequenceTask runs the steps of sequential task t after its own context
// was assembled into res, and takes the last step's results as its own.
func (r *runner) sequenceTask(ctx context.Context, t *template.Task, res *StepResult, eff *template.Context, bound *template.Task, hist []*StepResult) (*StepResult, error) {
	if failed, err := r.sequence(ctx, t, eff, bound.Vars(), res.Files, hist); err != nil {
		res.Status = failed.Status
		if res.Status == StepTimeout {
			res.Status = StepFailed
		}
		res.Error = "step " + failed.label() + " " + failed.Status
		r.finish(res)
		return failed, err
	}
	if n := len(t.Steps); n > 0 {
		last := r.nodes[t.Steps[n-1]]
		res.Output, res.Notes, res.Parsed, res.OutputFile = last.Output, last.Notes, last.Parsed, last.OutputFile
	}
	if !r.dry {
		res.Status = StepOK
	}
	r.finish(res)
	return nil, r.save()
}

// parse fills in Parsed and Notes. A step that declares JSON output must
// print JSON (see parseOutput) of its schema's type; a step that declares
// nothing gets them only if its whole output is a JSON object.
func (r *runner) parse(res *StepResult, of *template.OutputFormat) error {
	switch {
	case of != nil && of.Type == "json":
		raw, err := parseOutput(res.Output)
		if err != nil {
			return fmt.Errorf("output_format json: %w", err)
		}
		if of.Schema != "" {
			if err := checkSchema(raw, of.Schema); err != nil {
				return err
			}
		}
		res.Parsed, res.Notes = raw, notesOf(raw)
	case of == nil || of.Type == "":
		s := strings.TrimSpace(res.Output)
		if strings.HasPrefix(s, "{") {
			if raw, err := parseOutput(s); err == nil {
				res.Parsed, res.Notes = raw, notesOf(raw)
			}
		}
	}
	return nil
}

func (r *runner) finish(res *StepResult) {
	end := time.Now().UTC()
	res.Ended = &end
	if res.Started != nil {
		res.DurationMS = end.Sub(*res.Started).Milliseconds()
	}
}

// accumulation decides whether a step gets a previous_outputs section and in
// which format: its own, when it sets accumulate_data=true; else its
// enclosing sequential task's, when that one accumulates.
func accumulation(parent *template.Context, eff template.Context) (bool, string) {
	format := func(f string) string {
		if f == "" {
			return NotesOnly
		}
		return f
	}
	if eff.Accumulate {
		return true, format(eff.Format)
	}
	if parent != nil && parent.Accumulate {
		return true, format(parent.Format)
	}
	return false, ""
}

// bindShallow binds t without its steps: a sequential task's steps are bound
// one by one when their turn comes.
func bindShallow(t *template.Task, vars map[string]string) (*template.Task, error) {
	c := *t
	c.Steps = nil
	return c.Bind(vars)
}

func pending(what string) string { return "<pending: " + what + ">" }

// DropPending removes from a bound step the literal paths, descriptions and
// commands that wait for an earlier step's result, as a dry run does, and
// returns an INPUT_PENDING warning for each. A value waits when it holds
// "<pending: STEP.FIELD>" (what [template.Task.Bind] gives an input bound
// with from and not given a value); a command waits when it reads such an
// input as $NAME or ${NAME...}.
func DropPending(t *template.Task) []diag.Warning {
	var warns []diag.Warning
	var kept []template.FileSource
	var waiting []string
	for name, v := range t.Vars() {
		if strings.Contains(v, "<pending: ") {
			waiting = append(waiting, name)
		}
	}
	slices.Sort(waiting)
	for _, s := range t.Sources {
		if strings.Contains(s.Description, "<pending: ") {
			warns = append(warns, diag.Warning{Code: diag.InputPending,
				Message: fmt.Sprintf("description %q waits for an earlier step; left out", s.Description)})
			continue
		}
		if name, ok := readsAny(s.Command, waiting); ok {
			warns = append(warns, diag.Warning{Code: diag.InputPending,
				Message: fmt.Sprintf("command %q reads $%s, which waits for an earlier step; left out", s.Command, name)})
			continue
		}
		paths := s.Paths[:0:0]
		for _, p := range s.Paths {
			if strings.Contains(p.Value, "<pending: ") {
				warns = append(warns, diag.Warning{Code: diag.InputPending,
					Message: fmt.Sprintf("path %q waits for an earlier step; left out", p.Value)})
				continue
			}
			paths = append(paths, p)
		}
		if len(s.Paths) > 0 && len(paths) == 0 {
			continue
		}
		s.Paths = paths
		kept = append(kept, s)
	}
	t.Sources = kept
	return warns
}

// readsAny returns the first of names that command reads as a shell
// variable ($NAME or ${NAME...}). It looks at the text only, so a reference
// inside single quotes counts too; for a dry run that errs on the safe side.
func readsAny(command string, names []string) (string, bool) {
	for _, name := range names {
		for _, ref := range []string{"$" + name, "${" + name} {
			for i := 0; ; {
				j := strings.Index(command[i:], ref)
				if j < 0 {
					break
				}
				end := i + j + len(ref)
				if end == len(command) || !isNameByte(command[end]) {
					return name, true
				}
				i = end
			}
		}
	}
	return "", false
}

func isNameByte(c byte) bool {
	return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// interruptedError is the error of a step stopped by its run's context: it
// says why (the context's cause, e.g. "interrupt signal received") and
// matches both the cause and context.Canceled (or DeadlineExceeded).
type interruptedError struct{ err, cause error }

func interrupted(ctx context.Context) error {
	return &interruptedError{err: ctx.Err(), cause: context.Cause(ctx)}
}

func (e *interruptedError) Error() string { return "interrupted: " + e.cause.Error() }
func (e *interruptedError) Unwrap() []error {
	if e.cause == e.err {
		return []error{e.err}
	}
	return []error{e.err, e.cause}
}
