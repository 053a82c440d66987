package shellexec

import (
	"errors"
	"fmt"
	"strconv"
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

// objectStore is the object store of the repository at top, read by
// go-git through the root's view of its git directory (root.GitDir,
// gitdir.FS): nothing outside it, no link followed. A status of 128 means
// it reported why not.
func (c *cmd) objectStore(top string) (*filesystem.Storage, int) {
	rel, err := c.fs.rel(top, ".git")
	if err == nil {
		var g *root.GitDir
		if g, err = c.fs.sh.GitDir(rel); err == nil {
			return filesystem.NewStorage(gitdir.FS(g), cache.NewObjectLRUDefault()), 0
		}
	}
	c.errorf("fatal: %s", c.pathMsg(err))
	return nil, 128
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
