package workflow

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync"
	"time"

	"mvdan.cc/sh/v3/syntax"

	"github.com/taskctl/taskctl/state"
)

// SplitCommand splits an executor command line into words the way a POSIX
// shell does, with quote removal ('...', "...", backslashes) and nothing
// else: a parameter expansion, command substitution, arithmetic or process
// substitution, $'...' or $"..." is an error, and ~, globs and braces stay
// as written. Operators (;, |, &, >, <) are errors; a # comment ends the
// line.
func SplitCommand(s string) ([]string, error) {
	p := syntax.NewParser()
	var out []string
	for w, err := range p.WordsSeq(strings.NewReader(s)) {
		if err != nil {
			return nil, fmt.Errorf("executor command: %v", err)
		}
		var b strings.Builder
		for _, part := range w.Parts {
			switch x := part.(type) {
			case *syntax.Lit:
				b.WriteString(unescape(x.Value, false))
			case *syntax.SglQuoted:
				if x.Dollar {
					return nil, denied(x.Pos(), "$'...' quoting")
				}
				b.WriteString(x.Value)
			case *syntax.DblQuoted:
				if x.Dollar {
					return nil, denied(x.Pos(), `$"..." quoting`)
				}
				for _, q := range x.Parts {
					lit, ok := q.(*syntax.Lit)
					if !ok {
						return nil, denied(q.Pos(), nodeName(q))
					}
					b.WriteString(unescape(lit.Value, true))
				}
			default:
				return nil, denied(part.Pos(), nodeName(part))
			}
		}
		out = append(out, b.String())
	}
	if len(out) == 0 {
		return nil, errors.New("executor command: empty")
	}
	return out, nil
}

func denied(pos syntax.Pos, what string) error {
	return fmt.Errorf("executor command: %d:%d: %s is not allowed; an executor command is plain words and quotes only",
		pos.Line(), pos.Col(), what)
}

func nodeName(n syntax.Node) string {
	switch n.(type) {
	case *syntax.ParamExp:
		return "parameter expansion"
	case *syntax.CmdSubst:
		return "command substitution"
	case *syntax.ArithmExp:
		return "arithmetic expansion"
	case *syntax.ProcSubst:
		return "process substitution"
	case *syntax.ExtGlob:
		return "extended glob"
	}
	return fmt.Sprintf("%T", n)
}

// unescape removes backslash quoting from literal text: outside double quotes
// a backslash quotes any character (and a backslash-newline disappears);
// inside them it quotes only $ ` " \ and newline.
func unescape(s string, dquoted bool) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 == len(s) {
			b.WriteByte(c)
			continue
		}
		next := s[i+1]
		switch {
		case next == '\n':
		case !dquoted || strings.IndexByte("$`\"\\", next) >= 0:
			b.WriteByte(next)
		default:
			b.WriteByte(c)
			b.WriteByte(next)
		}
		i++
	}
	return b.String()
}

// maxOutput caps what workflow keeps of an executor's stdout unless
// Options.MaxOutput says otherwise.
const maxOutput = 64 << 20

// killGrace is how long an executor has between SIGTERM and SIGKILL.
const killGrace = 3 * time.Second

// capture writes an executor's stdout to the step's output file as it
// comes, up to max bytes, and then fails the write. It has no ReadFrom, so
// io.Copy from the pipe goes through Write and the cap holds (the
// bytes.Buffer it replaces had its ReadFrom promoted, which took every byte
// past the cap); and the output is not held in memory while it grows.
type capture struct {
	w    io.Writer
	n    int64 // bytes written to w
	max  int64
	over bool  // the executor printed more than max bytes
	err  error // w's write error
}

func (c *capture) Write(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	if c.over {
		return 0, errOutputTooLarge
	}
	if room := c.max - c.n; int64(len(p)) > room {
		p, c.over = p[:room], true
	}
	n, err := c.w.Write(p)
	c.n += int64(n)
	if err != nil {
		c.err = err
		return n, err
	}
	if c.over {
		return n, errOutputTooLarge
	}
	return n, nil
}

var errOutputTooLarge = errors.New("the executor's output is too large")

// size is n bytes in words: "64 MiB" or "1000 bytes".
func size(n int64) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}

// tail keeps the last n bytes written to it.
type tail struct {
	mu  sync.Mutex
	n   int
	buf []byte
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > t.n {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-t.n:]...)
	}
	return len(p), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return strings.TrimSpace(strings.ToValidUTF8(string(t.buf), "\uFFFD"))
}

// execution is what one executor run produced.
type execution struct {
	stdout   string
	file     string // the output file in the run directory, "" if it could not be written
	exitCode *int
	status   string // StepOK, StepFailed, StepTimeout or StepInterrupted
	err      error
}

// execute runs the executor with prompt on stdin and its stdout going to
// outFile in the run directory. The step's output is read back from the
// file when the executor is done: one copy, of exactly its size.
func (r *runner) execute(ctx context.Context, step *StepResult, prompt, outFile string) execution {
	f, err := r.st.create(outFile)
	if err != nil {
		return execution{status: StepFailed, err: fmt.Errorf("write the output: %w", err)}
	}

	sctx, cancel := ctx, context.CancelFunc(func() {})
	if r.opt.StepTimeout > 0 {
		sctx, cancel = context.WithTimeout(ctx, r.opt.StepTimeout)
	}
	defer cancel()

	cmd, out, errTail := r.executor(sctx, step, prompt, f)
	err = runLocked(cmd)
	// The step is over when the executor exits: nothing of its group may
	// outlive it.
	_ = signalGroup(cmd, sigKill)

	ex := execution{status: StepOK}
	var rerr error
	ex.stdout, rerr = readBack(f, out.n)
	if rerr == nil {
		ex.file = outFile
	}
	if cmd.ProcessState != nil {
		code := cmd.ProcessState.ExitCode()
		if code >= 0 {
			ex.exitCode = &code
		}
	}
	ex.status, ex.err = r.verdict(ctx, sctx, err, out, rerr, errTail)
	return ex
}

// executor is the command of one step's executor: confined (when the run
// is sandboxed) and supervised, started in the project dir with the
// step's environment, prompt on stdin, stdout captured into f (out, up to
// the output cap) and the tail of stderr kept (errTail) besides the run's
// stderr. Cancelled, its process group gets SIGTERM, then SIGKILL after
// killGrace.
func (r *runner) executor(sctx context.Context, step *StepResult, prompt string, f io.Writer) (cmd *exec.Cmd, out *capture, errTail *tail) {
	cmd = exec.CommandContext(sctx, r.exe, r.opt.Executor[1:]...)
	cmd.Args[0] = r.opt.Executor[0]
	if r.plan != nil {
		confine(cmd, r.plan, r.opt.SandboxHelper)
	}
	supervised := supervise(cmd, r.opt.Supervisor)
	cmd.Dir = r.opt.ProjectDir
	cmd.Env = r.env(step)
	cmd.Stdin = strings.NewReader(prompt)
	out = &capture{w: f, max: r.opt.MaxOutput}
	if out.max <= 0 {
		out.max = maxOutput
	}
	cmd.Stdout = out
	errTail = &tail{n: 2048}
	var stderr io.Writer = errTail
	if r.opt.Stderr != nil {
		stderr = io.MultiWriter(r.opt.Stderr, errTail)
	}
	cmd.Stderr = stderr
	setGroup(cmd, supervised)
	cmd.Cancel = func() error { return signalGroup(cmd, sigTerm) }
	cmd.WaitDelay = killGrace
	return cmd, out, errTail
}

// verdict is a finished executor's status and error: interrupted, timed
// out, an output over the cap, an output that could not be written, or
// the executor's own failure (with the last lines of its stderr).
func (r *runner) verdict(ctx, sctx context.Context, err error, out *capture, rerr error, errTail *tail) (string, error) {
	switch {
	case ctx.Err() != nil:
		return StepInterrupted, interrupted(ctx)
	case sctx.Err() != nil:
		return StepTimeout, fmt.Errorf("%w after %s", ErrTimeout, r.opt.StepTimeout)
	case out.over:
		// (checked before the executor's exit status: one still writing
		// when the pipe closed died of it)
		return StepFailed, fmt.Errorf("the executor's output exceeds %s; the step's output is its first %[1]s", size(out.max))
	case out.err != nil || rerr != nil:
		return StepFailed, fmt.Errorf("write the output: %w", errors.Join(out.err, rerr))
	case err != nil:
		var ee *exec.ExitError
		msg := err.Error()
		if errors.As(err, &ee) {
			msg = "the executor failed (" + ee.String() + ")"
		} else {
			msg = "the executor failed: " + msg
		}
		if t := errTail.String(); t != "" {
			msg += ": " + lastLines(t, 5)
		}
		return StepFailed, errors.New(msg)
	}
	return StepOK, nil
}

// readBack reads back the n bytes the executor wrote to f and commits the
// file; one that cannot be read back is aborted.
func readBack(f *state.PendingFile, n int64) (string, error) {
	var b strings.Builder
	b.Grow(int(n))
	if _, err := io.Copy(&b, io.NewSectionReader(f, 0, n)); err != nil {
		f.Abort()
		return b.String(), err
	}
	return b.String(), f.Commit(true)
}

func lastLines(s string, n int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
