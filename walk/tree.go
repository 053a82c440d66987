package walk

import (
	"io/fs"

	"github.com/taskctl/taskctl/ignore"
	"github.com/taskctl/taskctl/root"
)

// A Candidate is a file a source selected (a walk, and in project a glob,
// a spec or a command-output line): not read yet, but inside an allowed
// root and through the policy's name checks when it was resolved.
type Candidate struct {
	Path string // absolute real path (symlinks evaluated)
	Rel  string // Path relative to the project dir, slash-separated ("../x" for an extra root)
	Spec string // the spec, or command-output line, it came from
}

// A Tree is one directory tree that walks read: an allowed root of a
// project, held open, with its ignore rules and the decisions that are
// the project's (Hooks).
type Tree struct {
	dir    string          // d.Path(): real, absolute
	d      *root.Dir       // the directory, held open by the root
	ignore *ignore.Matcher // the tree's ignore files
	hooks  Hooks
}

// Hooks are what a walk asks of the project whose tree it reads.
type Hooks struct {
	// Exclude reports whether the entry at full (rel in the tree) is
	// left out by the policy's Exclude patterns; nil leaves out nothing.
	Exclude func(full, rel string) bool
	// Admit decides what a walk yields for one entry that is not a
	// directory and that the ignore rules let through: the entry rel (at
	// full, named name, of type t). For a regular file it lstats the
	// entry into st (Tree.Lstat, with buf) and info is what that gave;
	// for a symlink it is the target's. ok is false for what is left out.
	Admit func(full, rel, name string, t fs.FileMode, st *StatInfo, buf *[]byte) (c Candidate, info fs.FileInfo, ok bool)
	// Reload forgets the ignore files the project has read (a Watcher
	// starting over); nil forgets those of the tree only.
	Reload func()
}

// NewTree returns the tree of the root directory d: start directories are
// opened through d's *os.Root, the rest relative to their open parent, and
// files stat'ed relative to d's descriptor where it has one. ign holds its
// ignore rules. Once d's root is closed, walks of the tree fail.
func NewTree(d *root.Dir, ign *ignore.Matcher, h Hooks) *Tree {
	return &Tree{dir: d.Path(), d: d, ignore: ign, hooks: h}
}

// fd returns the descriptor of the tree's directory for openat2 and
// fstatat, or -1 for none (before Linux 5.6, or once closed).
func (t *Tree) fd() int { return t.d.FD() }

// Dir returns the tree's directory.
func (t *Tree) Dir() string { return t.dir }

// excluded applies Hooks.Exclude.
func (t *Tree) excluded(full, rel string) bool {
	return t.hooks.Exclude != nil && t.hooks.Exclude(full, rel)
}

// reload applies Hooks.Reload.
func (t *Tree) reload() {
	if t.hooks.Reload != nil {
		t.hooks.Reload()
		return
	}
	t.ignore.Forget()
}
