package shellexec

import (
	"io/fs"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"
)

// gitDiff implements "git diff --name-only [--] [pathspec...]": tracked
// files whose worktree content or mode differs from the index. Content is
// compared by blob hash; .gitattributes filters and end-of-line
// conversion are not applied (they would run configured programs).
func gitDiff(c *cmd, args []string) int {
	nameOnly, nul := false, false
	var specs []string
	for i, a := range args {
		switch {
		case a == "--":
			specs = append(specs, args[i+1:]...)
		case a == "--name-only":
			nameOnly = true
		case a == "-z":
			nul = true
		case a == "--no-ext-diff" || a == "--no-textconv" || a == "--no-color":
		case strings.HasPrefix(a, "-"):
			return c.refuse(a, "only git diff --name-only [-z] [--] [pathspec...] (worktree against index) is supported")
		case strings.HasPrefix(a, ":") || c.pathExists(a):
			// A pathspec without "--": git takes an argument that names
			// no revision and an existing path (or has pathspec magic)
			// as one.
			specs = append(specs, a)
		default:
			return c.refuse(a, "comparing commits is not supported; only the worktree against the index")
		}
		if a == "--" {
			break
		}
	}
	if !nameOnly {
		return c.refuse("git diff", "only --name-only is supported")
	}
	top, prefix, idx, st := c.gitIndex()
	if st != 0 {
		return st
	}
	// Unlike ls-files, git diff covers the whole tree by default and
	// prints paths relative to the top of the worktree.
	match, ok := c.pathspecMatcher(top, prefix, specs, true)
	if !ok {
		return 128
	}
	seen := map[string]bool{}
	for _, e := range idx.Entries {
		if seen[e.Name] || !match.match(e.Name) || c.writeErr() {
			continue
		}
		seen[e.Name] = true
		if e.SkipWorktree || e.Mode == filemode.Submodule {
			continue
		}
		if !worktreeMatches(c, top, e) {
			name := e.Name
			if nul {
				c.out.WriteString(name)
				c.out.WriteByte(0)
			} else {
				c.out.WriteString(quoteGitPath(name))
				c.out.WriteByte('\n')
			}
		}
	}
	return 0
}

func worktreeMatches(c *cmd, top string, e *index.Entry) bool {
	if e.Stage != 0 { // an unmerged path (stages 1-3) always differs
		return false
	}
	fi, err := c.fs.lstat(top, e.Name)
	if err != nil {
		return false
	}
	var content []byte
	var mode filemode.FileMode
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		target, err := c.fs.readlink(top, e.Name)
		if err != nil {
			return false
		}
		content, mode = []byte(target), filemode.Symlink
	case fi.Mode().IsRegular():
		if content, err = c.fs.readFile(top, e.Name); err != nil {
			return false
		}
		mode = filemode.Regular
		if fi.Mode()&0o111 != 0 {
			mode = filemode.Executable
		}
	default:
		return false
	}
	if mode != e.Mode {
		return false
	}
	return plumbing.ComputeHash(plumbing.BlobObject, content) == e.Hash
}

// pathExists reports whether p (relative to the current directory) names
// something in the worktree.
func (c *cmd) pathExists(p string) bool {
	_, err := c.fs.lstat(c.dir, p)
	return err == nil
}
