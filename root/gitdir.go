package root

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// A GitDir is a repository's git directory (a worktree's .git directory,
// or a bare repository) inside a Root, as git's own reads see it (go-git's
// object store, the index, info/exclude): read-only, names relative to it.
// It is the one way into .git/; every other reader of the root is kept
// out of it.
//
// Guarantees: every name is opened with the Root's opens (openat2 beneath
// the allowed directory where it serves, the *os.Root's lstat-and-open
// otherwise), along a path that holds no symbolic link: a link inside the
// git directory is never followed, so nothing outside it is read (an
// objects/info/alternates file naming another repository names a path
// outside, which is refused too). A FIFO, device or socket is refused
// before it is opened. Nothing is written.
//
// Not guaranteed: Stat, Lstat and Readlink describe a name only; between
// their look and a later open the file may change, and the open judges
// what it finds then.
type GitDir struct {
	sh  Shell  // the allowed directory the git directory lies in
	rel string // the git directory, relative to it (slash-separated, "." for itself)
}

// ErrGitLink is the refusal of a symbolic link inside a git directory.
var ErrGitLink = errors.New("a symbolic link inside the git directory (not followed)")

// GitDir returns the git directory at path (absolute; a worktree's
// top/.git, or a bare repository), which must be a directory inside one
// of r's directories, reached by its real path (links on the way are
// resolved inside that directory, as Eval does), neither .taskctl nor
// inside a .git or .taskctl directory. The error is ErrOutside, a *StateError, or
// the lookup's (fs.ErrNotExist when there is none, syscall.ENOTDIR when it
// is a file: a linked worktree's .git file names a git directory
// elsewhere, which is not read).
func (r *Root) GitDir(path string) (*GitDir, error) {
	path = filepath.Clean(path)
	d, rel := r.DirOf(path)
	if d == nil {
		return nil, ErrOutside
	}
	if rel != "." {
		// the directories on the way resolved; the git directory
		// itself is no link
		parent, err := r.eval(filepath.Dir(path), d)
		if err != nil {
			return nil, err
		}
		rel = filepath.ToSlash(d.rel(filepath.Join(parent, filepath.Base(path))))
		if rel == "." || rel == ".." || strings.HasPrefix(rel, "../") {
			return nil, ErrOutside
		}
	}
	// a state directory only as the .git it is, not .taskctl or
	// anything inside either
	if s := StateDir(rel, true); s != "" && (s != rel || !strings.EqualFold(filepath.Base(rel), ".git")) {
		return nil, &StateError{Dir: s}
	}
	fi, err := d.os.Lstat(filepath.FromSlash(rel))
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return nil, &fs.PathError{Op: "open", Path: path, Err: syscall.ENOTDIR}
	}
	return &GitDir{sh: Shell{r: r, d: d}, rel: rel}, nil
}

// GitDir returns the git directory at rel (relative to the project dir),
// as Root.GitDir does.
func (s *Shell) GitDir(rel string) (*GitDir, error) {
	return s.r.GitDir(filepath.Join(s.d.path, filepath.FromSlash(rel)))
}

// Path returns the git directory's real absolute path.
func (g *GitDir) Path() string { return filepath.Join(g.sh.d.path, filepath.FromSlash(g.rel)) }

// full returns name (relative to g, either separator) relative to the
// allowed directory, or an error when it leaves g.
func (g *GitDir) full(op, name string) (string, error) {
	n := filepath.ToSlash(filepath.Clean(filepath.FromSlash(name)))
	if n != "." && !filepath.IsLocal(n) {
		return "", &fs.PathError{Op: op, Path: name, Err: ErrOutside}
	}
	switch {
	case g.rel == ".":
		return n, nil
	case n == ".":
		return g.rel, nil
	}
	return g.rel + "/" + n, nil
}

// Open opens name for reading (a regular file or a directory; see the
// guarantees above). The file is named by its absolute path.
func (g *GitDir) Open(name string) (*os.File, error) {
	rel, err := g.full("open", name)
	if err != nil {
		return nil, err
	}
	fh, err := g.sh.openNoLinks(rel)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: gitErr(err)}
	}
	return fh, nil
}

// ReadDir lists the directory name, in the order the OS returns it.
func (g *GitDir) ReadDir(name string) ([]fs.DirEntry, error) {
	f, err := g.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.ReadDir(-1)
}

// Lstat describes name without following it.
func (g *GitDir) Lstat(name string) (fs.FileInfo, error) {
	rel, err := g.lookup("lstat", name)
	if err != nil {
		return nil, err
	}
	return g.sh.d.os.Lstat(filepath.FromSlash(rel))
}

// Stat describes name; a symbolic link is refused (ErrGitLink), not
// followed.
func (g *GitDir) Stat(name string) (fs.FileInfo, error) {
	fi, err := g.Lstat(name)
	if err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		return nil, &fs.PathError{Op: "stat", Path: name, Err: ErrGitLink}
	}
	return fi, err
}

// Readlink returns the target of the symbolic link name (which is never
// followed).
func (g *GitDir) Readlink(name string) (string, error) {
	rel, err := g.lookup("readlink", name)
	if err != nil {
		return "", err
	}
	return g.sh.d.os.Readlink(filepath.FromSlash(rel))
}

// lookup returns name relative to the allowed directory for a look at it
// (Lstat, Readlink), after making sure no directory on its way is a
// symbolic link: the *os.Root would follow one that stays inside the
// allowed directory, which may be outside g.
func (g *GitDir) lookup(op, name string) (string, error) {
	rel, err := g.full(op, name)
	if err != nil {
		return "", err
	}
	if linkedDir(g.sh.d, rel) {
		for i := 0; i < len(rel); i++ {
			if rel[i] != '/' {
				continue
			}
			fi, err := g.sh.d.os.Lstat(filepath.FromSlash(rel[:i]))
			if err != nil {
				return "", err
			}
			if fi.Mode()&fs.ModeSymlink != 0 {
				return "", &fs.PathError{Op: op, Path: name, Err: ErrGitLink}
			}
		}
	}
	return rel, nil
}

// gitErr is the cause of an open's failure in a git directory: a link
// on the way is ErrGitLink.
func gitErr(err error) error {
	if errors.Is(err, errLink) {
		return ErrGitLink
	}
	if pe, ok := errors.AsType[*fs.PathError](err); ok {
		return pe.Err
	}
	return err
}
