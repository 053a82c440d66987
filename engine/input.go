package engine

import (
	"errors"
	"fmt"
	"os"
	"syscall"

	"github.com/taskctl/taskctl/internal/diag"
	"github.com/taskctl/taskctl/root"
	"github.com/taskctl/taskctl/schema"
	"github.com/taskctl/taskctl/state"
)

// errNotRegular refuses a FIFO, a device or a socket given as a template or
// config file: opening a FIFO blocks and a device may never end.
var errNotRegular = state.ErrNotRegular

// tooLargeError is a template or config file over schema.MaxInput.
type tooLargeError struct{ size int64 }

func (e *tooLargeError) Error() string {
	return fmt.Sprintf("document is %d bytes; the limit is %d", e.size, schema.MaxInput)
}

// ReadInput reads a template or config file. Only a regular file is read
// (a FIFO is opened without blocking and refused, as are devices and
// sockets), and at most schema.MaxInput bytes of it (state.ReadRegular):
// a larger file is an
// error [InputProblem] turns into a problem, not a read that could exhaust
// memory.
func ReadInput(path string) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := state.ReadRegular(f, schema.MaxInput)
	if tl := (*state.TooLargeError)(nil); errors.As(err, &tl) {
		return nil, &tooLargeError{size: tl.Size}
	}
	return data, err
}

// readIn is ReadInput for a file of the project at dir (its config, its
// task library): read through root.ReadIn, so a symbolic
// link the repository commits there to a file outside is not followed
// (root.ErrLeavesRoot).
func readIn(dir, path string) ([]byte, error) {
	data, err := root.ReadIn(dir, path, schema.MaxInput)
	if tl := (*state.TooLargeError)(nil); errors.As(err, &tl) {
		return nil, &tooLargeError{size: tl.Size}
	}
	return data, err
}

// InputProblem turns the error of a file too large for [ReadInput] into a
// problem at 1:1, as the validator reports a document over its limit.
func InputProblem(path string, err error) (diag.Problem, bool) {
	var tl *tooLargeError
	if errors.As(err, &tl) {
		return diag.Problem{File: path, Line: 1, Col: 1, Message: tl.Error()}, true
	}
	return diag.Problem{}, false
}

// errText is err's message without the path, which the caller prints.
func errText(err error) string {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err.Error()
	}
	return err.Error()
}
