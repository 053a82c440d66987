package root

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"github.com/taskctl/taskctl/state"
)

// ErrLeavesRoot is the error (in an *fs.PathError) of ReadIn for a path
// that is, or goes through, a symbolic link leading out of the directory.
var ErrLeavesRoot = errors.New("a symbolic link leading outside the project: not followed")

// ReadIn reads the regular file at path, which must lie in dir, through an
// os.Root at dir, as state.ReadRegular reads (at most max bytes): a symbolic link
// is followed only while it stays inside dir (one leading out is
// ErrLeavesRoot, whether or not its target exists, and the target is not
// looked at), and a FIFO, device or socket is refused on lstat and on its
// resolution, before any open. It is how the repository's own files are
// read (.taskctl/config.xml, the task library): a clone's links to the
// user's files are not followed.
func ReadIn(dir, path string, max int64) ([]byte, error) {
	f, err := OpenIn(dir, path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return state.ReadRegular(f, max)
}

// OpenIn opens the regular file at path, which must lie in dir, as ReadIn
// reads it (the same links followed and refused), for a caller that reads
// it as a stream (a hash of an executor script that 'taskctl trust' pins).
func OpenIn(dir, path string) (*os.File, error) {
	rel, err := filepath.Rel(dir, path)
	if err != nil || !filepath.IsLocal(rel) {
		return nil, &fs.PathError{Op: "open", Path: path, Err: ErrLeavesRoot}
	}
	osr, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	defer osr.Close()
	st, err := osr.Lstat(rel)
	if err == nil && st.Mode()&fs.ModeSymlink != 0 {
		st, err = osr.Stat(rel)
	}
	if err != nil {
		if IsEscape(err) {
			err = ErrLeavesRoot
		} else if pe, ok := err.(*fs.PathError); ok {
			err = pe.Err
		}
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	switch {
	case st.IsDir():
		return nil, &fs.PathError{Op: "read", Path: path, Err: syscall.EISDIR}
	case !st.Mode().IsRegular():
		return nil, &fs.PathError{Op: "read", Path: path, Err: state.ErrNotRegular}
	}
	f, err := osr.OpenFile(rel, OpenFlags, 0)
	if err != nil {
		if IsEscape(err) {
			err = ErrLeavesRoot
		}
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		f.Close()
		return nil, &fs.PathError{Op: "read", Path: path, Err: state.ErrNotRegular}
	}
	return f, nil
}
