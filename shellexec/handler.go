package shellexec

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"mvdan.cc/sh/v3/interp"
	"mvdan.cc/sh/v3/syntax"
)

// builtins the interpreter may run itself. Everything else that is a
// builtin is denied; echo, printf and pwd are routed to our own
// implementations so their output is capped like any command's.
var allowedBuiltins = map[string]bool{
	":": true, "true": true, "false": true, "test": true, "[": true,
	"cd": true, "exit": true, "break": true, "continue": true, "shift": true, "set": true,
	// read runs only as the condition of a while loop, which the vetter
	// checks (vet.go, whileRead).
	"read": true,
}

var routedBuiltins = map[string]bool{"echo": true, "printf": true, "pwd": true}

// routePrefix marks a routed builtin's name so the interpreter sees a
// non-builtin and calls the exec handler. It cannot be typed in a script
// (names with NUL bytes are refused by the vetter).
const routePrefix = "\x00"

// checkName decides whether a command name is allowed, given the literal
// arguments that follow it (used for early, positioned denials).
func checkName(name string, args []string) *DeniedError {
	if allowedBuiltins[name] || routedBuiltins[name] {
		if name == "set" {
			for _, a := range args {
				if a == "xtrace" || a == "verbose" || strings.HasPrefix(a, "-") && strings.ContainsAny(a, "xv") {
					// A trace quotes every expanded word, file content
					// included, on stderr, which warnings quote.
					return &DeniedError{Construct: "set " + a, Msg: "tracing would print what commands read"}
				}
				if !strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "+") && a != "pipefail" && a != "errexit" && a != "nounset" && a != "noglob" {
					return &DeniedError{Construct: "set " + a, Msg: "only option flags"}
				}
			}
			if len(args) == 0 {
				return &DeniedError{Construct: "set without options", Msg: ""}
			}
		}
		return nil
	}
	if _, ok := lookupCommand(name); ok {
		return nil
	}
	if interp.IsBuiltin(name) || name == "." {
		return &DeniedError{Construct: "builtin " + name, Msg: builtinWhy(name)}
	}
	if strings.Contains(name, "/") {
		return &DeniedError{Construct: "command " + name, Msg: "commands run in-process; paths to programs are never executed"}
	}
	return &DeniedError{Construct: "command " + name, Msg: "not in the read-only command set (" + commandList() + ")"}
}

func builtinWhy(name string) string {
	switch name {
	case "eval", "source", ".", "exec", "command", "builtin", "trap":
		return "it would run code the vetter has not seen"
	case "bg", "fg", "jobs", "wait", "disown", "kill", "coproc":
		return "no job control"
	case "read", "mapfile", "readarray":
		return "variables are read-only"
	}
	return "not in the allowed builtins"
}

func commandList() string {
	return "find grep ls cat head tail wc sort uniq cut tr basename dirname echo printf sed xargs git"
}

// call gates every simple command, builtins included, after expansion.
func (s *session) call(ctx context.Context, args []string) ([]string, error) {
	hc := interp.HandlerCtx(ctx)
	name := args[0]
	if strings.HasPrefix(name, routePrefix) {
		return nil, s.deny(deniedAt(hc.Pos, "command", "invalid name"))
	}
	if d := checkName(name, args[1:]); d != nil {
		if hc.Pos.IsValid() {
			d.Line, d.Col = int(hc.Pos.Line()), int(hc.Pos.Col())
		}
		return nil, s.deny(d)
	}
	if hc.Stdout == io.Writer(s.sink) {
		s.mu.Lock()
		s.lastName = name
		if name == "git" && len(args) > 1 && args[1] == "grep" {
			s.lastName = "git grep"
		}
		s.mu.Unlock()
	}
	switch {
	case name == "cd":
		if len(args) != 2 || strings.HasPrefix(args[1], "-") {
			return nil, s.deny(deniedAt(hc.Pos, "cd", "cd takes exactly one directory"))
		}
		target := abs(hc.Dir, args[1])
		if _, ok := relInside(s.fs.rootDir, target); !ok {
			return nil, s.deny(deniedAt(hc.Pos, "cd "+args[1], "the directory is outside the project"))
		}
		if fi, err := s.fs.stat(hc.Dir, args[1]); err != nil || !fi.IsDir() {
			return nil, s.deny(deniedAt(hc.Pos, "cd "+args[1], "not a directory inside the project"))
		}
		return []string{"cd", target}, nil
	case routedBuiltins[name]:
		out := append([]string{routePrefix + name}, args[1:]...)
		return out, nil
	}
	return args, nil
}

// exec runs an allowed command in-process. It is the end of the exec
// chain: nothing is ever handed to the interpreter's default handler.
func (s *session) exec(ctx context.Context, args []string) error {
	hc := interp.HandlerCtx(ctx)
	name := strings.TrimPrefix(args[0], routePrefix)
	run, ok := lookupCommand(name)
	if !ok {
		return s.deny(deniedAt(hc.Pos, "command "+name, "not in the read-only command set"))
	}
	c := s.newCmd(ctx, hc, name)
	status := 1
	if err := c.charge(argBytes(args)); err != nil {
		c.errorf("%v", err)
	} else {
		status = c.runSafely(run, args[1:])
	}
	if err := c.finish(); err != nil && status == 0 {
		status = 1
	}
	c.releaseAll()
	if c.denied != nil {
		if hc.Pos.IsValid() {
			c.denied.Line, c.denied.Col = int(hc.Pos.Line()), int(hc.Pos.Col())
		}
		return s.deny(c.denied)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if status != 0 {
		return interp.ExitStatus(uint8(status))
	}
	return nil
}

// cmd is the environment of one in-process command.
type cmd struct {
	ctx    context.Context
	s      *session
	fs     *projectFS
	name   string
	dir    string
	stdin  io.Reader
	out    *bufio.Writer
	stderr io.Writer
	denied *DeniedError
	pos    syntax.Pos
	held   int64 // bytes charged to the run's memory budget
	// keepInput says the command keeps what inputs read (sort): the
	// charge stays until it ends.
	keepInput bool
	// sink is the script's standard output when the command writes to it
	// directly (not into a pipe or a $(...)), for printFrom.
	sink *sink
}

// printFrom says the paths the command prints are relative to dir, not to
// the directory it runs in (git diff --name-only and git status print
// from the repository's top, wherever they run): the records of its
// output carry dir. Output into a pipe is the next command's to print.
func (c *cmd) printFrom(dir string) {
	if c.sink == nil {
		return
	}
	c.out.Flush()
	c.out.Reset(dirWriter{s: c.sink, dir: dir})
}

func (s *session) newCmd(ctx context.Context, hc interp.HandlerContext, name string) *cmd {
	var w io.Writer
	var top *sink
	switch o := hc.Stdout.(type) {
	case *sink:
		w, top = dirWriter{s: o, dir: hc.Dir}, o
	case *os.File, devNull, *limitedBuffer:
		w = o
	case nil:
		w = io.Discard
	default:
		// The buffer of a $(...): charge it to the same caps.
		w = countingWriter{b: &s.budget, w: o}
	}
	in := hc.Stdin
	if in == nil {
		in = strings.NewReader("")
	} else if f, ok := in.(*os.File); ok && f == nil {
		in = strings.NewReader("")
	}
	errw := hc.Stderr
	if errw == nil {
		errw = io.Discard
	}
	return &cmd{ctx: ctx, s: s, fs: s.fs, name: name, dir: hc.Dir, stdin: in,
		out: bufio.NewWriterSize(w, 32<<10), stderr: errw, pos: hc.Pos, sink: top}
}

func (c *cmd) finish() error { return c.out.Flush() }

// runSafely turns a panic in a command into exit status 70 and a
// message, so one bug cannot take the caller's process down.
func (c *cmd) runSafely(run func(*cmd, []string) int, args []string) (status int) {
	defer func() {
		if r := recover(); r != nil {
			c.errorf("internal error: %v", r)
			status = 70
		}
	}()
	return run(c, args)
}

// errorf prints "name: msg" to stderr.
func (c *cmd) errorf(format string, args ...any) {
	fmt.Fprintf(c.stderr, c.name+": "+format+"\n", args...)
}

// usage reports a usage error and returns status 2.
func (c *cmd) usage(format string, args ...any) int {
	c.errorf(format, args...)
	return 2
}

// refuse records a policy denial (an option that writes or executes) and
// returns status 2; the run is stopped with a [DeniedError].
func (c *cmd) refuse(option, why string) int {
	c.denied = &DeniedError{Construct: c.name + " " + option, Msg: why}
	c.errorf("%s is not allowed: %s", option, why)
	return 2
}

// writeErr reports whether writing has failed (a cap, a closed pipe).
func (c *cmd) writeErr() bool {
	_, err := c.out.Write(nil)
	return err != nil || c.ctx.Err() != nil
}

// display turns a path into the form error messages use.
func (c *cmd) pathMsg(err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		msg := pe.Err.Error()
		switch {
		case errors.Is(pe.Err, os.ErrNotExist):
			msg = "No such file or directory"
		case errors.Is(pe.Err, os.ErrPermission):
			msg = "Permission denied"
		}
		return fmt.Sprintf("%s: %s", pe.Path, msg)
	}
	return err.Error()
}

// readInput reads stdin or a file operand ("-" is stdin), bounded, and
// charged to the run's memory budget before it is allocated.
func (c *cmd) readInput(name string) ([]byte, error) {
	if name == "-" {
		return c.readStdin()
	}
	return c.fs.readWith(c.dir, name, openOpts{content: true, charge: c.charge})
}

// argBytes is what a command's arguments hold.
func argBytes(args []string) int64 {
	n := int64(0)
	for _, a := range args {
		n += int64(len(a)) + 16
	}
	return n
}

func readAllLimited(r io.Reader, limit int64) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return b, err
	}
	if int64(len(b)) > limit {
		return nil, errors.New("input too large")
	}
	return b, nil
}

// lookupCommand returns the in-process implementation of name.
func lookupCommand(name string) (func(c *cmd, args []string) int, bool) {
	switch name {
	case "find":
		return runFind, true
	case "grep":
		return runGrep, true
	case "ls":
		return runLs, true
	case "cat":
		return runCat, true
	case "head":
		return runHead, true
	case "tail":
		return runTail, true
	case "wc":
		return runWc, true
	case "sort":
		return runSort, true
	case "uniq":
		return runUniq, true
	case "cut":
		return runCut, true
	case "tr":
		return runTr, true
	case "basename":
		return runBasename, true
	case "dirname":
		return runDirname, true
	case "echo":
		return runEcho, true
	case "printf":
		return runPrintf, true
	case "pwd":
		return runPwd, true
	case "sed":
		return runSed, true
	case "xargs":
		return runXargs, true
	case "git":
		return runGit, true
	}
	return nil, false
}
