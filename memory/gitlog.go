package memory

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
	"github.com/go-git/go-git/v5/storage/filesystem"
	"github.com/taskctl/taskctl/gitdir"
	"github.com/taskctl/taskctl/root"
)

// GitLog reads a repository's commits from its git directory with go-git,
// through the confined root's view of that directory (root.GitDir, as
// gitdir.FS): every file git's object store opens (loose objects, packs,
// refs) is opened beneath it with no symbolic link followed, so nothing
// outside it (an alternates file naming another repository, a link out of
// it) is read, and nothing is ever written.
type GitLog struct {
	st *filesystem.Storage
}

// OpenGitLog returns the log of the git directory dir, whose Root the
// caller keeps open while the log is used. It fails when dir holds no
// repository git can read.
func OpenGitLog(dir *root.GitDir) (*GitLog, error) {
	if _, err := dir.Stat("HEAD"); err != nil {
		return nil, err
	}
	if _, err := dir.Stat("objects"); err != nil {
		return nil, err
	}
	if err := checkPackIndexes(dir); err != nil {
		return nil, err
	}
	// packs stay open while the log is read (go-git would open a pack
	// again for every object); Close closes them
	st := filesystem.NewStorageWithOptions(gitdir.FS(dir), cache.NewObjectLRU(8<<20), filesystem.Options{KeepDescriptors: true})
	return &GitLog{st: st}, nil
}

// maxPackIndexBytes bounds the pack indexes (objects/pack/*.idx, together)
// of a repository whose history is read. go-git reads them whole and keeps
// a map from each object's offset to its name, so reading the history
// grows with the repository's objects, not with what is read: it peaked at
// 93 MB for prometheus' 360,000 objects and 258 MB for checkstyle's 1.1
// million, and would take gigabytes for a repository of ten million. Past
// the bound the history is not read (the files are indexed as ever), so
// that it stays under the memory a refresh allows itself (see refresh.go).
// 32 MiB of indexes is about 1.2 million objects.
var maxPackIndexBytes int64 = 32 << 20

// ErrHistoryTooLarge is OpenGitLog's error for a repository past
// maxPackIndexBytes.
var ErrHistoryTooLarge = errors.New("history not read: the repository's pack indexes are past 32 MiB")

// checkPackIndexes returns ErrHistoryTooLarge when the pack indexes of dir
// are together past maxPackIndexBytes.
func checkPackIndexes(dir *root.GitDir) error {
	entries, err := dir.ReadDir("objects/pack")
	if errors.Is(err, fs.ErrNotExist) {
		return nil // loose objects only
	}
	if err != nil {
		return err
	}
	var total int64
	for _, e := range entries {
		if !e.Type().IsRegular() || !strings.HasSuffix(e.Name(), ".idx") {
			continue
		}
		info, err := dir.Lstat("objects/pack/" + e.Name())
		if err != nil {
			return err
		}
		if total += info.Size(); total > maxPackIndexBytes {
			return ErrHistoryTooLarge
		}
	}
	return nil
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
