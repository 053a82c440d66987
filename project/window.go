package project

import (
	"io/fs"

	"github.com/taskctl/taskctl/internal/diag"
	"github.com/taskctl/taskctl/root"
	"github.com/taskctl/taskctl/state"
)

// readInWindow reads win of name in d (abs), which readIn found to be a
// regular file of one link, through the same confined open as a whole read.
func (f *FS) readInWindow(d *state.Dir, name, abs string, win *root.Window) (*root.File, *diag.Warning) {
	fh, err := d.Open(name)
	if err != nil {
		return nil, refusal(abs, err)
	}
	defer fh.Close()
	st, err := fh.Stat()
	if err != nil {
		return nil, refusal(abs, err)
	}
	if !st.Mode().IsRegular() {
		return nil, refusal(abs, &fs.PathError{Op: "read", Path: abs, Err: state.ErrNotRegular})
	}
	return root.WindowFile(fh, abs, f.p.fsys.Rel(abs), st, win, f.p.Policy().MaxFileBytes)
}
