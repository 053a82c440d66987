package shellexec

import (
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"

	"github.com/taskctl/taskctl/ignore"
)

const gitStatusUsage = "only git status --porcelain[=v1] [-z] [--untracked-files=no|normal] [--] [pathspec...] is supported"

// gitStatus implements git status --porcelain (v1) [-z]
// [--untracked-files=no|normal] [--] [pathspec...]: "XY path" for each
// path whose index differs from HEAD (X) or whose worktree differs from
// the index (Y), sorted, then "?? path" for the untracked files, a wholly
// untracked directory as "dir/". Paths are relative to the top of the
// worktree. Renames are not detected (a rename is a D and an A); ignored
// files are not listed.
func gitStatus(c *cmd, args []string) int {
	porcelain, nul, untracked := false, false, true
	var specs []string
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "--":
			specs = append(specs, args[i+1:]...)
			i = len(args)
		case a == "--porcelain" || a == "--porcelain=v1" || a == "--porcelain=1":
			porcelain = true
		case a == "-z":
			nul, porcelain = true, true
		case a == "--untracked-files=no" || a == "-uno":
			untracked = false
		case a == "--untracked-files=normal" || a == "-unormal" || a == "--untracked-files" || a == "-u":
			untracked = true
		case strings.HasPrefix(a, "-"):
			return c.refuse(a, gitStatusUsage)
		default:
			specs = append(specs, a)
		}
	}
	if !porcelain {
		return c.refuse("git status", "only the --porcelain (v1) form is supported: its output is paths")
	}
	top, prefix, idx, st := c.gitIndex()
	if st != 0 {
		return st
	}
	objects, st := c.objectStore(top)
	if st != 0 {
		return st
	}
	head, err := c.readTree(objects, "HEAD")
	if err != nil {
		head = map[string]treeEntry{} // no commit yet
	}
	match, ok := c.pathspecMatcher(top, prefix, specs, true)
	if !ok {
		return 128
	}
	c.printFrom(top) // porcelain paths are from the repository's top
	for _, line := range c.statusLines(top, head, idx) {
		if c.writeErr() {
			return 0
		}
		if match.match(line[3:]) {
			c.writeStatus(line, nul)
		}
	}
	if untracked {
		for _, name := range c.untrackedDirs(top, idx, match.leadsInto) {
			if match.match(strings.TrimSuffix(name, "/")) {
				c.writeStatus("?? "+name, nul)
			}
		}
	}
	return 0
}

// writeStatus writes one "XY path" line, the path quoted unless -z.
func (c *cmd) writeStatus(line string, nul bool) {
	if nul {
		c.out.WriteString(line)
		c.out.WriteByte(0)
		return
	}
	c.out.WriteString(line[:3] + quoteGitPath(line[3:]))
	c.out.WriteByte('\n')
}

// statusLines is "XY path" for each tracked or HEAD path that changed,
// sorted by path.
func (c *cmd) statusLines(top string, head map[string]treeEntry, idx *index.Index) []string {
	staged := indexTree(idx)
	names := make([]string, 0, len(staged)+len(head))
	for n := range staged {
		names = append(names, n)
	}
	for n := range head {
		if _, ok := staged[n]; !ok {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	var out []string
	for _, n := range names {
		h, inHead := head[n]
		s, inIndex := staged[n]
		x, y := byte(' '), byte(' ')
		switch {
		case !inIndex:
			x = 'D'
		case !inHead:
			x = 'A'
		case s.hash.IsZero():
			x, y = 'U', 'U' // unmerged
		case s != h:
			x = 'M'
		}
		if inIndex && y == ' ' {
			if wh, wm, ok := c.worktreeBlob(top, n); !ok {
				y = 'D'
			} else if wh != s.hash || wm != s.mode {
				y = 'M'
			}
		}
		if x != ' ' || y != ' ' {
			out = append(out, string([]byte{x, y, ' '})+n)
		}
		if c.ctx.Err() != nil {
			break
		}
	}
	return out
}

// untrackedDirs is git status's untracked list: the files no index entry
// names and the ignore files do not leave out, a directory holding no
// tracked file shown once as "dir/" when it holds an untracked file. As
// in git, a directory that a pathspec leads into (descend) is read, not
// collapsed: "fresh/" from the top, "fresh/deep/" for a pathspec of
// fresh/deep.
func (c *cmd) untrackedDirs(top string, idx *index.Index, descend func(dir string) bool) []string {
	tracked := map[string]bool{}
	trackedDirs := map[string]bool{}
	for _, e := range idx.Entries {
		if e.Mode == filemode.Submodule {
			continue
		}
		tracked[e.Name] = true
		for d := e.Name; strings.Contains(d, "/"); {
			d = d[:strings.LastIndexByte(d, '/')]
			trackedDirs[d] = true
		}
	}
	ign := ignore.NewGit(c.ignoreFiles(top))
	var out []string
	w := &gitWalker{c: c, top: top, ignore: ign}
	w.wholeDir = func(d string) bool { return !trackedDirs[d] && !descend(d) }
	w.walk("", false, func(name string) {
		if tracked[name] {
			return
		}
		if strings.HasSuffix(name, "/") && !c.holdsUntracked(top, ign, strings.TrimSuffix(name, "/")) {
			return
		}
		out = append(out, name)
	})
	slices.Sort(out)
	return out
}

// holdsUntracked reports whether the directory dir (holding no tracked
// file) holds a file the ignore files do not leave out.
func (c *cmd) holdsUntracked(top string, ign *ignore.Matcher, dir string) bool {
	found := false
	sub := &gitWalker{c: c, top: top, ignore: ign}
	sub.walk(dir, false, func(string) { found = true })
	return found
}
