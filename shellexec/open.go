package shellexec

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/taskctl/taskctl/project"
)

// How a command's path becomes an open file (#21 points 2 and 4):
//
//  1. The path is made root-relative (rel); one that leaves the project
//     lexically is refused before anything is looked at.
//  2. A path inside .git/ or .taskctl/ (any case) is refused: commands read
//     nothing there. Naming .git itself (ls -a, test -d) is not reading.
//  3. The file is opened only along a path with no symbolic link in it
//     (openat2 with RESOLVE_NO_SYMLINKS on Linux), after an O_PATH
//     descriptor of it said it is a regular file or a directory, so a FIFO,
//     device or socket is refused before it is ever opened. When the path
//     holds a link, the links are resolved inside the root (realRel: an
//     absolute or ".." target leading outside is refused without looking
//     at it), step 2 is applied to the real path, and that real path is
//     opened the same way: a link swapped in meanwhile makes the open fail
//     instead of being followed.
//  4. A file whose content a command reads is checked against
//     Config.Refuse by the name it was given and by its real path, which is
//     the path of what was opened.

// stateError is the refusal of a path inside .git/ or .taskctl/.
type stateError struct{ dir string }

func (e *stateError) Error() string {
	return "inside " + filepath.Base(e.dir) + "/: commands never read there"
}

// stateDir returns the .git or .taskctl directory the root-relative path
// rel lies inside, or "". With self, rel naming such a directory itself
// counts too (listing it is reading inside it).
func stateDir(rel string, self bool) string {
	rel = filepath.ToSlash(rel)
	d := project.AlwaysExcludedDir(rel)
	if d == "" || d == rel && !self {
		return ""
	}
	return d
}

// isStateName reports whether a directory entry is .git or .taskctl (any
// case): walks do not enter it.
func isStateName(name string) bool {
	return project.AlwaysExcludedDir(name) == name
}

var (
	// errLink says a path holds a symbolic link: resolve it and try again.
	errLink = errors.New("path holds a symbolic link")
	// errSwapped says a path changed between its resolution and its open.
	errSwapped = errors.New("changed while it was opened (a symbolic link was swapped in)")
)

// realRel resolves the symbolic links of the clean root-relative path rel
// inside the root, as the kernel would, and returns the root-relative path
// of the file, which holds no link at the time of the lookup. A link
// leading outside the root (an absolute target elsewhere, or ".." past the
// root) is errOutside: its target is not looked at. A path entering .git/
// or .taskctl/ is refused as soon as it does, so no link inside them is
// read either.
func (f *projectFS) realRel(rel string) (string, error) {
	todo := splitRel(rel, nil)
	var real []string
	links := 0
	for len(todo) > 0 {
		c := todo[0]
		todo = todo[1:]
		switch c {
		case "", ".":
			continue
		case "..":
			if len(real) == 0 {
				return "", errOutside
			}
			real = real[:len(real)-1]
			continue
		}
		if len(real) > 0 && isStateName(real[len(real)-1]) {
			return "", &stateError{dir: strings.Join(real, "/")}
		}
		p := strings.Join(append(real, c), "/")
		fi, err := f.root.Lstat(p)
		if err != nil {
			return "", err
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			if len(todo) > 0 && !fi.IsDir() {
				return "", syscall.ENOTDIR
			}
			real = append(real, c)
			continue
		}
		if links++; links > 40 {
			return "", syscall.ELOOP
		}
		t, err := f.root.Readlink(p)
		if err != nil {
			return "", err
		}
		if t == "" {
			return "", syscall.ENOENT
		}
		if filepath.IsAbs(t) {
			r, ok := relInside(f.rootDir, filepath.Clean(t))
			if !ok {
				return "", errOutside
			}
			real = real[:0]
			t = r
		}
		todo = splitRel(t, todo)
	}
	if len(real) == 0 {
		return ".", nil
	}
	return strings.Join(real, "/"), nil
}

// splitRel returns the components of p followed by rest.
func splitRel(p string, rest []string) []string {
	comps := strings.Split(filepath.ToSlash(p), "/")
	return append(comps, rest...)
}

// openOpts say what an open is for.
type openOpts struct {
	state   bool // may open inside .git/ (git's own reads)
	content bool // the content will be read: ask Config.Refuse
	// charge, if set, is asked for the size of a file read whole before
	// its buffer is allocated (the run's memory budget).
	charge func(int64) error
}

// open opens name (relative to dir) for reading, as the steps above say.
// It returns the file and its real root-relative path.
func (f *projectFS) open(dir, name string, o openOpts) (*os.File, string, error) {
	rel, err := f.rel(dir, name)
	if err != nil {
		return nil, "", err
	}
	if d := stateDir(rel, true); d != "" && !o.state {
		return nil, "", &fs.PathError{Op: "open", Path: name, Err: &stateError{dir: d}}
	}
	fh, err := f.openNoLinks(rel)
	real := rel
	if errors.Is(err, errLink) {
		if real, err = f.realRel(rel); err == nil {
			if d := stateDir(real, true); d != "" && !o.state {
				err = &stateError{dir: d}
			} else if fh, err = f.openNoLinks(real); errors.Is(err, errLink) {
				err = errSwapped
			}
		}
	}
	if err != nil {
		return nil, "", f.pathErr("open", dir, name, err)
	}
	if o.content && f.refuse != nil {
		why := f.refuse(dir, name, false)
		if why == "" && real != rel {
			why = f.refuse(f.rootDir, filepath.FromSlash(real), false)
		}
		if why != "" {
			fh.Close()
			return nil, "", &fs.PathError{Op: "open", Path: name, Err: refusedError(why)}
		}
	}
	return fh, real, nil
}

// refusedName asks Config.Refuse about a file a walk met (a regular file
// getdents listed, read from its directory without following a link): its
// name is its own.
func (f *projectFS) refusedName(dir, name string) error {
	if f.refuse == nil {
		return nil
	}
	if why := f.refuse(dir, name, false); why != "" {
		return &fs.PathError{Op: "open", Path: name, Err: refusedError(why)}
	}
	return nil
}

// refusedError is Config.Refuse's reason for keeping a file's content from
// a command.
type refusedError string

func (e refusedError) Error() string { return string(e) }

func isRefused(err error) bool {
	_, ok := errors.AsType[refusedError](err)
	return ok
}

// openNoLinksPortable is openNoLinks through the os.Root alone: each
// component of rel is lstat'ed (a link is errLink, a last component that is
// neither a regular file nor a directory errNotRegular, both before any
// open), then rel is opened and fstat'ed. A link swapped into a component
// between the two is followed, but only inside the root.
func openNoLinksPortable(root *os.Root, rel string) (*os.File, error) {
	for i := 0; i <= len(rel); i++ {
		if i < len(rel) && rel[i] != '/' {
			continue
		}
		fi, err := root.Lstat(rel[:i])
		if err != nil {
			return nil, err
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			return nil, errLink
		}
		if i == len(rel) && !fi.Mode().IsRegular() && !fi.IsDir() {
			return nil, errNotRegular
		}
	}
	fh, err := root.OpenFile(rel, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOCTTY, 0)
	if err != nil {
		return nil, err
	}
	if fi, err := fh.Stat(); err != nil || !fi.Mode().IsRegular() && !fi.IsDir() {
		fh.Close()
		return nil, errNotRegular
	}
	return fh, nil
}

// statPath checks the root-relative path r that stat or lstat is about to
// look up: nothing inside .git/ or .taskctl/, by name or through a symlink
// in a directory component (the os.Root follows those while they stay
// inside). It returns the path to look up: r, or r with its directory
// resolved.
func (f *projectFS) statPath(r string) (string, error) {
	if d := stateDir(r, false); d != "" {
		return "", &stateError{dir: d}
	}
	i := strings.LastIndexByte(r, '/')
	if i < 0 {
		return r, nil
	}
	dir, base := r[:i], r[i+1:]
	if !f.dirHasLinks(dir) {
		return r, nil
	}
	real, err := f.realRel(dir)
	if err != nil {
		return "", err
	}
	if d := stateDir(real, true); d != "" {
		return "", &stateError{dir: d}
	}
	return real + "/" + base, nil
}

// The git directory as go-git reads it (git diff's and git status's
// object store, through gitDirFS): the read-policy hook that lets git's own
// reads, and only them, inside .git/. Paths still stay in the project.

func (f *projectFS) gitOpen(dir, name string) (*os.File, error) {
	fh, _, err := f.open(dir, name, openOpts{state: true})
	return fh, err
}

func (f *projectFS) gitStat(dir, name string, follow bool) (fs.FileInfo, error) {
	r, err := f.rel(dir, name)
	if err != nil {
		return nil, err
	}
	var fi fs.FileInfo
	if follow {
		fi, err = f.root.Stat(r)
	} else {
		fi, err = f.root.Lstat(r)
	}
	if err != nil {
		return nil, f.pathErr("stat", dir, name, err)
	}
	return fi, nil
}

func (f *projectFS) gitReadlink(dir, name string) (string, error) {
	r, err := f.rel(dir, name)
	if err != nil {
		return "", err
	}
	t, err := f.root.Readlink(r)
	if err != nil {
		return "", f.pathErr("readlink", dir, name, err)
	}
	return t, nil
}

func (f *projectFS) gitReadDir(dir, name string) ([]fs.DirEntry, error) {
	return f.listDir(f.gitOpen, dir, name)
}
