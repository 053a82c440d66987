package command

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/taskctl/taskctl/content/secrets"
	"github.com/taskctl/taskctl/internal/diag"
	"github.com/taskctl/taskctl/project"
	"github.com/taskctl/taskctl/shellexec"
)

// Limits bound a command: its time and what it may print.
type Limits struct {
	Timeout  time.Duration
	MaxBytes int64
	MaxLines int
}

// Vars is the task's inputs a command can read: those whose names are
// shell identifiers. A template may name an input "my-area" (for
// {{my-area}}); no command can read it ($my-area is $my followed by
// "-area"), and passing it made the interpreter refuse every command of the
// task, even one that reads no input.
func Vars(vars map[string]string) map[string]string {
	out := make(map[string]string, len(vars))
	for k, v := range vars {
		if isShellName(k) {
			out[k] = v
		}
	}
	return out
}

func isShellName(s string) bool {
	for i, c := range s {
		switch {
		case c == '_', 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z':
		case i > 0 && '0' <= c && c <= '9':
		default:
			return false
		}
	}
	return s != ""
}

// Run runs one restricted shell command in dir (a directory inside
// the project) the way a template's <command> runs, and maps its outcome to
// warnings. It is shared with `taskctl exec`, which runs in the working dir.
func Run(ctx context.Context, p *project.Project, dir, script string, vars map[string]string, l Limits) (*shellexec.Result, []diag.Warning, error) {
	cfg := shellexec.Config{
		// The project's confined root: its name policy (Exclude,
		// sensitive names, names holding a secret), its size cap and its
		// content policy keep a file from commands as from the document:
		// what a command prints that is not a path is quoted in warnings.
		Root:           p.Confined(),
		Dir:            dir,
		Vars:           vars,
		Timeout:        l.Timeout,
		MaxStdoutBytes: l.MaxBytes,
		MaxStdoutLines: l.MaxLines,
	}
	res, err := shellexec.Run(ctx, script, cfg)
	if err != nil {
		return nil, []diag.Warning{shellexec.WarningFor(err)}, err
	}
	// Warnings quote the head of stderr. A command's error messages name
	// its operands, which xargs can take from a file it read: once a
	// command read a file's content, stderr is counted, not quoted (as the
	// lines of stdout that are not paths are), unless the policy allows
	// sensitive files. Else it is scanned whole first, as a document is,
	// so that a secret the head would cut is still found.
	if res.ReadContent && !p.Policy().AllowSensitive && len(res.Stderr) > 0 {
		n := bytes.Count(res.Stderr, []byte("\n")) + 1
		if bytes.HasSuffix(res.Stderr, []byte("\n")) {
			n--
		}
		msg := fmt.Appendf(nil, "%d line(s) of standard error not shown, as a command read file content they may quote (run the command in a shell to see them)", n)
		var marks []string
		for _, f := range secrets.Scan(res.Stderr) {
			if m := "[REDACTED:" + f.Rule + "]"; !slices.Contains(marks, m) {
				marks = append(marks, m)
			}
		}
		if len(marks) > 0 {
			msg = fmt.Appendf(msg, "; they hold a secret: %s", strings.Join(marks, " "))
		}
		res.Stderr = msg
	} else if fs := secrets.Scan(res.Stderr); len(fs) > 0 {
		res.Stderr = secrets.Redact(res.Stderr, fs)
	}
	ws := res.Warnings()
	for i := range ws {
		ws[i].Message = secrets.RedactText(ws[i].Message)
	}
	for _, o := range res.Outside {
		ws = append(ws, diag.Warning{Code: diag.PathOutsideProject, Path: o,
			Message: "the command tried to read it, outside the project dir: it saw nothing there"})
	}
	for _, r := range res.Secrets {
		ws = append(ws, diag.Warning{Code: diag.SecretDetected, Path: secrets.RedactText(r.Path),
			Message: "the command tried to read it: " + r.Reason})
	}
	return res, ws, nil
}

// projectPath reports whether a record refused with code was a path of the
// project (a file or directory there that the policy refuses), whose name
// a warning may quote; any other record (no such file, not a path, outside)
// may be text the command read.
func projectPath(code diag.Code) bool {
	switch code {
	case diag.PathNotFound, diag.PathInvalid, diag.PathOutsideProject:
		return false
	}
	return true
}

// outputSecrets scans what a command printed as one document, as a file's
// content is scanned (a secret may span records), and returns for each
// record the rules of the findings that overlap it.
func outputSecrets(recs []shellexec.Record) [][]string {
	var b strings.Builder
	starts := make([]int, len(recs))
	for i, r := range recs {
		starts[i] = b.Len()
		b.WriteString(r.Text)
		b.WriteByte('\n')
	}
	rules := make([][]string, len(recs))
	for _, f := range secrets.Scan([]byte(b.String())) {
		for i := sort.SearchInts(starts, f.Start+1) - 1; i >= 0 && i < len(recs) && starts[i] < f.End; i++ {
			if !slices.Contains(rules[i], f.Rule) {
				rules[i] = append(rules[i], f.Rule)
			}
		}
	}
	return rules
}

// grepLikeNote marks a line of output shaped as grep's "FILE:TEXT" (it
// holds a colon) without quoting it.
const grepLikeNote = `it has grep's "FILE:TEXT" form`

// outputLineWarning is the warning for record i, which is not a path of
// the project: its number and why, never its text; and which secret rules
// matched it, as markers.
func outputLineWarning(i int, code diag.Code, recs []shellexec.Record, rules [][]string) diag.Warning {
	why := "names no file"
	switch code {
	case diag.PathInvalid:
		why = "is not a valid path"
	case diag.PathOutsideProject:
		why = "is outside the project"
	}
	msg := fmt.Sprintf("line %d of the command's output %s; not shown, as it may be text the command read (run the command in a shell to see it)", i+1, why)
	if code == diag.PathNotFound && strings.Contains(recs[i].Text, ":") {
		msg += "; " + grepLikeNote
	}
	if i < len(rules) && len(rules[i]) > 0 {
		var marks []string
		for _, r := range rules[i] {
			marks = append(marks, "[REDACTED:"+r+"]")
		}
		msg += "; it holds a secret: " + strings.Join(marks, " ")
	}
	return diag.Warning{Code: code, Message: msg}
}
