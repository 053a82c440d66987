package diag

import (
	"fmt"
	"strconv"
	"strings"
)

// A Code is a stable diagnostic code, such as PATH_OUTSIDE_PROJECT.
type Code string

// A Warning is something left out, cut short or changed, with the reason.
// It is reported, not fatal: the command goes on without the path.
//
// Path is absolute where the warning concerns one file or directory. When
// the input could not be resolved at all (it holds a NUL byte, say) the
// path-resolving packages put the raw input in Path and the CLI, which
// prints only absolute paths, moves it into Message, quoted.
type Warning struct {
	Code    Code   `json:"code"`
	Message string `json:"message"`
	Path    string `json:"path,omitempty"`
	// Line and Col (1-based) are the position in Path the warning is
	// about, when it has one (a template's warning); the message then
	// starts with "LINE:COL: " too, as it always did for the envelope's
	// readers. A front door takes the position from these fields.
	Line int `json:"line,omitempty"`
	Col  int `json:"col,omitempty"`
}

// At is the warning of a positioned problem p (a template check's
// warning): its code, file and position, the position kept as fields.
func At(p Problem) Warning {
	return Warning{Code: p.Code, Path: p.File, Line: p.Line, Col: p.Col,
		Message: fmt.Sprintf("%d:%d: %s", p.Line, p.Col, p.Message)}
}

// String renders w on one line, as every front door shows a warning:
// "CODE: PATH: MESSAGE", or "CODE: PATH:LINE:COL: MESSAGE" for a warning
// with a position (an editor jumps to it, as to a problem), or "CODE:
// MESSAGE" without a path. A path holding a character not printed as
// itself is quoted; further lines of the message (a command's stderr)
// are indented under the first.
func (w Warning) String() string {
	msg := strings.ReplaceAll(strings.TrimRight(w.Message, "\n"), "\n", "\n    ")
	if w.Path == "" {
		return fmt.Sprintf("%s: %s", w.Code, msg)
	}
	path := w.Path
	// A path holding a character not printed as itself (a newline, ESC, a
	// bidirectional control, which would act on a terminal) is quoted.
	if strings.ContainsFunc(path, func(r rune) bool { return !strconv.IsPrint(r) }) {
		path = strconv.Quote(path)
	}
	if w.Line > 0 {
		pos := fmt.Sprintf("%d:%d: ", w.Line, w.Col)
		return fmt.Sprintf("%s: %s:%s%s", w.Code, path, pos, strings.TrimPrefix(msg, pos))
	}
	return fmt.Sprintf("%s: %s: %s", w.Code, path, msg)
}

// Error makes a *Warning usable as an error: "CODE: path: message".
func (w *Warning) Error() string {
	if w.Path != "" {
		return fmt.Sprintf("%s: %s: %s", w.Code, w.Path, w.Message)
	}
	return fmt.Sprintf("%s: %s", w.Code, w.Message)
}

// A Problem is one thing wrong (or, with a Code, probably wrong) at a
// position of a file: a schema violation, a template's semantic error, a
// warning of the template check. Line and Col are 1-based, Col in code
// points; both are 0 when the problem has no position.
type Problem struct {
	File    string `json:"file"`
	Line    int    `json:"line"`
	Col     int    `json:"col"`
	Message string `json:"message"`
	Code    Code   `json:"code,omitempty"` // set on warnings, empty on errors
}

// String is "file:line:col: message".
func (p Problem) String() string {
	return fmt.Sprintf("%s:%d:%d: %s", p.File, p.Line, p.Col, p.Message)
}

// Lines is problems as an error message: each as String writes it, one a
// line. It is the Error text of the packages' positioned error types
// (schema.ValidationError, template.Error).
func Lines(problems []Problem) string {
	var b strings.Builder
	for i, p := range problems {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(p.String())
	}
	return b.String()
}
