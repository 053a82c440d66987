package workflow

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/taskctl/taskctl/internal/diag"
	"github.com/taskctl/taskctl/internal/sandbox"
	"github.com/taskctl/taskctl/template"
)

// MaxDepth is how deeply tasks may nest: the top-level task is at depth 1,
// its steps at 2, and so on (template.MaxDepth).
const MaxDepth = template.MaxDepth

// Run statuses.
const (
	RunRunning     = "running"
	RunOK          = "ok"
	RunFailed      = "failed"
	RunInterrupted = "interrupted"
	RunPlanned     = "planned" // a dry run
)

// Step statuses.
const (
	StepPending     = "pending"
	StepRunning     = "running"
	StepOK          = "ok"
	StepFailed      = "failed"
	StepTimeout     = "timeout"
	StepInterrupted = "interrupted"
	StepSkipped     = "skipped"
	StepPlanned     = "planned" // a dry run
)

// ErrTimeout is wrapped by the error of a step that ran out of time.
var ErrTimeout = errors.New("step timed out")

// ErrStrict is wrapped by the error of a step that Options.Strict stopped
// before its executor ran: its context (or its workflow's) gave warnings.
var ErrStrict = errors.New("warnings under strict")

// ErrNoExecutor is wrapped by the error of a run whose executor program
// cannot be found or run: nothing was started and no record was written.
var ErrNoExecutor = errors.New("executor not found")

// Assembled is the context of one task.
type Assembled struct {
	Files    []string // absolute paths, in document order
	Document string   // the rendered context document
	Warnings []diag.Warning
	Data     any // opaque to workflow, e.g. the document for JSON output
}

// AssembleFunc assembles the context of step, which is already bound. inherit
// is the step's inherit mode; parentFiles are the files of the enclosing
// sequential task's context (nil when inherit is "none"). The error stops the
// run; problems with single files belong in Warnings. An EMPTY_CONTEXT
// warning is dropped for a step whose prompt holds earlier steps' results:
// its context is not empty. (taskctl's own assembler gives none: the
// template check warns of an empty context once, at its line:col.)
type AssembleFunc func(ctx context.Context, step *template.Task, inherit template.InheritMode, parentFiles []string) (*Assembled, error)

// Options configures a run.
type Options struct {
	// Assemble is required.
	Assemble AssembleFunc
	// Executor is the command and its arguments (see SplitCommand); nil
	// makes the run a dry run.
	Executor []string
	// StepTimeout bounds each executor run (0: no limit).
	StepTimeout time.Duration
	// MaxOutput caps the bytes of an executor's stdout a step takes (0:
	// 64 MiB). A step whose executor prints more fails; its output is the
	// first MaxOutput bytes. LoadRun reads no output file larger than
	// 64 MiB, so a record of a run with a larger MaxOutput whose step took
	// more does not read back.
	MaxOutput int64
	// RunsDir is <project>/.taskctl/runs; it must exist unless the run is a
	// dry run. Run creates one directory in it per run and writes nothing
	// else anywhere.
	RunsDir string
	// ProjectDir is the executor's working directory.
	ProjectDir string
	// WorkDir is the directory a relative executor path (one with a slash,
	// like scripts/llm.sh) is resolved against (default: this process's
	// working directory). A bare name is looked up in PATH.
	WorkDir string
	// Stderr receives the executor's stderr (nil: discarded, though its end
	// is kept for the step's error).
	Stderr io.Writer
	// Vars are the --var values: an input of any task that Vars names
	// takes its value, unless the input is bound with from.
	Vars map[string]string
	// DryRun plans without executing anything or writing a record.
	DryRun bool
	// Env is the executor's environment before the TASKCTL_ variables are
	// added (nil: this process's environment).
	Env []string
	// Supervisor, on Linux, is a command line that runs the command line
	// after it as [Supervise] does (taskctl's is itself with the argument
	// "__supervise"): with it, the executor and everything it started go
	// when this process dies without stopping them. Without it only the
	// executor itself does.
	Supervisor []string
	// Strict makes a warning fatal before anything is executed: a step
	// whose context (or the workflow's own, or the run's sandbox) gave a
	// warning fails with ErrStrict, its warnings in the record, and its
	// executor is not run.
	Strict bool

	// Sandbox is how each executor is confined (see package sandbox):
	// sandbox.Off, sandbox.ReadOnlyProject or sandbox.Strict; "" is the
	// default, read-only-project where it can be applied and otherwise
	// off with a SANDBOX_UNAVAILABLE warning. A mode asked for by name
	// that cannot be applied stops the run before it starts, with an
	// error wrapping sandbox.ErrUnavailable.
	Sandbox sandbox.Mode
	// SandboxHelper is the command line that confines the command line
	// after it (sandbox.Plan.Command): taskctl's is itself, by absolute
	// path, with the argument sandbox.HelperArg. Without it nothing can
	// be confined.
	SandboxHelper []string
	// Workspace is the directory executors may write in besides the
	// run's directory (<project>/.taskctl/workspace for taskctl), passed
	// to them as TASKCTL_WORKSPACE and created if missing ("": none).
	Workspace string
	// WriteRoots are further directories a confined executor may write
	// in (absolute real paths, none holding the project).
	WriteRoots []string

	// AllowScripts lets the script steps of director_evaluator_loops run.
	// A template comes with the repository: without this, set only from
	// what the user says (a flag, the user's or a trusted config), a run
	// whose template has a script step does not start (a *ScriptError
	// wrapping ErrScriptNotAllowed).
	AllowScripts bool
	// Resume is the record of an earlier run of the same task: the new
	// run reuses the output of each step, from the first on, whose prompt
	// (and so its context and inputs) is the same as the one recorded
	// there and that finished; from the first step that differs or did
	// not finish, every step runs. Runs of a reduce's inner task are
	// reused each on its own.
	Resume *Record
	// Tokens counts the tokens of a text for a reduction task's budget
	// (nil: a byte count divided by four, rounded up).
	Tokens func(string) int
}

// InputError is a required input that nothing sets (no --var, no default,
// no from, no input of that name around the task). Run returns it, with the
// input's file:line:col, before anything starts.
type InputError = template.InputError

// PendingError is an input bound from a step that does not finish before
// its task starts (a step run on its own, whose input nothing gives). Run
// returns it before anything starts.
type PendingError struct {
	Task, Input string
	From        string // STEP.OUTPUT
	Step        string
}

func (e *PendingError) Error() string {
	return fmt.Sprintf("task %s: input %s: from=%q: no step named %q finishes before this task starts (a step run on its own takes such an input's value from --var %s=VALUE)",
		e.Task, e.Input, e.From, e.Step, e.Input)
}

// StepError is the error of a run that did not finish: a step failed, timed
// out or was interrupted. Run holds every step's result so far.
type StepError struct {
	Step string // the step's name, or "#N" for an unnamed step
	Run  *Record
	Err  error
}

func (e *StepError) Error() string { return fmt.Sprintf("step %s: %v", e.Step, e.Err) }
func (e *StepError) Unwrap() error { return e.Err }

// Run runs root, a sequential task (an atomic task runs as a one-step
// workflow), and returns its record. The record is returned with a nil error
// when every step succeeded, with a *StepError when a step failed, timed out
// or was interrupted (errors.Is(err, ErrTimeout) for a timeout,
// context.Canceled for an interruption), and is nil when the run could not
// start: an invalid plan (see Check), a missing required input (an
// *InputError), an executor that is not found (wrapping exec.ErrNotFound), or
// a RunsDir that cannot hold the record. A dry run returns a record with
// status "planned" and writes nothing.
func Run(ctx context.Context, root *template.Task, opt Options) (*Record, error) {
	if root == nil {
		return nil, errors.New("workflow: no task")
	}
	if opt.Assemble == nil {
		return nil, errors.New("workflow: no assembler")
	}
	if err := check(root, opt.Vars); err != nil {
		return nil, err
	}
	r := newRunner(root, opt)
	return r.run(ctx)
}
