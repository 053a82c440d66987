package shellexec

import (
	"bytes"
	"fmt"
	"path/filepath"
	"slices"
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
	case "status":
		return gitStatus(c, args[1:])
	}
	return c.refuse(args[0], "only git ls-files, git grep, git diff --name-only and git status --porcelain are supported")
}

// gitStatic is runGit's refusal of a subcommand, found before anything
// runs (see staticRefusal).
func gitStatic(args []string) *DeniedError {
	if len(args) == 0 {
		return nil
	}
	switch args[0] {
	case "ls-files", "grep":
		return nil
	case "diff":
		return gitOptionStatic("git", args[1:], gitDiffUsage, "--name-only", "-z", "--cached", "--staged",
			"--no-ext-diff", "--no-textconv", "--no-color", "--no-renames")
	case "status":
		return gitOptionStatic("git", args[1:], gitStatusUsage, "--porcelain", "--porcelain=v1", "--porcelain=1", "-z",
			"--untracked-files=no", "-uno", "--untracked-files=normal", "-unormal", "--untracked-files", "-u")
	}
	return &DeniedError{Construct: "git " + args[0], Msg: "only git ls-files, git grep, git diff --name-only and git status --porcelain are supported"}
}

// gitOptionStatic refuses, before anything runs, an option of git diff or
// git status that runGit would refuse (up to "--").
func gitOptionStatic(name string, args []string, why string, allowed ...string) *DeniedError {
	for _, a := range args {
		if a == "--" {
			break
		}
		if strings.HasPrefix(a, "-") && !slices.Contains(allowed, a) {
			return &DeniedError{Construct: name + " " + a, Msg: why}
		}
	}
	return nil
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
	data, err := c.fs.readGitFile(top, "index", nil)
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

// pathspec is git pathspecs given relative to the current directory, with
// the exclude magic (":!p", ":^p", ":(exclude)p"): a path matches when it
// matches a pattern and no exclude. Without patterns (none given, or only
// excludes) it matches what the command covers by default: below the
// current directory (ls-files, grep) or the whole tree (diff, status).
type pathspec struct {
	include, exclude []string // slash-separated, relative to the worktree's top
	given            []string // the patterns as given, for --error-unmatch
	hit              []bool   // include[i] matched a path
	deflt            string   // the default scope, a prefix of names ("" is all)
}

// pathspecMatcher returns the matcher of specs; wholeTree makes the
// default scope the whole tree instead of the current directory.
func (c *cmd) pathspecMatcher(top, prefix string, specs []string, wholeTree ...bool) (*pathspec, bool) {
	ps := &pathspec{deflt: prefix}
	if len(wholeTree) > 0 && wholeTree[0] {
		ps.deflt = ""
	}
	for _, s := range specs {
		pat, exclude, ok := parseMagic(s)
		if !ok {
			c.errorf("pathspec magic is not supported: %s (only :!, :^ and :(exclude))", s)
			return nil, false
		}
		r, inside := relInside(top, filepath.Join(c.dir, pat))
		if !inside {
			c.errorf("%s: '%s' is outside repository", s, s)
			return nil, false
		}
		if exclude {
			ps.exclude = append(ps.exclude, filepath.ToSlash(r))
		} else {
			ps.include = append(ps.include, filepath.ToSlash(r))
			ps.given = append(ps.given, s)
		}
	}
	ps.hit = make([]bool, len(ps.include))
	return ps, true
}

// parseMagic splits a pathspec into its pattern and whether it excludes.
func parseMagic(s string) (pat string, exclude, ok bool) {
	switch {
	case !strings.HasPrefix(s, ":"):
		return s, false, true
	case strings.HasPrefix(s, ":!"), strings.HasPrefix(s, ":^"):
		return s[2:], true, true
	case strings.HasPrefix(s, ":(exclude)"):
		return s[len(":(exclude)"):], true, true
	}
	return "", false, false
}

func specMatch(s, name string) bool {
	return s == "." || name == s || strings.HasPrefix(name, s+"/") || hasGlob(s) && fnmatch(s, name, false)
}

// match reports whether name (relative to the top) is selected.
func (ps *pathspec) match(name string) bool {
	for _, s := range ps.exclude {
		if specMatch(s, name) {
			return false
		}
	}
	if len(ps.include) == 0 {
		return strings.HasPrefix(name, ps.deflt)
	}
	ok := false
	for i, s := range ps.include {
		if specMatch(s, name) {
			ps.hit[i], ok = true, true
		}
	}
	return ok
}

// leadsInto reports whether git reads the directory dir for untracked
// files rather than show it whole: an include pattern lies inside it (its
// literal part, before any glob character, starts with dir/) and none
// selects dir itself.
func (ps *pathspec) leadsInto(dir string) bool {
	inside := false
	for _, s := range ps.include {
		if specMatch(s, dir) {
			return false
		}
		lit := s
		if i := strings.IndexAny(lit, "*?["); i >= 0 {
			lit = lit[:i]
		}
		inside = inside || strings.HasPrefix(lit, dir+"/")
	}
	return inside
}

// unmatched is the first pattern that matched nothing, for --error-unmatch.
func (ps *pathspec) unmatched() (string, bool) {
	for i, h := range ps.hit {
		if !h {
			return ps.given[i], true
		}
	}
	return "", false
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
