package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/spf13/pflag"

	"github.com/taskctl/taskctl/internal/diag"
	"github.com/taskctl/taskctl/memory"
	"github.com/taskctl/taskctl/project"
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

	workingDir  string
	argDir      string // what relative FILE arguments are relative to
	projectRoot string
	proj        *project.Project
	cfg         *settings
	ix          *memory.Index
	watched     bool // a watcher (index --watch) answered the index's refresh
	audit       *auditLog
	warnings    []diag.Warning
	meta        map[string]any
}

// warn records a warning. Every path in the output is absolute: a warning
// about an input that has no absolute form (a path with a backslash, a NUL
// or a control character, a Windows drive, one too long) has no path, and
// its message quotes the input (at most quotedMax bytes of it) unless it
// already does.
func (e *env) warn(w diag.Warning) {
	if w.Path != "" && !filepath.IsAbs(w.Path) {
		q := strconv.Quote(w.Path)
		if head := q[:min(len(q)-1, 40)]; !strings.Contains(w.Message, head) {
			if len(w.Path) > quotedMax {
				q = strconv.Quote(strings.ToValidUTF8(w.Path[:quotedMax], "") + "...")
			}
			w.Message = q + ": " + w.Message
		}
		w.Path = ""
	}
	e.warnings = append(e.warnings, w)
}

// linecol matches a message that starts with a position, "12:5: ".
var linecol = regexp.MustCompile(`^[0-9]+:[0-9]+: `)

// quotedMax bounds how much of an input a warning message quotes.
const quotedMax = 200

func (e *env) json() bool { return e.opts.output == "json" }

// setup resolves the working dir. A missing --cwd is a usage error.
func (e *env) setup() error {
	wd := e.opts.cwd
	if wd == "" {
		var err error
		if wd, err = os.Getwd(); err != nil {
			return fmt.Errorf("working dir: %w", err)
		}
	}
	abs, err := filepath.Abs(wd)
	if err != nil {
		return usageErr("--cwd %s: %v", wd, err)
	}
	st, err := os.Stat(abs)
	if err != nil {
		return usageErr("--cwd %s: no such directory", wd)
	}
	if !st.IsDir() {
		return usageErr("--cwd %s: not a directory", wd)
	}
	e.workingDir = abs
	e.argDir = abs
	if e.opts.projectDir != "" {
		// Like every path given on the command line, --project-dir is
		// relative to where taskctl was started, not to --cwd.
		p, err := filepath.Abs(e.opts.projectDir)
		if err != nil {
			return usageErr("--project-dir %s: %v", e.opts.projectDir, err)
		}
		st, err := os.Stat(p)
		if err != nil {
			return usageErr("--project-dir %s: no such directory", e.opts.projectDir)
		}
		if !st.IsDir() {
			return usageErr("--project-dir %s: not a directory", e.opts.projectDir)
		}
		e.opts.projectDir = p
		// Without --cwd, a working dir outside the given project would make
		// every relative path resolve outside it: work from the project dir.
		// FILE arguments stay relative to where taskctl was started, as the
		// user's shell (and its completion) sees them.
		if e.opts.cwd == "" && !within(e.workingDir, p) {
			e.workingDir = p
		}
	}
	return nil
}

// argPath makes a FILE argument absolute: relative to --cwd if given, else
// to the directory taskctl was started in.
func (e *env) argPath(p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	dir := e.argDir
	if dir == "" {
		dir = e.workingDir
	}
	return filepath.Join(dir, p)
}

// within reports whether dir lies in root (or is root), by path components
// after evaluating symlinks.
func within(dir, root string) bool {
	if d, err := filepath.EvalSymlinks(dir); err == nil {
		dir = d
	}
	if r, err := filepath.EvalSymlinks(root); err == nil {
		root = r
	}
	rel, err := filepath.Rel(root, dir)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, "../") && !filepath.IsAbs(rel)
}

// strictCheck fails under --strict when there are warnings (exit 3).
func (e *env) strictCheck() error {
	if e.opts.strict && len(e.warnings) > 0 {
		return &cliError{code: diag.StrictWarnings, exit: exitPartial,
			msg: fmt.Sprintf("%d warning(s) under --strict", len(e.warnings))}
	}
	return nil
}

// metaDirs returns the working dir and the project dir for the envelope's
// meta, absolute whenever they can be known: a command that fails before it
// opens the project (a usage error, an invalid template, a task not found)
// still reports the dir detection (or --project-dir) gives. Only a --cwd
// that does not exist leaves project_root empty.
func (e *env) metaDirs() (cwd, root string) {
	cwd = e.workingDir
	if cwd == "" {
		// setup failed or did not run.
		if e.opts.cwd != "" {
			cwd, _ = filepath.Abs(e.opts.cwd)
		} else {
			cwd, _ = os.Getwd()
		}
	}
	if e.projectRoot != "" || cwd == "" {
		return cwd, e.projectRoot
	}
	if pd := e.opts.projectDir; pd != "" {
		abs, err := filepath.Abs(pd)
		if err != nil {
			return cwd, ""
		}
		if real, err := filepath.EvalSymlinks(abs); err == nil {
			abs = real
		}
		return cwd, abs
	}
	var markers []string
	if e.cfg != nil {
		markers = e.cfg.Markers
	}
	if d, _, err := project.Detect(cwd, markers); err == nil {
		root = d
	}
	return cwd, root
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
	if err == nil {
		err = e.strictCheck()
	}
	var ce *cliError
	code := exitOK
	if err != nil {
		ce = classify(err)
		code = ce.exit
	}
	if e.json() {
		cwd, root := e.metaDirs()
		meta := map[string]any{
			"cwd":          cwd,
			"project_root": root,
			"duration_ms":  time.Since(e.start).Milliseconds(),
			"tool_version": toolVersion(),
		}
		for k, v := range e.meta {
			meta[k] = v
		}
		env := envelope{OK: err == nil, Data: data, Warnings: e.warnings, Meta: meta}
		if env.Warnings == nil {
			env.Warnings = []diag.Warning{}
		}
		if ce != nil {
			env.Data = nil
			env.Error = &errorBody{Code: ce.code, Message: ce.msg, Details: ce.details}
		}
		if encErr := writeJSON(e.stdout, env); encErr != nil {
			fmt.Fprintf(e.stderr, "taskctl: write json: %v\n", encErr)
			return exitError
		}
		return code
	}
	for _, w := range e.warnings {
		// One warning a line: a path holding a newline or another control
		// character is quoted, and further lines of a message (a command's
		// stderr) are indented under it.
		msg := strings.ReplaceAll(strings.TrimRight(w.Message, "\n"), "\n", "\n    ")
		if w.Path != "" {
			path := w.Path
			if strings.ContainsFunc(path, unicode.IsControl) {
				path = strconv.Quote(path)
			}
			sep := ": "
			if linecol.MatchString(msg) {
				// A template's warning at LINE:COL reads FILE:LINE:COL, as
				// its problems do (editors jump to it); it read
				// "FILE: LINE:COL".
				sep = ":"
			}
			fmt.Fprintf(e.stderr, "taskctl: warning: %s: %s%s%s\n", w.Code, path, sep, msg)
		} else {
			fmt.Fprintf(e.stderr, "taskctl: warning: %s: %s\n", w.Code, msg)
		}
	}
	if ce != nil && !ce.reported {
		fmt.Fprintf(e.stderr, "taskctl: %s\n", ce.msg)
		if ce.exit == exitUsage && ce.code == diag.ArgInvalid && e.cmd != nil {
			fmt.Fprintf(e.stderr, "usage: %s\n", e.cmd.usageLine())
		}
	}
	return code
}
