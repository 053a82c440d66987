// Package workflow runs sequential tasks, director_evaluator_loops and
// reduces: it binds each step's inputs to the
// results of earlier steps, asks an injected assembler for the step's context,
// renders the step's prompt, hands the prompt to an executor (any program the
// user names), and records the run.
//
// # Steps and results
//
// A sequential task's steps run in order, depth first; a nested sequential
// task runs all of its own steps before its next sibling starts. The first
// step that fails stops the run; the steps before it keep their results and
// the steps after it are marked skipped. Every step has a result: the
// executor's stdout (Output), the files its context held (Files, absolute
// paths), and, when the step declares <output_format type="json"/>, the JSON
// it printed (Parsed) and that object's "notes" key (Notes). Such a step
// fails unless its output is JSON, either whole or in its last ``` fenced
// block, of the type output_format's schema names (object, array, string[],
// string, number, boolean); a step that declares no output format gets Parsed
// and Notes only when its whole output is a JSON object, and one that
// declares type="text" never. A nested sequential task's result is its last
// step's output, notes and parsed JSON, with the files of its own context
// (see below).
//
// # Bindings
//
// An input with from="STEP.output" (or STEP.files, STEP.notes, STEP.notes.KEY,
// STEP.parsed, STEP.parsed.a.b; a numeric segment indexes an array) takes its
// value from the result of STEP, which must have finished before the binding
// step starts. Values are text: output without its trailing newlines, files
// as absolute paths one per line (so that <path>{{found}}</path> lists them),
// JSON strings as they are, numbers and booleans as written, null as "", an
// array of scalars one element per line, anything else as indented JSON. A
// step also sees the --var values and the bound inputs of the sequential
// tasks that enclose it.
//
// # Context
//
// "The parent's files" of a step are the files of its enclosing sequential
// task's own context, assembled once, when that task starts, with that task's
// own inherit mode, from that task's parent's files. For the top-level task
// this is its own file_paths (and fresh matches); for a nested sequential task
// it is the share of its parent's files its inherit_context lets through plus
// its own file_paths. That set is what the nested task passes down to its
// steps. The assembler receives the step (already bound), the step's inherit
// mode and the parent's files (nil when the mode is "none") and decides what
// to include; workflow does not read files.
//
// Earlier results reach a prompt as a previous_outputs section when the step
// accumulates: when its enclosing sequential task has accumulate_data=true
// (the default for sequential tasks), in that task's accumulation_format, or
// when the step itself sets accumulate_data=true, in the step's own format.
// The history a step sees is the history its enclosing task saw plus that
// task's steps that finished before it; a finished nested sequential task is
// one entry.
//
// # Loops and reduces
//
// A director_evaluator_loop runs, in each iteration, its director, its
// script (a process; see Options.AllowScripts) and its evaluator, whose
// output must be a verdict, a JSON object {"success": bool, "feedback":
// string}. The director's prompt carries the inputs iteration,
// max_iterations and feedback (the last verdict's), the evaluator's
// iteration, director_output and the script's exit status, stdout and
// stderr (capped at 1 MiB and 256 KiB). The loop stops on success (its
// result is its last director's), after max_iterations (ErrNotConverged),
// on a failed step (an evaluator without a verdict: ErrVerdict), or when
// its time budget runs out (ErrTimeBudget). Each run of a director, script
// or evaluator is a step of the record, added as it starts after the steps
// the loop already holds, labelled NAME@ITERATION.
//
// A reduce runs its inner task once per item of a list (the files of its
// own context, the lines of an earlier result, an input's values) with at
// most parallelism executors at once: that many workers share the record
// under one lock, released only while an executor runs. Its reduction
// task's prompt holds a <results> section with every item's result within
// a token budget; a result that does not fit is summarised to its notes or
// dropped, and named (REDUCE_RESULT_SUMMARISED, REDUCE_RESULT_DROPPED).
// Item runs are labelled NAME[N].
//
// # Resume
//
// With Options.Resume, a run reuses the recorded output of each step, from
// the first, that finished in that run with the same prompt (its sha256,
// which covers the inputs, the earlier results and the context document)
// and context; from the first step that differs, everything runs. The
// runs of a reduce's inner task are matched each on its own.
//
// # Executor
//
// The executor is the user's own program. workflow gives it the prompt on
// stdin, takes its stdout (writing it to the step's output file as it
// comes; a step whose executor prints more than Options.MaxOutput, 64 MiB
// by default, fails and keeps the first MaxOutput bytes), streams its
// stderr to Options.Stderr, runs it in the project directory with the
// user's environment plus TASKCTL_RUN_ID, TASKCTL_RUN_DIR,
// TASKCTL_PROJECT_DIR, TASKCTL_TASK, TASKCTL_STEP, TASKCTL_SANDBOX (the
// mode in force) and, with Options.Workspace, TASKCTL_WORKSPACE, and puts
// it in a process group of its own. When the step's time limit passes or
// the run is cancelled, the group gets SIGTERM and, after a grace period,
// SIGKILL; when the executor exits, anything left in its group is killed.
//
// # Sandbox
//
// Each executor runs confined by Landlock (package sandbox), through the
// helper Options.SandboxHelper names, in Options.Sandbox's mode: by
// default read-only-project, where it reads what the user can read but
// writes only in the run's directory, the workspace, Options.WriteRoots,
// the system's temporary directory (unless it holds the project: then
// TMPDIR is <run dir>/tmp) and /dev/null and a few other devices; strict
// also denies TCP (and on newer kernels UDP and UNIX sockets) and leaves
// only <run dir>/tmp as TMPDIR; off confines nothing. The mode in force is
// the record's sandbox field. When the default mode cannot be applied (a
// kernel without Landlock, no helper) the executors run unconfined and
// the record has a SANDBOX_UNAVAILABLE warning; a mode asked for by name
// that cannot be applied, a writable directory reached through a symbolic
// link or holding the project, stop the run before it starts. The
// workspace is created when missing, never through a symbolic link.
// Without an executor, or with Options.DryRun, nothing is executed: the run
// is a plan in which every step's context is assembled and every binding to
// an earlier result shows as "<pending: STEP.FIELD>"; a file source that
// needs such a value (a literal path or a description holding one, a command
// reading one as a shell variable) is left out with an INPUT_PENDING warning.
//
// # Records
//
// A run that executes is recorded under Options.RunsDir/<id>/: run.json and,
// per step, NN-STEP.prompt.txt and NN-STEP.output.txt. run.json names a
// step's output file (output_file; a sequential task's is its last step's)
// instead of holding the output, which [LoadRun] reads from there, and
// says parsed_from_output instead of holding the JSON that output parsed
// to, which LoadRun parses again; a run.json of version 1 (which held the
// output) or 2 (the parsed JSON) still reads back. run.json is written
// before the first step (status "running", with the pid) and after every
// step, each time to a temporary file in the same directory that is then
// renamed over the old one, so a reader sees a whole record or none. A run
// whose process died reads back as "interrupted" ([LoadRun]), and the next
// run in the same RunsDir rewrites its run.json to say so (in the version
// it was written in) and removes the temporary output files it left; a run
// whose context is cancelled (SIGINT, SIGTERM) ends as "interrupted".
// RunsDir and each run's directory are state.Dirs: RunsDir must be
// a real path (a symbolic link on it, such as .taskctl/runs committed as a
// link out of a cloned repository, is refused with STATE_UNSAFE), and
// every file is created, replaced and read relative to its directory
// without following a symbolic link, so nothing is written outside
// RunsDir. A dry run writes nothing.
// run.json holds the executor's command line, the --var values and the bound
// inputs of every step, in clear text; run directories are created 0700 and
// their files 0600.
package workflow
