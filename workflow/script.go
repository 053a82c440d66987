package workflow

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/taskctl/taskctl/template"
)

// ErrScriptNotAllowed is wrapped by the error of a run whose template has a
// script step that the user did not allow (Options.AllowScripts): a
// template alone, which comes with the repository, never runs a process.
var ErrScriptNotAllowed = errors.New("script steps are not allowed")

// ScriptError is a script step the run refuses before anything starts: not
// allowed, or a command line that is not plain words.
type ScriptError struct {
	File    string
	Pos     template.Pos
	Command string
	Err     error
}

func (e *ScriptError) Error() string {
	msg := e.Err.Error()
	if errors.Is(e.Err, ErrScriptNotAllowed) {
		msg = fmt.Sprintf("the script %q would run a process that the template (a file of the project, not yours) names; allow it with --allow-scripts or run.allow_scripts in your own or a trusted config", e.Command)
	}
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Pos.Line, e.Pos.Col, msg)
}

func (e *ScriptError) Unwrap() error { return e.Err }

// Caps of what a script step keeps of its output.
const (
	scriptStdoutCap = 1 << 20
	scriptStderrCap = 256 << 10
)

// checkScripts splits the command line of every script step of the run
// and refuses the run when it has one and Options.AllowScripts is false.
func (r *runner) checkScripts() error {
	var err error
	var walk func(t *template.Task)
	walk = func(t *template.Task) {
		if err != nil {
			return
		}
		if t.Loop != nil && t.Loop.Script != nil {
			s := t.Loop.Script
			argv, serr := SplitCommand(s.Command)
			switch {
			case serr != nil:
				err = &ScriptError{File: t.File(), Pos: s.Pos, Command: s.Command, Err: serr}
			case !r.opt.AllowScripts && !r.dry:
				err = &ScriptError{File: t.File(), Pos: s.Pos, Command: s.Command, Err: ErrScriptNotAllowed}
			default:
				r.scripts[s] = argv
			}
		}
		for _, c := range t.Steps {
			walk(c)
		}
	}
	walk(r.root)
	return err
}

// script runs the script step res of a loop: the command in the project
// dir, confined as the executor is, with no stdin; its stdout (the step's
// output) and stderr kept up to their caps. Its exit status, whatever it
// is, and a timeout are what the evaluator reads; only a script that
// cannot be started fails the step.
func (r *runner) script(ctx context.Context, res *StepResult, spec *template.ScriptSpec) error {
	started := time.Now().UTC()
	res.Started = &started
	res.Command = r.scripts[spec]
	if r.dry {
		r.finish(res)
		return nil
	}
	res.Status = StepRunning
	if r.reuse(res) {
		return r.save()
	}
	if err := r.save(); err != nil {
		return err
	}
	limit := r.opt.StepTimeout
	if spec.Timeout > 0 {
		limit = time.Duration(spec.Timeout) * time.Second
	}
	sctx, cancel := ctx, context.CancelFunc(func() {})
	if limit > 0 {
		sctx, cancel = context.WithTimeout(ctx, limit)
	}
	defer cancel()

	stdout, stderr := &capped{max: scriptStdoutCap}, &capped{max: scriptStderrCap}
	err := r.startScript(sctx, res, stdout, stderr)
	var ee *exec.ExitError
	switch {
	case ctx.Err() != nil:
		_, ferr := r.fail(ctx, res, StepInterrupted, interrupted(ctx))
		return ferr
	case err != nil && !errors.As(err, &ee) && sctx.Err() == nil:
		_, ferr := r.fail(ctx, res, StepFailed, fmt.Errorf("the script could not run: %w", err))
		return ferr
	}
	res.Output, res.Stderr = stdout.String(), stderr.String()
	res.Truncated = stdout.over || stderr.over
	res.Status = StepOK
	if sctx.Err() != nil {
		res.Status, res.Error = StepTimeout, fmt.Sprintf("the script ran out of time after %s", limit)
	}
	res.OutputFile = res.fileBase() + ".output.txt"
	if err := r.st.write(res.OutputFile, res.Output); err != nil {
		res.OutputFile = ""
		_, ferr := r.fail(ctx, res, StepFailed, fmt.Errorf("write the output: %w", err))
		return ferr
	}
	r.finish(res)
	return r.save()
}

// startScript runs the script's process to its end.
func (r *runner) startScript(ctx context.Context, res *StepResult, stdout, stderr *capped) error {
	argv := res.Command
	name := argv[0]
	if strings.Contains(name, "/") && !filepath.IsAbs(name) {
		name = filepath.Join(r.opt.ProjectDir, name)
	}
	path, err := exec.LookPath(name)
	if err != nil {
		return err
	}
	cmd := exec.CommandContext(ctx, path, argv[1:]...)
	cmd.Args[0] = argv[0]
	if r.plan != nil {
		confine(cmd, r.plan, r.opt.SandboxHelper)
	}
	supervised := supervise(cmd, r.opt.Supervisor)
	cmd.Dir = r.opt.ProjectDir
	cmd.Env = append(r.env(res), "TASKCTL_ITERATION="+strconv.Itoa(res.Iteration))
	cmd.Stdout, cmd.Stderr = stdout, stderr
	setGroup(cmd, supervised)
	cmd.Cancel = func() error { return signalGroup(cmd, sigTerm) }
	cmd.WaitDelay = killGrace
	err = runLocked(cmd)
	_ = signalGroup(cmd, sigKill)
	if cmd.ProcessState != nil {
		if code := cmd.ProcessState.ExitCode(); code >= 0 {
			res.ExitCode = &code
		}
	}
	return err
}

// env is the environment of a process a step runs: the user's (or
// Options.Env) and the TASKCTL_ variables.
func (r *runner) env(step *StepResult) []string {
	env := r.opt.Env
	if env == nil {
		env = os.Environ()
	}
	env = append(append([]string(nil), env...),
		"TASKCTL_RUN_ID="+r.rec.ID,
		"TASKCTL_RUN_DIR="+r.rec.Dir,
		"TASKCTL_PROJECT_DIR="+r.opt.ProjectDir,
		"TASKCTL_TASK="+r.rec.Task,
		"TASKCTL_STEP="+step.label(),
	)
	return append(env, r.sandboxEnv()...)
}

// scriptVars are the evaluator's inputs that say what the script did.
func scriptVars(s *StepResult, dry bool) map[string]string {
	v := map[string]string{"script_command": strings.Join(s.Command, " ")}
	switch {
	case dry:
		v["script_exit_status"] = pending(s.label() + ".exit_status")
		v["script_stdout"] = pending(s.label() + ".output")
		v["script_stderr"] = pending(s.label() + ".stderr")
		return v
	case s.Status == StepTimeout:
		v["script_exit_status"] = "timeout"
	case s.ExitCode != nil:
		v["script_exit_status"] = strconv.Itoa(*s.ExitCode)
	}
	note := ""
	if s.Truncated {
		note = "\n[taskctl: cut at the cap]"
	}
	v["script_stdout"] = s.Output + note
	v["script_stderr"] = s.Stderr + note
	return v
}

// capped keeps the first max bytes written to it and takes the rest
// without keeping it, so that a process printing more is not stopped by a
// failed write.
type capped struct {
	b    strings.Builder
	max  int
	over bool
}

func (c *capped) Write(p []byte) (int, error) {
	room := c.max - c.b.Len()
	if len(p) > room {
		c.over = true
		c.b.Write(p[:max(room, 0)])
		return len(p), nil
	}
	c.b.Write(p)
	return len(p), nil
}

func (c *capped) String() string { return strings.ToValidUTF8(c.b.String(), "\uFFFD") }
