package engine

import (
	"context"
	"errors"
	"fmt"

	"github.com/taskctl/taskctl/internal/diag"
	"github.com/taskctl/taskctl/state"
)

// Class is the kind of failure an [Error] reports; each front door maps it
// to what it returns (the CLI to an exit code, DESIGN §7).
type Class int

const (
	ClassError       Class = iota // a general error (exit 1)
	ClassUsage                    // bad arguments or an invalid template or config (exit 2)
	ClassPartial                  // warnings under --strict (exit 3)
	ClassNotFound                 // a template or task not found (exit 5)
	ClassTimeout                  // a time limit ran out (exit 10)
	ClassInterrupted              // stopped by SIGINT or SIGTERM (exit 130)
)

// Error is a failure with a stable code. Problems, when set, are the
// positioned problems of an invalid template or config file (a front door
// prints them, or sends them as the error's details); Details is any other
// structured detail (a run's record).
type Error struct {
	Code  diag.Code
	Class Class
	// Arg, for an invalid request field, is the field as the engine names
	// it ("style"), and Message starts with it: a front door names the
	// field as its users know it (the CLI as the flag --style).
	Arg      string
	Message  string
	Problems []diag.Problem
	Details  any
}

func (e *Error) Error() string { return e.Message }

// UsageError is a usage error (ARG_INVALID, ClassUsage).
func UsageError(format string, a ...any) error {
	return &Error{Code: diag.ArgInvalid, Class: ClassUsage, Message: fmt.Sprintf(format, a...)}
}

// checkStyle refuses a style that is none of Styles ("" is the settings').
func checkStyle(style string) error {
	switch style {
	case "", "xml", "markdown", "plain":
		return nil
	}
	return &Error{Code: diag.ArgInvalid, Class: ClassUsage, Arg: "style",
		Message: fmt.Sprintf("style must be xml, markdown or plain, not %q", style)}
}

// codedErr is an error with code and class.
func codedErr(code diag.Code, class Class, format string, a ...any) error {
	return &Error{Code: code, Class: class, Message: fmt.Sprintf(format, a...)}
}

// Invalid is the error of a file with problems: TEMPLATE_INVALID, a usage
// error, "FILE: N problem(s)".
func Invalid(file string, probs []diag.Problem) *Error {
	return &Error{Code: diag.TemplateInvalid, Class: ClassUsage, Problems: probs,
		Message: fmt.Sprintf("%s: %d problem(s)", file, len(probs))}
}

// Classify maps any error to an *Error: taskctl's state refused (a
// *state.UnsafeError) is STATE_UNSAFE, a deadline is a timeout, a
// cancellation an interruption, anything else a general error.
func Classify(err error) *Error {
	var ee *Error
	if errors.As(err, &ee) {
		return ee
	}
	var unsafe *state.UnsafeError
	if errors.As(err, &unsafe) {
		return &Error{Code: unsafe.Code(), Class: ClassError, Message: err.Error()}
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return &Error{Code: diag.Timeout, Class: ClassTimeout, Message: err.Error()}
	}
	if errors.Is(err, context.Canceled) {
		return &Error{Code: diag.Interrupted, Class: ClassInterrupted, Message: err.Error()}
	}
	return &Error{Code: diag.Error, Class: ClassError, Message: err.Error()}
}
