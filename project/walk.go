package project

import (
	"context"
	"io/fs"

	"github.com/taskctl/taskctl/ignore"
	"github.com/taskctl/taskctl/root"
	"github.com/taskctl/taskctl/walk"
)

// A Candidate is a file a walk, a glob or a resolution yields (see
// walk.Candidate).
type Candidate = walk.Candidate

// A Watcher keeps what Walk yields current from the kernel's change
// notifications (see walk.Watcher).
type Watcher = walk.Watcher

// ErrWatchUnsupported is what Watch returns where the kernel's change
// notifications are not used (every system but Linux).
var ErrWatchUnsupported = walk.ErrWatchUnsupported

// Walk calls fn, in order of Rel, for every file of the project dir that a
// glob "**" would yield: regular files (and symlinks to regular files inside
// an allowed root, at their real path, each once) that no ignore rule, no
// always-excluded directory, no node_modules/, no sensitive name and no size
// over the cap leaves out. Special files are skipped. info describes the
// file (for a symlink, its target). The walk itself is parallel; fn is called
// from one goroutine. If fn returns fs.SkipAll, Walk stops and returns nil;
// another error stops it and is returned.
func (p *Project) Walk(ctx context.Context, fn func(c Candidate, info fs.FileInfo) error) error {
	return walk.Files(ctx, p.roots[0].tree, fn)
}

// WalkCached is Walk given the state an earlier WalkCached returned (nil
// for none): directories whose inode and times are unchanged since then
// are not listed again, their recorded entries are used (see walk.Cached).
// It yields exactly what Walk would. It returns the state for the next
// walk, or nil when prev still describes every directory walked.
func (p *Project) WalkCached(ctx context.Context, prev []byte, fn func(c Candidate, info fs.FileInfo) error) (next []byte, err error) {
	return walk.Cached(ctx, p.roots[0].tree, prev, fn)
}

// Watch returns a Watcher of the project dir's tree. Nothing is walked
// before the first Sync or Walk. The caller closes it.
func (p *Project) Watch() (*Watcher, error) { return walk.Watch(p.roots[0].tree) }

// tree returns r as the walks see it, with the project's decisions: the
// policy's Exclude patterns, and what a walk admits.
func (p *Project) tree(r *rootDir) *walk.Tree {
	return walk.NewTree(r.d, r.ignore, walk.Hooks{
		Exclude: func(full, rel string) bool { return p.walkExcluded(r, full, rel) },
		Admit: func(full, rel, name string, t fs.FileMode, st *walk.StatInfo, buf *[]byte) (Candidate, fs.FileInfo, bool) {
			return p.admit(r, full, rel, name, t, st, buf)
		},
		Reload: p.Reload,
	})
}

// admit decides what a walk of root r yields for one of its entries that
// is not a directory and that the ignore rules let through: the entry rel
// (at path, named name, of type t). A regular file is lstat'ed into st
// and info is st (or what the lstat gave); a symlink is resolved and info
// is its target's. ok is false for what a walk leaves out: a bad or
// sensitive name, a special file, a symlink that leads nowhere allowed,
// a file over the size cap. buf is Tree.Lstat's.
func (p *Project) admit(r *rootDir, path, rel, name string, t fs.FileMode, st *walk.StatInfo, buf *[]byte) (c Candidate, info fs.FileInfo, ok bool) {
	if root.CheckWalkedName(rel) != "" || !p.Policy().AllowSensitive && p.fsys.SensitiveMatch(rel, name) != "" {
		return Candidate{}, nil, false
	}
	switch {
	case t.IsRegular():
		fi, err := r.tree.Lstat(path, rel, st, buf)
		if err != nil || !fi.Mode().IsRegular() {
			return Candidate{}, nil, false
		}
		c, info = Candidate{Path: path, Rel: rel, Spec: "**"}, fi
	case t&fs.ModeSymlink != 0:
		rs, wn := p.resolve(r.d.Path(), rel)
		if wn != nil || fileKind(rs) != nil || p.checkName(rs, rel) != nil || p.linkToIgnored(rs, path, false) != nil {
			return Candidate{}, nil, false
		}
		c, info = Candidate{Path: rs.real, Rel: p.fsys.Rel(rs.real), Spec: "**"}, rs.info
	default:
		return Candidate{}, nil, false
	}
	if info.Size() > p.Policy().MaxFileBytes {
		return Candidate{}, nil, false
	}
	return c, info, true
}

// walkExcluded applies the policy's Exclude patterns, which are relative
// to the project dir, to the entry at full (rel in root r).
func (p *Project) walkExcluded(r *rootDir, full, rel string) bool {
	if len(p.Policy().Exclude) == 0 {
		return false
	}
	if r != p.roots[0] {
		rel = p.fsys.Rel(full)
	}
	return p.fsys.Excluded(rel) != ""
}

// explain renders the reason a path is ignored.
func explain(r *ignore.Rule) string {
	if r == nil {
		return ""
	}
	return r.String()
}
