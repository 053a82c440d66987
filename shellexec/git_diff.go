package shellexec

import (
	"io/fs"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"
)

const gitDiffUsage = "only git diff --name-only [-z] [--cached] [REV | REV REV | REV..REV] [--] [pathspec...] is supported"

// gitDiffArgs is what one git diff --name-only compares.
type gitDiffArgs struct {
	nul, cached bool
	revs        []string
	specs       []string
}

// parseGitDiff reads git diff's arguments. An argument before "--" is a
// revision when it names one, else a pathspec when it names a path (or has
// pathspec magic), as git decides.
func (c *cmd) parseGitDiff(args []string, isRev func(string) bool) (d gitDiffArgs, status int) {
	nameOnly := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			d.specs = append(d.specs, args[i+1:]...)
			i = len(args)
		case a == "--name-only":
			nameOnly = true
		case a == "-z":
			d.nul = true
		case a == "--cached" || a == "--staged":
			d.cached = true
		case a == "--no-ext-diff" || a == "--no-textconv" || a == "--no-color" || a == "--no-renames":
		case strings.HasPrefix(a, "-"):
			return d, c.refuse(a, gitDiffUsage)
		case strings.HasPrefix(a, ":("):
			d.specs = append(d.specs, a) // long-form magic: a pathspec
		case len(d.specs) == 0 && strings.Contains(a, "..") && !strings.Contains(a, "..."):
			from, to, _ := strings.Cut(a, "..")
			d.revs = append(d.revs, cmpOr(from, "HEAD"), cmpOr(to, "HEAD"))
		case len(d.specs) == 0 && isRev(a):
			d.revs = append(d.revs, a)
		case c.pathArg(a):
			d.specs = append(d.specs, a)
		default:
			c.errorf("fatal: ambiguous argument '%s': unknown revision or path not in the working tree.", a)
			return d, 128
		}
	}
	switch {
	case !nameOnly:
		return d, c.refuse("git diff", "only --name-only is supported")
	case len(d.revs) > 2, d.cached && len(d.revs) > 1:
		return d, c.usage("%s", gitDiffUsage)
	}
	return d, 0
}

func cmpOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// gitDiff implements git diff --name-only: the paths whose content or
// mode differ between the worktree and the index (no revision), the
// index and a revision (--cached [REV], HEAD by default), the worktree and
// a revision (REV), or two revisions (A B, A..B). Revisions are read from
// the object store through go-git; content is compared by blob hash, and
// .gitattributes filters and end-of-line conversion are not applied (they
// would run configured programs). Paths are relative to the top of the
// worktree, sorted.
func gitDiff(c *cmd, args []string) int {
	top, prefix, idx, st := c.gitIndex()
	if st != 0 {
		return st
	}
	objects, st := c.objectStore(top)
	if st != 0 {
		return st
	}
	trees := map[string]map[string]treeEntry{}
	isRev := func(rev string) bool {
		t, st := c.gitTreeQuiet(objects, rev)
		if st == 0 {
			trees[rev] = t
		}
		return st == 0
	}
	d, st := c.parseGitDiff(args, isRev)
	if st != 0 {
		return st
	}
	for _, r := range d.revs {
		if trees[r] == nil {
			if trees[r], st = c.gitTree(objects, r); st != 0 {
				return st
			}
		}
	}
	match, ok := c.pathspecMatcher(top, prefix, d.specs, true)
	if !ok {
		return 128
	}
	c.printFrom(top) // git prints these paths from the repository's top
	var changed []string
	switch {
	case len(d.revs) == 2:
		changed = treeDiff(trees[d.revs[0]], trees[d.revs[1]])
	case d.cached:
		rev := "HEAD"
		if len(d.revs) == 1 {
			rev = d.revs[0]
		}
		if trees[rev] == nil {
			if trees[rev], st = c.gitTree(objects, rev); st != 0 {
				return st
			}
		}
		changed = treeDiff(trees[rev], indexTree(idx))
	case len(d.revs) == 1:
		changed = treeDiff(trees[d.revs[0]], c.worktreeTree(top, idx))
	default:
		changed = c.worktreeChanged(top, idx)
	}
	for _, name := range changed {
		if c.writeErr() {
			break
		}
		if match.match(name) {
			c.writeGitPath(name, d.nul)
		}
	}
	return 0
}

// writeGitPath writes one path of git's output, quoted as git quotes it
// unless -z.
func (c *cmd) writeGitPath(name string, nul bool) {
	if nul {
		c.out.WriteString(name)
		c.out.WriteByte(0)
		return
	}
	c.out.WriteString(quoteGitPath(name))
	c.out.WriteByte('\n')
}

// worktreeChanged is the tracked paths whose worktree content or mode
// differs from the index, in index order.
func (c *cmd) worktreeChanged(top string, idx *index.Index) []string {
	var out []string
	seen := map[string]bool{}
	for _, e := range idx.Entries {
		if seen[e.Name] || c.ctx.Err() != nil {
			continue
		}
		seen[e.Name] = true
		if e.SkipWorktree || e.Mode == filemode.Submodule {
			continue
		}
		if !worktreeMatches(c, top, e) {
			out = append(out, e.Name)
		}
	}
	return out
}

// treeDiff is the sorted paths whose entry differs between a and b, or
// that only one holds.
func treeDiff(a, b map[string]treeEntry) []string {
	var out []string
	for name, ea := range a {
		if eb, ok := b[name]; !ok || eb != ea {
			out = append(out, name)
		}
	}
	for name := range b {
		if _, ok := a[name]; !ok {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

// indexTree is the index as a tree: stage-0 entries; an unmerged path
// (stages 1-3) is given a zero hash, so it differs from every tree.
func indexTree(idx *index.Index) map[string]treeEntry {
	out := make(map[string]treeEntry, len(idx.Entries))
	for _, e := range idx.Entries {
		if e.Mode == filemode.Submodule {
			continue
		}
		if e.Stage != 0 {
			out[e.Name] = treeEntry{}
			continue
		}
		out[e.Name] = treeEntry{e.Hash, e.Mode}
	}
	return out
}

// worktreeTree is the worktree as a tree over the tracked paths: each
// file's blob hash and mode, as git diff REV compares them.
func (c *cmd) worktreeTree(top string, idx *index.Index) map[string]treeEntry {
	out := map[string]treeEntry{}
	tracked := map[string]bool{}
	for _, e := range idx.Entries {
		if e.Mode != filemode.Submodule {
			tracked[e.Name] = true
		}
	}
	for name := range tracked {
		if c.ctx.Err() != nil {
			break
		}
		if h, m, ok := c.worktreeBlob(top, name); ok {
			out[name] = treeEntry{h, m}
		}
	}
	return out
}

// worktreeBlob is the blob hash and mode of the worktree file name.
func (c *cmd) worktreeBlob(top, name string) (plumbing.Hash, filemode.FileMode, bool) {
	fi, err := c.fs.lstat(top, name)
	if err != nil {
		return plumbing.ZeroHash, 0, false
	}
	var content []byte
	var mode filemode.FileMode
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		target, err := c.fs.readlink(top, name)
		if err != nil {
			return plumbing.ZeroHash, 0, false
		}
		content, mode = []byte(target), filemode.Symlink
	case fi.Mode().IsRegular():
		if content, err = c.fs.readFile(top, name); err != nil {
			return plumbing.ZeroHash, 0, false
		}
		mode = filemode.Regular
		if fi.Mode()&0o111 != 0 {
			mode = filemode.Executable
		}
	default:
		return plumbing.ZeroHash, 0, false
	}
	return plumbing.ComputeHash(plumbing.BlobObject, content), mode, true
}

func worktreeMatches(c *cmd, top string, e *index.Entry) bool {
	if e.Stage != 0 { // an unmerged path (stages 1-3) always differs
		return false
	}
	h, m, ok := c.worktreeBlob(top, e.Name)
	return ok && m == e.Mode && h == e.Hash
}

// pathArg reports whether a, an argument before "--" that names no
// revision, is a pathspec, as git's verify_filename decides: one with a
// glob character, or one whose path exists (":/x" from the top, ":!x"
// and ":^x" from the current directory).
func (c *cmd) pathArg(a string) bool {
	if hasGlob(a) {
		return true
	}
	if rest, ok := strings.CutPrefix(a, ":/"); ok {
		if rest == "" {
			return true
		}
		top, ok, _ := c.gitRepo()
		if !ok {
			return false
		}
		_, err := c.fs.lstat(top, rest)
		return err == nil
	}
	for _, magic := range []string{":!", ":^"} {
		if rest, ok := strings.CutPrefix(a, magic); ok {
			return rest == "" || c.pathExists(rest)
		}
	}
	return c.pathExists(a)
}

// pathExists reports whether p (relative to the current directory) names
// something in the worktree.
func (c *cmd) pathExists(p string) bool {
	_, err := c.fs.lstat(c.dir, p)
	return err == nil
}
