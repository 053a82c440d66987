package shellexec

import (
	"errors"
	"io/fs"
	"os"

	"github.com/taskctl/taskctl/root"
)

// How a command's path becomes an open file is the confined root's
// (root.Shell, #21 points 2 and 4, #29): the path is made root-relative
// here (one that leaves the project lexically is refused before anything
// is looked at), then opened by the root along a path with no symbolic
// link, a link resolved inside the root and the real path opened again,
// nothing inside .git/ or .taskctl/ (git's own reads there go through the
// root's view of the git directory, root.GitDir), and
// the root's name policy for every file whose content a command reads,
// by the name given and by the real path. The content policy follows the
// read (judge, content.go).

var (
	// errOutside is the error for any path that leaves the project.
	errOutside = root.ErrOutside
	// errNotRegular is the refusal of a FIFO, device or socket.
	errNotRegular = root.ErrNotRegular
)

// stateError is the refusal of a path inside .git/ or .taskctl/.
type stateError = root.StateError

// refusedError is the root's reason for keeping a file's content from a
// command (its name policy, or the content policy in judge).
type refusedError = root.RefusedError

func isRefused(err error) bool {
	_, ok := errors.AsType[refusedError](err)
	return ok
}

// isStateName reports whether a directory entry is .git or .taskctl (any
// case): walks do not enter it.
func isStateName(name string) bool { return root.AlwaysExcluded(name) }

// openOpts say what an open is for.
type openOpts struct {
	content bool // the content will be read: the root's name policy applies
	// charge, if set, is asked for the size of a file read whole before
	// its buffer is allocated (the run's memory budget).
	charge func(int64) error
}

func (o openOpts) mode() root.Mode {
	var m root.Mode
	if o.content {
		m |= root.ModeContent
	}
	return m
}

// open opens name (relative to dir) for reading through the root. It
// returns the file and its real root-relative path.
func (f *projectFS) open(dir, name string, o openOpts) (*os.File, string, error) {
	rel, err := f.rel(dir, name)
	if err != nil {
		return nil, "", err
	}
	fh, real, err := f.sh.Open(rel, o.mode())
	if err != nil {
		return nil, "", f.pathErr("open", dir, name, err)
	}
	return fh, real, nil
}

// refusedName asks the root's name policy about a file a walk met (a
// regular file getdents listed, read from its directory without following
// a link): its name is its own.
func (f *projectFS) refusedName(dir, name string) error {
	rel, ok := relInside(f.rootDir, abs(dir, name))
	if !ok {
		return nil
	}
	if err := f.sh.Refusal(rel); err != nil {
		return &fs.PathError{Op: "open", Path: name, Err: err}
	}
	return nil
}

// A walkDir is a directory open during a walk (find, grep -r): a root
// handle (root.Handle), opened from its parent by a name getdents
// returned, never following a symbolic link.
type walkDir = root.Handle

// openWalk opens the directory name (relative to dir) for a walk, as
// every path of a command is opened.
func (f *projectFS) openWalk(dir, name string) (*walkDir, error) {
	rel, err := f.rel(dir, name)
	if err != nil {
		return nil, err
	}
	d, err := f.sh.OpenHandle(rel)
	if err != nil {
		return nil, f.pathErr("open", dir, name, err)
	}
	return d, nil
}
