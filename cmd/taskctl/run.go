package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"

	"github.com/spf13/pflag"

	"github.com/taskctl/taskctl/engine"
)

func runCmd() *command {
	return &command{
		name:  "run",
		usage: "FILE|TASKNAME [--task NAME] [--executor CMD] [--var K=V]... [--dry-run] [--allow-scripts] | --resume RUN_ID",
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
STEP_FAILED and the results so far in error.details.

A director_evaluator_loop runs its director, its script (only with
--allow-scripts or run.allow_scripts in your own or a trusted config) and its
evaluator until a verdict says success: LOOP_NOT_CONVERGED (exit 1) after
max_iterations, LOOP_TIME_BUDGET (exit 10) when its time budget runs out.
--resume RUN_ID runs the same task again, reusing each finished step whose
prompt is unchanged, from the first; taskctl runs show RUN_ID shows a run.`,
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
			fs.BoolVar(&o.allowScripts, "allow-scripts", false, "let a loop's script step run the process its template names (config run.allow_scripts)")
			fs.StringVar(&o.resume, "resume", "", "resume run `RUN_ID` (or latest): reuse the outputs of its finished steps whose prompts are unchanged, run the rest")
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
	if len(args) > 1 || len(args) == 0 && e.opts.resume == "" {
		return nil, usageErr("run needs exactly one FILE or TASKNAME (with --resume, at most one)")
	}
	if e.opts.resume != "" && e.opts.dryRun {
		return nil, usageErr("--resume and --dry-run do not go together")
	}
	tmpl := ""
	if len(args) == 1 {
		tmpl = args[0]
	}
	res, err := e.eng.Run(ctx, engine.RunRequest{Template: tmpl, Task: e.opts.task, Vars: e.opts.vars,
		DryRun: e.opts.dryRun, Style: e.opts.style, Strict: e.opts.strict, Hashes: e.json(),
		Stderr: e.stderr, Supervisor: self(superviseCmd), SandboxHelper: self(engine.SandboxHelperArg),
		Resume: e.opts.resume})
	if err != nil {
		var ee *engine.Error
		if errors.As(err, &ee) {
			if rr, ok := ee.Details.(*engine.RunResult); ok {
				if !e.json() {
					engine.WriteRunSummary(e.stderr, rr.Record)
				}
				ee.Details = runData(rr.Record, false)
			}
		}
		return nil, err
	}
	rec := res.Record
	e.warn(res.Warnings)
	if err := e.strictCheck(); err != nil {
		return nil, err
	}
	if !e.json() {
		if res.DryRun {
			if err := engine.WriteRunPlan(e.stdout, rec); err != nil {
				return nil, err
			}
		} else {
			engine.WriteRunSummary(e.stderr, rec)
			if last := lastTopStep(rec); last != nil {
				// (io.WriteString: fmt.Fprint copied the output into
				// its buffer first)
				out := last.Output
				io.WriteString(e.stdout, out)
				if out != "" && out[len(out)-1] != '\n' {
					fmt.Fprintln(e.stdout)
				}
			}
		}
	}
	return runData(rec, res.DryRun), nil
}

// lastTopStep is the run's last step at the top level, whose output is
// the run's (a nested sequential task's, a loop's and a reduce's output is
// that of the last step they ran); nil if there is none.
func lastTopStep(rec *engine.Record) *engine.StepResult {
	for i := len(rec.Steps) - 1; i >= 0; i-- {
		if rec.Steps[i].Depth <= 1 {
			return rec.Steps[i]
		}
	}
	return nil
}

// runStep is a step in the json envelope: the record's fields, its output
// as a jsonText (up to 64 MiB), and in a dry run, for an atomic step, the
// prompt it would be sent (a dry run writes no record, so the prompt has
// no file to point at).
type runStep struct {
	*engine.StepResult
	Output jsonText `json:"output"`
	Prompt string   `json:"prompt,omitempty"`
}

// runData is the envelope's data (or error.details) for run --output json.
func runData(rec *engine.Record, dry bool) any {
	steps := make([]runStep, len(rec.Steps))
	for i, s := range rec.Steps {
		steps[i] = runStep{StepResult: s, Output: jsonText(s.Output)}
		if dry {
			steps[i].Prompt = s.Prompt
		}
	}
	return struct {
		*engine.Record
		Steps []runStep `json:"steps"`
	}{rec, steps}
}

// superviseCmd is the hidden first argument that makes taskctl the
// supervisor of one executor (workflow.Supervise).
const superviseCmd = "__supervise"

// self is the command line that runs this program, as it was started (so
// that a copy run under another name still finds itself), with arg, a
// hidden first argument (superviseCmd, engine.SandboxHelperArg); nil if it
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
