package shellexec

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/taskctl/taskctl/internal/diag"
	"github.com/taskctl/taskctl/root"
	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/interp"
	"mvdan.cc/sh/v3/syntax"
)

// Defaults applied by [Run] to zero fields of [Config].
const (
	DefaultTimeout        = 10 * time.Second
	DefaultMaxStdoutBytes = 1 << 20
	DefaultMaxStdoutLines = 10000
	DefaultMaxPipeline    = 16
	DefaultMaxCommands    = 64
	// MaxScriptBytes is the longest script Run accepts.
	MaxScriptBytes = 16 << 10
	maxStderrBytes = 64 << 10
)

// Config says where and under which limits a script runs.
// Root and Dir are required; zero limits take the defaults above.
type Config struct {
	// Root is the project's confined file system. Every file the script
	// or its commands read goes through it (its Shell view: the project
	// dir alone), under its policy: the name policy (Exclude, sensitive
	// names, names holding a secret) refuses a file's content to a command
	// ("open NAME: not read: REASON"; grep -r passes over such a file, a
	// listing still names it), as the document refuses it; the content
	// policy (root.JudgeContent) judges every file a command reads whole
	// before the command sees a byte of it, so a file the context document
	// would refuse for a secret is refused to the command too ("open NAME:
	// not read: its content holds a secret (rule R at line N) ..."), never
	// quoted, and listed in Result.Secrets, unless the policy allows
	// secrets; a file over the policy's MaxFileBytes is refused ("over the
	// N-byte cap"), as the document refuses it (FILE_TOO_LARGE).
	Root *root.Root
	// Dir is the absolute directory the script starts in; it must lie
	// inside the project dir.
	Dir string
	// Vars are set as shell variables before the script runs (task
	// inputs, read as "$area"). Values are data, never parsed as syntax.
	// Names must be shell identifiers and may not shadow the fixed
	// environment (PATH, HOME, TMPDIR, IFS, PWD, OLDPWD, LC_*, LANG).
	Vars map[string]string

	Timeout        time.Duration
	MaxStdoutBytes int64 // counts top-level stdout and all $(...) output
	MaxStdoutLines int   // counts top-level stdout and all $(...) output
	MaxPipeline    int   // commands in one pipeline
	MaxCommands    int   // simple commands in the script
	// MaxMemory bounds what the run holds in memory at once: the files and
	// standard input commands read whole, the arguments expansions make,
	// sort's and uniq's lines (see memory.go).
	MaxMemory int64
}

// Record is one candidate path printed by the script.
type Record struct {
	Text string // the line (or NUL-terminated record) without its terminator
	Dir  string // absolute directory of the command that printed it
}

// Result is what a script printed and how it ended.
type Result struct {
	Records    []Record
	Stdout     []byte // top-level standard output, up to the caps
	Stderr     []byte // standard error, at most 64 KiB
	ExitStatus int
	Truncated  bool // an output cap was hit and the run was stopped
	TimedOut   bool // the time limit was hit and the run was stopped
	NUL        bool // records are NUL-separated (stdout held a NUL byte)
	// LastGrep is true when the last command to finish in the top-level
	// pipeline was grep (or git grep); its exit status 1 means "no match".
	LastGrep bool
	// Outside lists the paths outside the project the command tried to
	// read and was refused (the first few, once each), whatever its exit
	// status.
	Outside []string
	// Secrets lists the files whose content a command was refused because
	// it holds a secret (the first few, once each): absolute paths, each
	// with the reason, which names the rule and line, never the secret.
	Secrets []Refusal
	// MemoryExceeded: the run would have passed Config.MaxMemory and was
	// stopped.
	MemoryExceeded bool
	// ReadContent says a command read a file's content (cat, grep, sed,
	// a redirection, $(<...)), not only listings and names: what the
	// script printed may then be text of a file, not paths.
	ReadContent bool
}

// DeniedError reports a construct or command the policy does not allow.
// Line and Col are 1-based positions in the script; they are 0 when the
// denial has no position (a bad Config value, say).
type DeniedError struct {
	Line, Col int
	Construct string // e.g. "output redirection", "command rm", "builtin eval"
	Msg       string
}

func (e *DeniedError) Error() string {
	msg := e.Construct + " is not allowed"
	if e.Msg != "" {
		msg += ": " + e.Msg
	}
	if e.Line > 0 {
		return fmt.Sprintf("%d:%d: %s", e.Line, e.Col, msg)
	}
	return msg
}

func deniedAt(pos syntax.Pos, construct, format string, args ...any) *DeniedError {
	d := &DeniedError{Construct: construct, Msg: fmt.Sprintf(format, args...)}
	if pos.IsValid() {
		d.Line, d.Col = int(pos.Line()), int(pos.Col())
	}
	return d
}

// Warnings maps the way a run ended to warnings: a timeout, a cap hit and
// a non-zero exit each give one. A pipeline whose last command is grep and
// which exits 1 (no match) is an empty result, not a failure. A run that
// ends well but wrote to stderr (a command of a pipeline failed; 2>/dev/null
// silences it) gives COMMAND_FAILED too. Each message ends with the lines
// of the first 200 bytes of stderr it does not already quote. Records
// printed before the problem are still in r.Records.
func (r *Result) Warnings() []diag.Warning {
	var ws []diag.Warning
	head := stderrHead(r.Stderr)
	if r.TimedOut {
		ws = append(ws, diag.Warning{Code: diag.CommandTimeout, Message: "command timed out; output so far is kept"})
	}
	if r.Truncated {
		ws = append(ws, diag.Warning{Code: diag.CommandOutputTruncated, Message: "command output hit a cap and the command was stopped; output so far is kept"})
	}
	if r.MemoryExceeded {
		ws = append(ws, diag.Warning{Code: diag.CommandMemoryExceeded, Message: "the command would hold more in memory than its budget and was stopped; output so far is kept"})
	}
	switch {
	case r.TimedOut || r.Truncated || r.MemoryExceeded:
	case r.ExitStatus != 0 && !(r.LastGrep && r.ExitStatus == 1):
		msg := fmt.Sprintf("command exited with status %d", r.ExitStatus)
		if head != "" {
			msg += ": " + firstLine(head)
		}
		ws = append(ws, diag.Warning{Code: diag.CommandFailed, Message: msg})
	case head != "":
		// A command before the last of a pipeline failed (find of a
		// missing directory | sort): the pipeline's status is the last
		// command's, but what the failing one wrote says so.
		ws = append(ws, diag.Warning{Code: diag.CommandFailed,
			Message: fmt.Sprintf("a command wrote to stderr though the command's status is %d: %s", r.ExitStatus, firstLine(head))})
	}
	for i := range ws {
		ws[i].Message = withStderr(ws[i].Message, head)
	}
	return ws
}

// WarningFor maps an error returned by [Run] to a warning: a
// [*DeniedError] gives COMMAND_DENIED; any other error gives
// COMMAND_FAILED.
func WarningFor(err error) diag.Warning {
	if d, ok := errors.AsType[*DeniedError](err); ok {
		return diag.Warning{Code: diag.CommandDenied, Message: d.Error()}
	}
	return diag.Warning{Code: diag.CommandFailed, Message: err.Error()}
}

func stderrHead(b []byte) string {
	if len(b) > 200 {
		b = b[:200]
	}
	return strings.ToValidUTF8(string(b), "?")
}

// withStderr adds the lines of a command's standard error that msg does not
// already quote, one a line (the CLI's text output indents them under the
// warning). The messages of [Result.Warnings] quote the first line; the
// comparison is with each trimmed line, so that line is not added again.
func withStderr(msg, stderr string) string {
	var rest []string
	for _, l := range strings.Split(stderr, "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.Contains(msg, l) {
			rest = append(rest, l)
		}
	}
	if len(rest) == 0 {
		return msg
	}
	return msg + "\n" + strings.Join(rest, "\n")
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

var reservedVars = map[string]bool{
	"PATH": true, "HOME": true, "TMPDIR": true, "IFS": true, "PWD": true, "OLDPWD": true,
	"LANG": true, "SHELL": true, "ENV": true, "BASH_ENV": true, "CDPATH": true, "GLOBIGNORE": true,
	"PS4": true, "OPTIND": true, "RANDOM": true, "SECONDS": true, "UID": true, "EUID": true, "PPID": true,
	"GID": true, "BASHPID": true,
}

// fixedTempDir is where the interpreter believes temporary files live. It
// does not exist, so the interpreter's FIFO short-cut past the open
// handler (paths "$TMPDIR/sh-interp-*") can never create anything.
const fixedTempDir = "/nonexistent/taskctl-shellexec-no-tmp"

// Vet parses and vets script as [Run] does before anything runs, under the
// default limits, and returns the [*DeniedError] Run would return for it, or
// nil. Vetting does not depend on the project or on the inputs' values, so a
// template's commands can be checked when the template is.
func Vet(script string) error {
	cfg := Config{MaxPipeline: DefaultMaxPipeline, MaxCommands: DefaultMaxCommands}
	if _, err := parseAndVet(script, &cfg); err != nil {
		return err
	}
	return nil
}

// Run vets script, then interprets it under cfg's policy and limits.
//
// A script the vetting or the runtime policy rejects gives a
// [*DeniedError] together with a Result holding whatever ran before the
// denial (nothing, for a vetting denial; ExitStatus is 2). A non-zero exit, a timeout
// or a hit cap is not an error: it is reported in the Result (see
// [Result.Warnings]). Any other error is a bad Config or an internal fault.
func Run(ctx context.Context, script string, cfg Config) (*Result, error) {
	if err := cfg.setDefaults(); err != nil {
		return nil, err
	}
	file, err := parseAndVet(script, &cfg)
	if err != nil {
		return &Result{ExitStatus: 2}, err
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	ctx, cancelT := context.WithTimeoutCause(ctx, cfg.Timeout, errTimeout)
	defer cancelT()

	s := &session{
		cfg:    &cfg,
		script: script,
		calls:  writtenCalls(script, file),
		fs:     newProjectFS(cfg.Root),
		cancel: cancel,
	}
	s.budget.maxBytes = cfg.MaxStdoutBytes
	s.budget.maxLines = int64(cfg.MaxStdoutLines)
	s.budget.cancel = cancel
	s.mem.max = cfg.MaxMemory
	s.mem.cancel = cancel
	s.sink = &sink{budget: &s.budget}
	s.stderr = &limitedBuffer{max: maxStderrBytes}
	runner, err := s.runner()
	if err != nil {
		return nil, fmt.Errorf("shellexec: %w", err)
	}
	return s.result(ctx, runner.Run(ctx, file))
}

// runner makes the interpreter of a session: its fixed environment and
// the task's variables, and every handler ours.
func (s *session) runner() (*interp.Runner, error) {
	env := []string{
		// Set, but empty: the interpreter fills an unset HOME from the
		// process's own (os.UserHomeDir), which would hand a path outside
		// the project to $HOME, ~ and a bare cd.
		"HOME=",
		"TMPDIR=" + fixedTempDir,
		"LC_ALL=C",
		"IFS= \t\n",
	}
	for k, v := range s.cfg.Vars {
		env = append(env, k+"="+v)
	}
	return interp.New(
		interp.Env(noUsers{expand.ListEnviron(env...)}),
		interp.Dir(s.cfg.Dir),
		interp.StdIO(nil, s.sink, s.stderr),
		interp.CallHandler(s.call),
		interp.ExecHandlers(func(interp.ExecHandlerFunc) interp.ExecHandlerFunc {
			// The chain ends here: next (the real exec) is never called.
			return s.exec
		}),
		interp.OpenHandler(s.open),
		interp.ReadDirHandler2(s.readDir),
		interp.StatHandler(s.stat),
		interp.AccessHandler(s.access),
	)
}

// noUsers is the interpreter's environment with every other user's home
// directory answered as "~name" itself: the interpreter asks the
// environment for "HOME name" before it looks the user up (os/user, NSS),
// so ~root stays ~root, as bash leaves an unknown user's, and nothing about
// the system's users reaches a script.
type noUsers struct{ expand.Environ }

func (e noUsers) Get(name string) expand.Variable {
	if user, ok := strings.CutPrefix(name, "HOME "); ok {
		return expand.Variable{Set: true, Kind: expand.String, Str: "~" + user}
	}
	return e.Environ.Get(name)
}

// result makes the Result of a run that ended with runErr: what it
// printed, its exit status, why it stopped, and the denial, if any, as the
// error.
func (s *session) result(ctx context.Context, runErr error) (*Result, error) {
	res := &Result{Stdout: s.sink.buf.Bytes(), Stderr: s.stderr.buf.Bytes()}
	res.Truncated = errors.Is(context.Cause(ctx), errTruncated)
	res.MemoryExceeded = errors.Is(context.Cause(ctx), errMemory)
	res.TimedOut = !res.Truncated && !res.MemoryExceeded && errors.Is(context.Cause(ctx), errTimeout)
	res.LastGrep = s.lastTopGrep()
	res.Outside = s.fs.outside.list()
	res.Secrets = s.fs.secrets.list()
	res.ReadContent = s.fs.content.Load()
	var denied *DeniedError
	switch {
	case runErr == nil:
	case errors.As(runErr, &denied):
		res.ExitStatus = 2
	default:
		if st, ok := errors.AsType[interp.ExitStatus](runErr); ok {
			res.ExitStatus = int(st)
		} else if res.TimedOut || res.Truncated || res.MemoryExceeded || ctx.Err() != nil {
			if res.ExitStatus == 0 {
				res.ExitStatus = 124
			}
		} else {
			res.ExitStatus = 2
			fmt.Fprintf(s.stderr, "shellexec: %v\n", runErr)
		}
	}
	if d := s.denial(); d != nil {
		denied = d
	}
	res.Stderr = s.stderr.buf.Bytes()
	res.NUL = bytes.IndexByte(res.Stdout, 0) >= 0
	res.Records = s.sink.records(res.NUL, s.cfg.Dir)
	if denied != nil {
		return res, denied
	}
	return res, nil
}

var (
	errTimeout   = errors.New("time limit exceeded")
	errTruncated = errors.New("output cap exceeded")
)

func (c *Config) setDefaults() error {
	if c.Root == nil {
		return errors.New("shellexec: Config.Root is nil")
	}
	if !filepath.IsAbs(c.Dir) {
		return errors.New("shellexec: Config.Dir must be absolute")
	}
	c.Dir = filepath.Clean(c.Dir)
	if _, ok := relInside(c.Root.Dir(), c.Dir); !ok {
		return fmt.Errorf("shellexec: working dir %s is outside the project %s", c.Dir, c.Root.Dir())
	}
	for k := range c.Vars {
		if !syntax.ValidName(k) || reservedVars[k] || strings.HasPrefix(k, "LC_") || strings.HasPrefix(k, "BASH") {
			return &DeniedError{Construct: "variable " + k, Msg: "task input names must be identifiers that do not shadow the fixed environment"}
		}
	}
	if c.Timeout <= 0 {
		c.Timeout = DefaultTimeout
	}
	if c.MaxStdoutBytes <= 0 {
		c.MaxStdoutBytes = DefaultMaxStdoutBytes
	}
	if c.MaxStdoutLines <= 0 {
		c.MaxStdoutLines = DefaultMaxStdoutLines
	}
	if c.MaxPipeline <= 0 {
		c.MaxPipeline = DefaultMaxPipeline
	}
	if c.MaxCommands <= 0 {
		c.MaxCommands = DefaultMaxCommands
	}
	if c.MaxMemory <= 0 {
		c.MaxMemory = DefaultMaxMemory
	}
	vars := int64(0)
	for k, v := range c.Vars {
		vars += int64(len(k) + len(v))
	}
	if vars > c.MaxMemory {
		return &DeniedError{Construct: "variables", Msg: fmt.Sprintf("the task's inputs hold %d bytes, more than the memory budget of %d", vars, c.MaxMemory)}
	}
	return nil
}

// session is the state of one Run.
type session struct {
	cfg    *Config
	fs     *projectFS
	cancel context.CancelCauseFunc
	budget budget
	mem    memBudget
	sink   *sink
	stderr *limitedBuffer

	// script is the script as written, and calls the source text of its
	// simple commands by line and column: what a denial may quote.
	script string
	calls  map[[2]int]string

	mu       sync.Mutex
	denied   *DeniedError
	lastName string // last command to finish writing to the sink
}

// deny records d as the run's denial (the first one stands) and returns
// it, made to quote only what the script says (see quoteWritten).
func (s *session) deny(d *DeniedError) error {
	s.quoteWritten(d)
	s.mu.Lock()
	if s.denied == nil {
		s.denied = d
	}
	s.mu.Unlock()
	return d
}

func (s *session) denial() *DeniedError {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.denied
}

func (s *session) lastTopGrep() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lastName == "grep" || s.lastName == "git grep"
}
