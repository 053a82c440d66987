package shellexec

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	billy "github.com/go-git/go-billy/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
	"github.com/go-git/go-git/v5/storage/filesystem"
)

// errReadOnly refuses every write go-git might try: the object store is
// only read.
var errReadOnly = errors.New("the git directory is read-only here")

// gitDirFS is a repository's git directory as a read-only
// billy.Filesystem over the project's root, for go-git's object storage:
// loose objects, packs and refs are opened as every other file is, and
// nothing outside the project (an alternates file naming another
// repository) can be read.
type gitDirFS struct {
	fs   *projectFS
	base string // absolute
}

func (g gitDirFS) Open(name string) (billy.File, error) {
	f, err := g.fs.gitOpen(g.base, filepath.FromSlash(name))
	if err != nil {
		return nil, err
	}
	return gitFile{f, name}, nil
}

func (g gitDirFS) OpenFile(name string, flag int, _ os.FileMode) (billy.File, error) {
	if flag&(os.O_WRONLY|os.O_RDWR|os.O_CREATE|os.O_TRUNC|os.O_APPEND) != 0 {
		return nil, &fs.PathError{Op: "open", Path: name, Err: errReadOnly}
	}
	return g.Open(name)
}

func (g gitDirFS) Stat(name string) (os.FileInfo, error) {
	return g.fs.gitStat(g.base, filepath.FromSlash(name), true)
}
func (g gitDirFS) Lstat(name string) (os.FileInfo, error) {
	return g.fs.gitStat(g.base, filepath.FromSlash(name), false)
}
func (g gitDirFS) Readlink(name string) (string, error) {
	return g.fs.gitReadlink(g.base, filepath.FromSlash(name))
}
func (g gitDirFS) ReadDir(name string) ([]os.FileInfo, error) {
	ents, err := g.fs.gitReadDir(g.base, filepath.FromSlash(name))
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
func (g gitDirFS) Join(elem ...string) string { return filepath.Join(elem...) }
func (g gitDirFS) Root() string               { return g.base }
func (g gitDirFS) Chroot(p string) (billy.Filesystem, error) {
	return gitDirFS{g.fs, filepath.Join(g.base, p)}, nil
}
func (g gitDirFS) Create(name string) (billy.File, error) {
	return nil, &fs.PathError{Op: "create", Path: name, Err: errReadOnly}
}
func (g gitDirFS) Rename(from, _ string) error {
	return &fs.PathError{Op: "rename", Path: from, Err: errReadOnly}
}
func (g gitDirFS) Remove(name string) error {
	return &fs.PathError{Op: "remove", Path: name, Err: errReadOnly}
}
func (g gitDirFS) TempFile(dir, _ string) (billy.File, error) {
	return nil, &fs.PathError{Op: "create", Path: dir, Err: errReadOnly}
}
func (g gitDirFS) MkdirAll(name string, _ os.FileMode) error {
	return &fs.PathError{Op: "mkdir", Path: name, Err: errReadOnly}
}
func (g gitDirFS) Symlink(_, link string) error {
	return &fs.PathError{Op: "symlink", Path: link, Err: errReadOnly}
}

// gitFile is an opened file of the git directory.
type gitFile struct {
	*os.File
	name string
}

func (f gitFile) Name() string  { return f.name }
func (f gitFile) Lock() error   { return nil }
func (f gitFile) Unlock() error { return nil }

// treeEntry is a blob of a tree: its hash and mode.
type treeEntry struct {
	hash plumbing.Hash
	mode filemode.FileMode
}

// gitTree reads the tree of revision rev (HEAD, HEAD~3, a branch, a tag,
// a hash) from the object store st: path -> entry, blobs and symlinks
// (submodules are left out). A status of 128 means it reported why not.
func (c *cmd) gitTree(st *filesystem.Storage, rev string) (map[string]treeEntry, int) {
	t, err := c.readTree(st, rev)
	if err != nil {
		c.errorf("fatal: bad revision '%s': %v", rev, err)
		return nil, 128
	}
	return t, 0
}

// gitTreeQuiet is gitTree that reports nothing: whether rev names a
// revision decides how git diff reads an argument.
func (c *cmd) gitTreeQuiet(st *filesystem.Storage, rev string) (map[string]treeEntry, int) {
	t, err := c.readTree(st, rev)
	if err != nil {
		return nil, 128
	}
	return t, 0
}

// objectStore is the object store of the repository at top, read through
// the project's root.
func (c *cmd) objectStore(top string) *filesystem.Storage {
	return filesystem.NewStorage(gitDirFS{c.fs, filepath.Join(top, ".git")}, cache.NewObjectLRUDefault())
}

func (c *cmd) readTree(st *filesystem.Storage, rev string) (map[string]treeEntry, error) {
	commit, err := resolveRevision(st, rev)
	if err != nil {
		return nil, err
	}
	tree, err := commit.Tree()
	if err != nil {
		return nil, err
	}
	out := map[string]treeEntry{}
	walker := object.NewTreeWalker(tree, true, nil)
	defer walker.Close()
	for {
		name, e, err := walker.Next()
		if err != nil {
			break
		}
		if e.Mode == filemode.Dir || e.Mode == filemode.Submodule {
			continue
		}
		out[name] = treeEntry{e.Hash, e.Mode}
		if c.ctx.Err() != nil {
			break
		}
	}
	return out, nil
}

// resolveRevision resolves the revisions people write after git diff: a
// full hash, HEAD, a branch, a tag or a remote branch, each optionally
// followed by ~N, ^ or ^N (first parents, or the Nth parent).
func resolveRevision(st *filesystem.Storage, rev string) (*object.Commit, error) {
	base := rev
	if i := strings.IndexAny(rev, "~^"); i >= 0 {
		base, rev = rev[:i], rev[i:]
	} else {
		rev = ""
	}
	h, err := resolveBase(st, base)
	if err != nil {
		return nil, err
	}
	commit, err := object.GetCommit(st, h)
	if err != nil {
		return nil, err
	}
	for rev != "" {
		op := rev[0]
		rev = rev[1:]
		n, k := 1, 0
		for k < len(rev) && rev[k] >= '0' && rev[k] <= '9' {
			k++
		}
		if k > 0 {
			if n, err = strconv.Atoi(rev[:k]); err != nil {
				return nil, err
			}
			rev = rev[k:]
		}
		switch op {
		case '~':
			for ; n > 0; n-- {
				if commit, err = commit.Parent(0); err != nil {
					return nil, err
				}
			}
		case '^':
			if n == 0 {
				continue
			}
			if commit, err = commit.Parent(n - 1); err != nil {
				return nil, err
			}
		default:
			return nil, fmt.Errorf("unsupported revision syntax %q", string(op)+rev)
		}
	}
	return commit, nil
}

// resolveBase is the commit a name or a full hash names; an annotated
// tag is peeled to its commit.
func resolveBase(st *filesystem.Storage, name string) (plumbing.Hash, error) {
	if len(name) == 40 && plumbing.IsHash(name) {
		return plumbing.NewHash(name), nil
	}
	for _, full := range []string{name, "refs/" + name, "refs/tags/" + name, "refs/heads/" + name, "refs/remotes/" + name} {
		ref, err := storer.ResolveReference(st, plumbing.ReferenceName(full))
		if err != nil {
			continue
		}
		h := ref.Hash()
		if tag, err := object.GetTag(st, h); err == nil {
			if c, err := tag.Commit(); err == nil {
				return c.Hash, nil
			}
		}
		return h, nil
	}
	return plumbing.ZeroHash, errors.New("unknown revision (only names and full hashes)")
}
