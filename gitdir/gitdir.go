package gitdir

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	billy "github.com/go-git/go-billy/v5"
	"github.com/taskctl/taskctl/root"
)

// ErrReadOnly refuses every write go-git might try: a git directory is
// only read here.
var ErrReadOnly = errors.New("the git directory is read-only here")

// FS returns g as a read-only billy.Filesystem for go-git's storage.
// Names are relative to the git directory (Root is ""); Chroot narrows
// the view to a directory below, lexically, names still opened beneath g.
func FS(g *root.GitDir) billy.Filesystem { return fsys{g: g} }

// fsys is the billy.Filesystem of FS: a root.GitDir and the directory
// below it (base, slash-separated, "" for the git directory) that Chroot
// narrowed it to.
type fsys struct {
	g    *root.GitDir
	base string
}

// name returns name relative to the git directory. A name leaving base
// is left for the GitDir to refuse when it leaves the git directory.
func (f fsys) name(name string) string {
	if f.base == "" {
		return name
	}
	return f.base + "/" + filepath.ToSlash(name)
}

func (f fsys) Open(name string) (billy.File, error) {
	fh, err := f.g.Open(f.name(name))
	if err != nil {
		return nil, err
	}
	return file{fh, name}, nil
}

func (f fsys) OpenFile(name string, flag int, _ os.FileMode) (billy.File, error) {
	if flag&(os.O_WRONLY|os.O_RDWR|os.O_CREATE|os.O_TRUNC|os.O_APPEND) != 0 {
		return nil, &fs.PathError{Op: "open", Path: name, Err: ErrReadOnly}
	}
	return f.Open(name)
}

func (f fsys) Stat(name string) (os.FileInfo, error)  { return f.g.Stat(f.name(name)) }
func (f fsys) Lstat(name string) (os.FileInfo, error) { return f.g.Lstat(f.name(name)) }
func (f fsys) Readlink(name string) (string, error)   { return f.g.Readlink(f.name(name)) }

func (f fsys) ReadDir(name string) ([]os.FileInfo, error) {
	ents, err := f.g.ReadDir(f.name(name))
	if err != nil {
		return nil, err
	}
	out := make([]os.FileInfo, 0, len(ents))
	for _, e := range ents {
		if fi, err := e.Info(); err == nil {
			out = append(out, fi)
		}
	}
	return out, nil
}

func (f fsys) Join(elem ...string) string { return filepath.Join(elem...) }
func (f fsys) Root() string               { return "" }

func (f fsys) Chroot(p string) (billy.Filesystem, error) {
	return fsys{f.g, filepath.ToSlash(filepath.Clean(f.name(p)))}, nil
}

func (f fsys) Create(name string) (billy.File, error) {
	return nil, &fs.PathError{Op: "create", Path: name, Err: ErrReadOnly}
}
func (f fsys) Rename(from, _ string) error {
	return &fs.PathError{Op: "rename", Path: from, Err: ErrReadOnly}
}
func (f fsys) Remove(name string) error {
	return &fs.PathError{Op: "remove", Path: name, Err: ErrReadOnly}
}
func (f fsys) TempFile(dir, _ string) (billy.File, error) {
	return nil, &fs.PathError{Op: "create", Path: dir, Err: ErrReadOnly}
}
func (f fsys) MkdirAll(name string, _ os.FileMode) error {
	return &fs.PathError{Op: "mkdir", Path: name, Err: ErrReadOnly}
}
func (f fsys) Symlink(_, link string) error {
	return &fs.PathError{Op: "symlink", Path: link, Err: ErrReadOnly}
}

// file is an opened file of the git directory, named as go-git named it.
type file struct {
	*os.File
	name string
}

func (f file) Name() string  { return f.name }
func (f file) Lock() error   { return nil }
func (f file) Unlock() error { return nil }
