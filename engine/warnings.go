package engine

import (
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/taskctl/taskctl/internal/diag"
)

// Each operation of the engine gathers its own warnings and hands them
// back with its result (Report), or with its error (WarningsOf) when it
// returns no result (a result returned beside an error, as Exec's and
// Validate's, carries them itself): there is
// no collector on the Engine, so two operations of one engine running side
// by side (two MCP calls) never see each other's warnings. The one
// exception is what reading the config files said (ConfigWarnings): it
// belongs to the opened engine, not to an operation.

// A Report is what an operation says beside its result: each result type
// of an operation that can warn embeds one. A front door prints the
// warnings its way (they are not part of the result's JSON).
type Report struct {
	Warnings []diag.Warning `json:"-"`
}

func (r *Report) report() *Report { return r }

// Said returns the warnings of the operation.
func (r *Report) Said() []diag.Warning { return r.Warnings }

// A Reporter is a result that carries its operation's warnings (every
// type that embeds a Report).
type Reporter interface{ Said() []diag.Warning }

// reporter is a result that carries a Report.
type reporter interface{ report() *Report }

// warnings are the warnings of one operation, gathered as it runs.
type warnings []diag.Warning

// add records w. Every path in the output is absolute: a warning about an
// input that has no absolute form (a path with a backslash, a NUL or a
// control character, a Windows drive, one too long) has no path, and its
// message quotes the input (at most quotedMax bytes of it) unless it
// already does.
func (ws *warnings) add(w diag.Warning) {
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
	*ws = append(*ws, w)
}

// addAll records each of list.
func (ws *warnings) addAll(list []diag.Warning) {
	for _, w := range list {
		ws.add(w)
	}
}

// quotedMax bounds how much of an input a warning message quotes.
const quotedMax = 200

// done hands an operation's warnings to its result, or to its error when
// it failed.
func done[R reporter](res R, err error, ws warnings) (R, error) {
	if err != nil {
		var zero R
		return zero, withWarnings(err, ws)
	}
	res.report().Warnings = ws
	return res, nil
}

// warnedError is an operation's error with the warnings it gave before it
// failed.
type warnedError struct {
	err      error
	warnings []diag.Warning
}

func (e *warnedError) Error() string { return e.err.Error() }
func (e *warnedError) Unwrap() error { return e.err }

// withWarnings attaches ws to err (nil stays nil).
func withWarnings(err error, ws warnings) error {
	if err == nil || len(ws) == 0 {
		return err
	}
	return &warnedError{err: err, warnings: ws}
}

// WarningsOf returns the warnings an operation gave before it failed with
// err.
func WarningsOf(err error) []diag.Warning {
	var we *warnedError
	if errors.As(err, &we) {
		return we.warnings
	}
	return nil
}

// ConfigWarnings are what reading the config files said (an untrusted
// project config, a setting ignored): the engine's, said once when the
// settings were loaded, not any one operation's. The CLI prints them with
// its command's; a session (the MCP server) loaded them before its first
// call.
func (e *Engine) ConfigWarnings() []diag.Warning { return e.configWarns }

// StrictCheck fails under strict when there are warnings (ClassPartial).
func (e *Engine) StrictCheck(strict bool, ws []diag.Warning) error {
	if strict && len(ws) > 0 {
		return &Error{Code: diag.StrictWarnings, Class: ClassPartial,
			Message: fmt.Sprintf("%d warning(s) under %s", len(ws), e.name(FieldStrict))}
	}
	return nil
}
