package engine

import (
	"context"
	"fmt"

	"github.com/taskctl/taskctl/command"
	"github.com/taskctl/taskctl/internal/diag"
	"github.com/taskctl/taskctl/project"
	"github.com/taskctl/taskctl/shellexec"
)

// ExecRequest runs one command of the restricted interpreter from the
// working dir. Vars are KEY=VALUE pairs, set as shell variables.
type ExecRequest struct {
	Command string
	Vars    []string
}

// ExecResult is the absolute paths a command printed that pass the policy,
// and its exit status.
type ExecResult struct {
	Command    string   `json:"command"`
	ExitStatus int      `json:"exit_status"`
	Paths      []string `json:"paths"`
	Report
}

// Exec runs a command as a template's <command> runs (in-process, read
// only, inside the project), from the working dir, and resolves every line
// it prints. A command that exits non-zero (but grep's "no match") returns
// the result and an EXEC_FAILED error. A command
// that cannot run at all is an error (COMMAND_DENIED, a usage error, when
// the interpreter refused it); what it printed that is not a project path
// is a warning.
func (e *Engine) Exec(ctx context.Context, req ExecRequest) (*ExecResult, error) {
	var ws warnings
	res, err := e.exec(ctx, req, &ws)
	if res != nil {
		// A command that failed keeps what it printed (the error's
		// details), and its warnings.
		res.Warnings = ws
		return res, err
	}
	return nil, withWarnings(err, ws)
}

func (e *Engine) exec(ctx context.Context, req ExecRequest, ws *warnings) (*ExecResult, error) {
	vars, err := e.parseVars(req.Vars)
	if err != nil {
		return nil, err
	}
	cfg, err := e.Settings()
	if err != nil {
		return nil, err
	}
	p, err := e.Project()
	if err != nil {
		return nil, err
	}
	if !within(p.WorkingDir(), p.Dir()) {
		return nil, e.outsideProject(p)
	}
	res, cws, err := command.Run(ctx, p, p.WorkingDir(), req.Command, vars, command.Limits{
		Timeout: cfg.CommandTimeout, MaxBytes: cfg.CommandMaxBytes, MaxLines: cfg.CommandMaxLines,
	})
	if err != nil {
		// A command that cannot run at all is this command's failure, not
		// a warning: COMMAND_DENIED (a usage error) or a general error.
		// COMMAND_FAILED is a warning code; an error's code is one of the
		// documented set (README, DESIGN §7).
		ce := &Error{Code: diag.Error, Class: ClassError, Message: err.Error()}
		if cws[0].Code == diag.CommandDenied {
			ce.Code, ce.Class = diag.CommandDenied, ClassUsage
		}
		return nil, ce
	}
	ws.addAll(cws)
	out := &ExecResult{Command: req.Command, ExitStatus: res.ExitStatus, Paths: []string{}}
	cands, notFound := command.ResolveOutput(p, res)
	ws.addAll(command.SummarizeNotFound(notFound))
	for _, c := range cands {
		out.Paths = append(out.Paths, c.Path)
	}
	if failed(res) {
		// As in a shell, a command that failed is a failure (it was exit
		// 0, the status only in json); what it printed is kept.
		return out, &Error{Code: diag.ExecFailed, Class: ClassError, Details: out,
			Message: fmt.Sprintf("the command exited with status %d", res.ExitStatus)}
	}
	return out, nil
}

// failed reports whether a command failed: a non-zero status other than
// grep's 1 for "no match" (an empty result). A timeout or a cap is its own
// warning, and its output so far is kept.
func failed(res *shellexec.Result) bool {
	return res.ExitStatus != 0 && !(res.LastGrep && res.ExitStatus == 1) && !res.TimedOut && !res.Truncated
}

// outsideProject is the error of a command run from a working dir outside
// the project.
func (e *Engine) outsideProject(p *project.Project) error {
	msg := fmt.Sprintf("the working dir %s is outside the project dir %s: a command runs inside the project", p.WorkingDir(), p.Dir())
	if cwd := e.spell(FieldCwd); cwd != "" {
		msg += fmt.Sprintf(" (give %s a dir in it)", cwd)
	}
	return UsageError("%s", msg)
}
