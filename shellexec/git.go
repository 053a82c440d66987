package shellexec

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/index"
)

// runGit implements "git ls-files" by reading the index through the
// project's os.Root with go-git's decoder. No git binary runs, so no
// config (core.fsmonitor, hooks, filters) is ever honoured.
func runGit(c *cmd, args []string) int {
	if len(args) == 0 {
		return c.usage("usage: git ls-files [options] [<pathspec>...]")
	}
	switch args[0] {
	case "ls-files":
		return gitLsFiles(c, args[1:])
	case "grep":
		return gitGrep(c, args[1:])
	case "diff":
		return gitDiff(c, args[1:])
	}
	return c.refuse(args[0], "only git ls-files, git grep and git diff --name-only are supported")
}

// gitRepo locates the worktree root: the nearest directory at or above
// dir, inside the project, holding a .git directory. A .git file met first
// (a linked worktree's or a submodule's, pointing at a git dir elsewhere)
// ends the search: gitFile is its directory.
func (c *cmd) gitRepo() (top string, ok bool, gitFile string) {
	d := c.dir
	for {
		if _, ok := relInside(c.fs.rootDir, d); !ok {
			return "", false, ""
		}
		if fi, err := c.fs.lstat(d, ".git"); err == nil {
			if fi.IsDir() {
				return d, true, ""
			}
			if fi.Mode().IsRegular() {
				return "", false, d
			}
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", false, ""
		}
		d = parent
	}
}

// gitIndex locates the repository and reads its index.
func (c *cmd) gitIndex() (top, prefix string, idx *index.Index, status int) {
	top, ok, gitFile := c.gitRepo()
	if gitFile != "" {
		// It said "not a git repository", of a linked worktree.
		c.errorf("%s is a .git file (a linked worktree or a submodule): its git dir lies elsewhere, and git here reads only a .git directory inside the project",
			filepath.Join(gitFile, ".git"))
		return "", "", nil, 128
	}
	if !ok {
		c.errorf("not a git repository (or any of the parent directories inside the project): .git")
		return "", "", nil, 128
	}
	prefix, _ = filepath.Rel(top, c.dir)
	prefix = filepath.ToSlash(prefix)
	if prefix == "." {
		prefix = ""
	} else {
		prefix += "/"
	}
	idx = &index.Index{}
	data, err := c.fs.readFile(top, ".git/index")
	if err == nil {
		if err := index.NewDecoder(bytes.NewReader(data)).Decode(idx); err != nil {
			c.errorf("index file corrupt: %v", err)
			return "", "", nil, 128
		}
	} else if !isNotExist(err) {
		c.errorf("%s", c.pathMsg(err))
		return "", "", nil, 128
	}
	return top, prefix, idx, 0
}

// pathspecMatcher returns a matcher for git pathspecs given relative to
// the current directory; no pathspec means the current directory.
func (c *cmd) pathspecMatcher(top, prefix string, specs []string) (func(string) bool, bool) {
	var full []string
	for _, s := range specs {
		if strings.HasPrefix(s, ":") {
			c.errorf("pathspec magic is not supported: %s", s)
			return nil, false
		}
		r, ok := relInside(top, filepath.Join(c.dir, s))
		if !ok {
			c.errorf("%s: '%s' is outside repository", s, s)
			return nil, false
		}
		full = append(full, filepath.ToSlash(r))
	}
	return func(name string) bool {
		if len(full) == 0 {
			return strings.HasPrefix(name, prefix)
		}
		for _, s := range full {
			if s == "." || name == s || strings.HasPrefix(name, s+"/") || hasGlob(s) && fnmatch(s, name, false) {
				return true
			}
		}
		return false
	}, true
}

// relToCwd shows a repository path relative to the current directory.
func relToCwd(prefix, name string) string {
	if prefix == "" {
		return name
	}
	if rest, ok := strings.CutPrefix(name, prefix); ok {
		return rest
	}
	if r, err := filepath.Rel(filepath.FromSlash(prefix), filepath.FromSlash(name)); err == nil {
		return filepath.ToSlash(r)
	}
	return name
}

func hasGlob(s string) bool { return strings.ContainsAny(s, "*?[") }

// quoteGitPath quotes a path the way git does with core.quotePath on.
func quoteGitPath(s string) string {
	need := false
	for i := 0; i < len(s); i++ {
		if b := s[i]; b < 0x20 || b == '"' || b == '\\' || b >= 0x7f {
			need = true
			break
		}
	}
	if !need {
		return s
	}
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		switch ch := s[i]; {
		case ch == '"' || ch == '\\':
			b.WriteByte('\\')
			b.WriteByte(ch)
		case ch == '\n':
			b.WriteString(`\n`)
		case ch == '\t':
			b.WriteString(`\t`)
		case ch < 0x20 || ch >= 0x7f:
			fmt.Fprintf(&b, "\\%03o", ch)
		default:
			b.WriteByte(ch)
		}
	}
	b.WriteByte('"')
	return b.String()
}
