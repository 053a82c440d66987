package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/taskctl/taskctl/engine"
	"github.com/taskctl/taskctl/internal/diag"
)

// env is one invocation's environment: streams, flags, the warnings gathered
// so far and what the envelope's meta reports.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	getenv         func(string) string
	start          time.Time
	opts           opts
	cmd            *command
	flags          *pflag.FlagSet

	eng *engine.Engine // nil until the command's flags are parsed
	// said are the warnings of the engine's results so far (a failure's
	// come with its error).
	said []diag.Warning
	meta map[string]any
	// trailer is printed on stderr after the warnings of a command that
	// succeeded (assemble's pack summary): the last thing a person reads.
	trailer string
}

// warnings returns the warnings so far: what reading the config files
// said, then what the command's operations said.
func (e *env) warnings() []diag.Warning {
	if e.eng == nil {
		return nil
	}
	return append(slices.Clip(e.eng.ConfigWarnings()), e.said...)
}

// warn records the warnings of an engine operation's result.
func (e *env) warn(ws []diag.Warning) { e.said = append(e.said, ws...) }

func (e *env) json() bool { return e.opts.output == "json" }

// setup opens the engine: the working dir and the project dir, with the
// flags that override settings. A missing --cwd is a usage error.
func (e *env) setup(ctx context.Context) error {
	o := &e.opts
	// A flag given on the command line overrides the files; the engine
	// knows which setting each typed field is.
	var ov engine.Overrides
	changed := func(flag string) bool {
		return e.flags != nil && e.flags.Lookup(flag) != nil && e.flags.Changed(flag)
	}
	given(&ov.MaxFiles, o.maxFiles, changed("max-files"))
	given(&ov.Style, o.style, changed("style"))
	given(&ov.Tokenizer, o.tokenizer, changed("tokenizer"))
	given(&ov.MaxTokens, o.maxTokens, changed("max-tokens"))
	given(&ov.MaxFileBytes, o.maxFileBytes, changed("max-file-bytes"))
	given(&ov.RedactSecrets, o.redactSecrets, changed("redact-secrets"))
	given(&ov.Executor, o.executor, changed("executor"))
	given(&ov.StepTimeout, o.timeout, changed("timeout"))
	given(&ov.Sandbox, o.sandbox, changed("sandbox"))
	given(&ov.Workspace, o.workspace, changed("workspace"))
	given(&ov.AllowScripts, o.allowScripts, changed("allow-scripts"))
	name := ""
	if e.cmd != nil {
		name = e.cmd.name
	}
	eng, err := engine.Open(ctx, engine.Options{Cwd: o.cwd, ProjectDir: o.projectDir, ConfigFile: o.config,
		Overrides: ov, Getenv: e.getenv, Command: name, Progress: e.progress(), Spell: flagOf})
	if err != nil {
		return err
	}
	e.eng = eng
	return nil
}

// cliFlags are how the CLI names the fields of a request and the settings
// the engine's messages name (engine.Field): by the flags that set them.
var cliFlags = map[engine.Field]string{
	engine.FieldVar:           "--var",
	engine.FieldTask:          "--task",
	engine.FieldRun:           "--run",
	engine.FieldResume:        "--resume",
	engine.FieldLimit:         "--limit",
	engine.FieldMinScore:      "--min-score",
	engine.FieldStrict:        "--strict",
	engine.FieldHere:          "--here",
	engine.FieldCwd:           "--cwd",
	engine.FieldProjectDir:    "--project-dir",
	engine.FieldConfig:        "--config",
	engine.FieldSources:       "--path GLOB, --command CMD, --describe TEXT, or paths on stdin (-)",
	engine.FieldWatch:         "index --watch",
	engine.FieldDescribe:      "--describe",
	engine.FieldExclude:       "--exclude and --path '!GLOB'",
	engine.FieldTokenizer:     "--tokenizer",
	engine.FieldRedactSecrets: "--redact-secrets",
	engine.FieldExecutor:      "--executor",
	engine.FieldSandbox:       "--sandbox",
	engine.FieldAllowScripts:  "--allow-scripts",
}

// flagOf is the CLI's spelling of an engine field (engine.Options.Spell).
func flagOf(f engine.Field) string { return cliFlags[f] }

// given sets *field to v when the flag was given.
func given[T any](field **T, v T, ok bool) {
	if ok {
		*field = &v
	}
}

// strictCheck fails under --strict when there are warnings (exit 3).
func (e *env) strictCheck() error {
	if e.eng == nil {
		return nil
	}
	return e.eng.StrictCheck(e.opts.strict, e.warnings())
}

// metaDirs returns the working dir and the project dir for the envelope's
// meta, absolute whenever they can be known: a command that fails before it
// opens the project (a usage error, an invalid template, a task not found)
// still reports the dir detection (or --project-dir) gives. Only a --cwd
// that does not exist leaves project_root empty.
func (e *env) metaDirs() (cwd, root string) {
	if e.eng != nil {
		return e.eng.Dirs()
	}
	return engine.GuessDirs(e.opts.cwd, e.opts.projectDir)
}

type envelope struct {
	OK       bool           `json:"ok"`
	Data     any            `json:"data"`
	Error    *errorBody     `json:"error"`
	Warnings []diag.Warning `json:"warnings"`
	Meta     any            `json:"meta"`
}

type errorBody struct {
	Code    diag.Code `json:"code"`
	Message string    `json:"message"`
	Details any       `json:"details,omitempty"`
}

// finish prints the outcome and returns the exit code. In json mode it prints
// exactly one envelope on stdout; in text mode warnings and the error go to
// stderr.
func (e *env) finish(data any, err error) int {
	e.warn(engine.WarningsOf(err))
	if err == nil {
		err = e.strictCheck()
	}
	var ce *engine.Error
	code := exitOK
	if err != nil {
		ce = engine.Classify(err)
		code = exitCode(ce.Class)
		if ce.Arg != "" && strings.HasPrefix(ce.Message, ce.Arg+" ") {
			// The CLI names a request field by its flag.
			named := *ce
			named.Message = "--" + ce.Message
			ce = &named
		}
	}
	warnings := e.warnings()
	if e.json() {
		cwd, root := e.metaDirs()
		meta := map[string]any{
			"cwd":          cwd,
			"project_root": root,
			"duration_ms":  time.Since(e.start).Milliseconds(),
			"tool_version": engine.Version(),
		}
		if e.eng != nil {
			for k, v := range e.eng.Meta() {
				meta[k] = v
			}
		}
		for k, v := range e.meta {
			meta[k] = v
		}
		env := envelope{OK: err == nil, Data: data, Warnings: warnings, Meta: meta}
		if env.Warnings == nil {
			env.Warnings = []diag.Warning{}
		}
		if ce != nil {
			if !errors.As(err, new(*dataKept)) {
				env.Data = nil
			}
			env.Error = &errorBody{Code: ce.Code, Message: ce.Message, Details: ce.Details}
			if ce.Problems != nil {
				env.Error.Details = ce.Problems
			}
		}
		if encErr := writeJSON(e.stdout, env); encErr != nil {
			fmt.Fprintf(e.stderr, "taskctl: write json: %v\n", encErr)
			return exitError
		}
		return code
	}
	printed := errors.As(err, new(*printedError))
	if ce != nil && ce.Problems != nil && !printed {
		writeProblems(e.stderr, ce.Problems)
	}
	for _, w := range warnings {
		fmt.Fprintf(e.stderr, "taskctl: warning: %s\n", w) // one a line: diag.Warning.String
	}
	if ce == nil && e.trailer != "" {
		fmt.Fprintln(e.stderr, e.trailer)
	}
	if ce != nil && ce.Problems == nil && !printed {
		fmt.Fprintf(e.stderr, "taskctl: %s\n", ce.Message)
		if ce.Class == engine.ClassUsage && ce.Code == diag.ArgInvalid && e.cmd != nil {
			fmt.Fprintf(e.stderr, "usage: %s\n", e.cmd.usageLine())
		}
	}
	return code
}

// writeProblems prints problems as FILE:LINE:COL: message, one a line.
func writeProblems(w io.Writer, probs []diag.Problem) {
	for _, p := range probs {
		if p.Line > 0 {
			fmt.Fprintf(w, "%s:%d:%d: %s\n", p.File, p.Line, p.Col, p.Message)
		} else {
			fmt.Fprintf(w, "%s: %s\n", p.File, p.Message)
		}
	}
}

// dataKept is an error whose command's data stays in the json envelope:
// validate's files[{path, valid, problems}] say which file failed, which is
// the whole point of validating several.
type dataKept struct{ err error }

func (d *dataKept) Error() string { return d.err.Error() }
func (d *dataKept) Unwrap() error { return d.err }

// printedError is an error whose problems a command printed as it went
// (validate, file by file): finish prints neither them nor the message.
type printedError struct{ err error }

func (p *printedError) Error() string { return p.err.Error() }
func (p *printedError) Unwrap() error { return p.err }
