package memory

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	billy "github.com/go-git/go-billy/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
	"github.com/go-git/go-git/v5/storage/filesystem"
)

// GitLog reads a repository's commits from its git directory with go-git,
// through an *os.Root of that directory: every file git's object store
// opens (loose objects, packs, refs) is opened beneath it, so nothing
// outside it (an alternates file naming another repository, a link out of
// it) is read, and nothing is ever written.
type GitLog struct {
	st *filesystem.Storage
}

// OpenGitLog returns the log of the git directory dir, an *os.Root the
// caller keeps open while the log is used. It fails when dir holds no
// repository git can read.
func OpenGitLog(dir *os.Root) (*GitLog, error) {
	if _, err := dir.Stat("HEAD"); err != nil {
		return nil, err
	}
	if _, err := dir.Stat("objects"); err != nil {
		return nil, err
	}
	// packs stay open while the log is read (go-git would open a pack
	// again for every object); Close closes them
	st := filesystem.NewStorageWithOptions(rootFS{dir}, cache.NewObjectLRU(8<<20), filesystem.Options{KeepDescriptors: true})
	return &GitLog{st: st}, nil
}

// Close closes the files the log keeps open.
func (g *GitLog) Close() error { return g.st.Close() }

// Head returns the commit HEAD names, "" when it names none (an unborn
// branch).
func (g *GitLog) Head() (string, error) {
	ref, err := storer.ResolveReference(g.st, plumbing.HEAD)
	if errors.Is(err, plumbing.ErrReferenceNotFound) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	return ref.Hash().String(), nil
}

// Log calls fn with the commits reachable from head and not from since
// ("" for none), newest first (by committer time, as git log lists them),
// merges left out, until fn returns false or an error. A commit's Changed
// lists the paths it changed against its parent; it is read only when
// called. It reports whether since is a parent of a commit it walked
// (head descends from since, and the commits before since are those
// listed from since before).
func (g *GitLog) Log(ctx context.Context, head, since string, fn func(LogCommit) (bool, error)) (bool, error) {
	if !plumbing.IsHash(head) {
		return false, errors.New("not a commit hash: " + head)
	}
	c, err := object.GetCommit(g.st, plumbing.NewHash(head))
	if err != nil {
		return false, err
	}
	var ignore []plumbing.Hash
	var stop plumbing.Hash
	if plumbing.IsHash(since) {
		stop = plumbing.NewHash(since)
		ignore = []plumbing.Hash{stop}
	}
	reached := c.Hash == stop
	it := object.NewCommitIterCTime(c, nil, ignore)
	defer it.Close()
	for {
		if err := ctx.Err(); err != nil {
			return false, err
		}
		c, err := it.Next()
		if err == io.EOF || errors.Is(err, plumbing.ErrObjectNotFound) {
			// the end, or of what a shallow clone holds
			return reached, nil
		}
		if err != nil {
			return false, err
		}
		if !stop.IsZero() && slices.Contains(c.ParentHashes, stop) {
			reached = true
		}
		if c.NumParents() != 1 {
			continue // a merge repeats its branches' changes; a root commit adds the whole tree
		}
		more, err := fn(LogCommit{Hash: c.Hash.String(), Message: c.Message, Changed: func() ([]string, error) {
			return g.changedPaths(c, historyMaxFiles)
		}})
		if err != nil || !more {
			return reached, err
		}
	}
}

// changedPaths lists the paths c changes against its one parent, or
// more than limit of them when it changes more (the rest unlisted). A
// parent a shallow clone lacks gives plumbing.ErrObjectNotFound.
func (g *GitLog) changedPaths(c *object.Commit, limit int) ([]string, error) {
	p, err := c.Parent(0)
	if err != nil {
		return nil, err
	}
	var out []string
	err = g.diffTrees(p.TreeHash, c.TreeHash, "", &out, limit)
	if errors.Is(err, errTooMany) {
		err = nil
	}
	return out, err
}

// errTooMany stops diffTrees past its limit.
var errTooMany = errors.New("too many changes")

// diffTrees appends to out the paths of the files that differ between the
// trees a and b (either may be the zero hash: no tree), below prefix.
// Entries of equal hashes are not looked into, so a commit costs the
// trees along the paths it changed.
func (g *GitLog) diffTrees(a, b plumbing.Hash, prefix string, out *[]string, limit int) error {
	if a == b {
		return nil
	}
	ea, err := g.entries(a)
	if err != nil {
		return err
	}
	eb, err := g.entries(b)
	if err != nil {
		return err
	}
	for name, x := range ea {
		y := eb[name]
		if x.Hash == y.Hash && x.Mode == y.Mode {
			continue
		}
		if err := g.diffEntry(prefix+name, x, y, out, limit); err != nil {
			return err
		}
	}
	for name, y := range eb {
		if _, ok := ea[name]; !ok {
			if err := g.diffEntry(prefix+name, object.TreeEntry{}, y, out, limit); err != nil {
				return err
			}
		}
	}
	return nil
}

// diffEntry notes the change of one entry, path, from x to y (a zero
// entry: none).
func (g *GitLog) diffEntry(path string, x, y object.TreeEntry, out *[]string, limit int) error {
	if isFile(x) || isFile(y) {
		*out = append(*out, path)
		if len(*out) > limit {
			return errTooMany
		}
	}
	var subA, subB plumbing.Hash
	if x.Mode == filemode.Dir {
		subA = x.Hash
	}
	if y.Mode == filemode.Dir {
		subB = y.Hash
	}
	return g.diffTrees(subA, subB, path+"/", out, limit)
}

// isFile reports whether e is a file (a blob or a link), not a directory,
// a submodule or no entry.
func isFile(e object.TreeEntry) bool {
	return !e.Hash.IsZero() && e.Mode != filemode.Dir && e.Mode != filemode.Submodule
}

// entries returns the entries of the tree h by name (none for the zero
// hash).
func (g *GitLog) entries(h plumbing.Hash) (map[string]object.TreeEntry, error) {
	if h.IsZero() {
		return nil, nil
	}
	t, err := object.GetTree(g.st, h)
	if err != nil {
		return nil, err
	}
	m := make(map[string]object.TreeEntry, len(t.Entries))
	for _, e := range t.Entries {
		m[e.Name] = e
	}
	return m, nil
}

// errReadOnly refuses every write go-git might try.
var errReadOnly = errors.New("the git directory is only read")

// rootFS is a git directory as a read-only billy.Filesystem over an
// *os.Root of it (go-git's object storage reads through it).
type rootFS struct{ r *os.Root }

// rel makes a name of go-git's relative to the root: go-git joins names
// with Join and may pass them back absolute only through Root, which is
// "" here, so every name is relative already; "." and "" are the root.
func (f rootFS) rel(name string) string {
	name = filepath.Clean(filepath.FromSlash(name))
	if name == "" {
		return "."
	}
	return name
}

func (f rootFS) Open(name string) (billy.File, error) {
	fh, err := f.r.Open(f.rel(name))
	if err != nil {
		return nil, err
	}
	return rootFile{fh, name}, nil
}

func (f rootFS) OpenFile(name string, flag int, _ os.FileMode) (billy.File, error) {
	if flag&(os.O_WRONLY|os.O_RDWR|os.O_CREATE|os.O_TRUNC|os.O_APPEND) != 0 {
		return nil, &fs.PathError{Op: "open", Path: name, Err: errReadOnly}
	}
	return f.Open(name)
}

func (f rootFS) Stat(name string) (os.FileInfo, error)  { return f.r.Stat(f.rel(name)) }
func (f rootFS) Lstat(name string) (os.FileInfo, error) { return f.r.Lstat(f.rel(name)) }
func (f rootFS) Readlink(name string) (string, error) {
	return "", &fs.PathError{Op: "readlink", Path: name, Err: errors.ErrUnsupported}
}

func (f rootFS) ReadDir(name string) ([]os.FileInfo, error) {
	d, err := f.r.Open(f.rel(name))
	if err != nil {
		return nil, err
	}
	defer d.Close()
	ents, err := d.ReadDir(-1)
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

func (f rootFS) Join(elem ...string) string { return filepath.Join(elem...) }
func (f rootFS) Root() string               { return "" }
func (f rootFS) Chroot(p string) (billy.Filesystem, error) {
	sub, err := f.r.OpenRoot(f.rel(p))
	if err != nil {
		return nil, err
	}
	return rootFS{sub}, nil
}
func (f rootFS) Create(name string) (billy.File, error) {
	return nil, &fs.PathError{Op: "create", Path: name, Err: errReadOnly}
}
func (f rootFS) Rename(from, _ string) error {
	return &fs.PathError{Op: "rename", Path: from, Err: errReadOnly}
}
func (f rootFS) Remove(name string) error {
	return &fs.PathError{Op: "remove", Path: name, Err: errReadOnly}
}
func (f rootFS) TempFile(dir, _ string) (billy.File, error) {
	return nil, &fs.PathError{Op: "create", Path: dir, Err: errReadOnly}
}
func (f rootFS) MkdirAll(name string, _ os.FileMode) error {
	return &fs.PathError{Op: "mkdir", Path: name, Err: errReadOnly}
}
func (f rootFS) Symlink(_, link string) error {
	return &fs.PathError{Op: "symlink", Path: link, Err: errReadOnly}
}

// rootFile is an opened file of the git directory.
type rootFile struct {
	*os.File
	name string
}

func (f rootFile) Name() string  { return f.name }
func (f rootFile) Lock() error   { return nil }
func (f rootFile) Unlock() error { return nil }
