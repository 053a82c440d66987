package shellexec

import (
	"bytes"
	"cmp"
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"

	"github.com/taskctl/taskctl/project"
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

func gitLsFiles(c *cmd, args []string) int {
	opts, specs, err := parseOpts(args, "zcoimdsk", map[string]bool{"cached": false, "others": false, "exclude-standard": false, "full-name": false, "ignored": false, "modified": false, "deleted": false, "stage": false, "directory": false, "error-unmatch": false})
	if err != nil {
		return c.usage("%v", err)
	}
	var nul, cached, others, excludeStd, fullName bool
	for _, o := range opts {
		switch o.name {
		case "z":
			nul = true
		case "c", "cached":
			cached = true
		case "o", "others":
			others = true
		case "exclude-standard":
			excludeStd = true
		case "full-name":
			fullName = true
		default:
			return c.usage("ls-files option %s is not supported", o.name)
		}
	}
	if !others {
		cached = true
	}
	top, prefix, idx, st := c.gitIndex()
	if st != 0 {
		return st
	}
	match, ok := c.pathspecMatcher(top, prefix, specs)
	if !ok {
		return 128
	}
	show := func(name string) {
		if !fullName {
			name = relToCwd(prefix, name)
		}
		if nul {
			c.out.WriteString(name)
			c.out.WriteByte(0)
			return
		}
		c.out.WriteString(quoteGitPath(name))
		c.out.WriteByte('\n')
	}
	if others {
		tracked := make(map[string]bool, len(idx.Entries))
		for _, e := range idx.Entries {
			tracked[e.Name] = true
		}
		var found []string
		w := &gitWalker{c: c, top: top}
		if excludeStd {
			w.ignore = project.NewGitMatcher(worktreeFS{c.fs, top})
		}
		w.walk("", func(name string) {
			if !tracked[name] && match(name) {
				found = append(found, name)
			}
		})
		sort.Strings(found)
		for _, f := range found {
			show(f)
		}
	}
	if cached {
		for _, e := range idx.Entries {
			if c.writeErr() {
				break
			}
			if match(e.Name) {
				show(e.Name)
			}
		}
	}
	return 0
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

// gitGrep searches the tracked files in the worktree with the in-process
// grep: git grep [-l -L -c -n -h -i -v -w -x -E -F -G -q -z] [-e] PATTERN
// [--] [pathspec...].
func gitGrep(c *cmd, args []string) int {
	var grepArgs, rest []string
	havePattern := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			rest = append(rest, args[i+1:]...)
			i = len(args)
		case a == "-e" || a == "--regexp":
			if i+1 >= len(args) {
				return c.usage("switch 'e' requires a value")
			}
			grepArgs = append(grepArgs, "-e", args[i+1])
			havePattern = true
			i++
		case strings.HasPrefix(a, "--"):
			switch a {
			case "--files-with-matches", "--name-only", "--files-without-match", "--count", "--line-number",
				"--ignore-case", "--invert-match", "--word-regexp", "--extended-regexp", "--fixed-strings",
				"--basic-regexp", "--quiet", "--null", "--no-color", "--full-name":
				if a == "--name-only" {
					a = "-l"
				}
				if a != "--no-color" && a != "--full-name" {
					grepArgs = append(grepArgs, a)
				}
			default:
				return c.refuse(a, "git grep options are limited to -l -L -c -n -h -i -v -w -x -E -F -G -q -z -e")
			}
		case len(a) > 1 && a[0] == '-':
			for _, f := range a[1:] {
				if !strings.ContainsRune("lLcnhivwxEFGqzI", f) {
					return c.refuse("-"+string(f), "git grep options are limited to -l -L -c -n -h -i -v -w -x -E -F -G -q -z -e")
				}
			}
			grepArgs = append(grepArgs, strings.ReplaceAll(a, "z", "Z"))
		default:
			rest = append(rest, a)
		}
	}
	if !havePattern {
		if len(rest) == 0 {
			return c.usage("no pattern given")
		}
		grepArgs = append(grepArgs, "-e", rest[0])
		rest = rest[1:]
	}
	top, prefix, idx, st := c.gitIndex()
	if st != 0 {
		return st
	}
	match, ok := c.pathspecMatcher(top, prefix, rest)
	if !ok {
		return 128
	}
	var files []string
	seen := map[string]bool{}
	for _, e := range idx.Entries {
		if seen[e.Name] || !match(e.Name) {
			continue
		}
		seen[e.Name] = true
		if fi, err := c.fs.lstat(top, e.Name); err != nil || !fi.Mode().IsRegular() {
			continue // deleted in the worktree, or a symlink: git grep skips it
		}
		files = append(files, relToCwd(prefix, e.Name))
	}
	if len(files) == 0 {
		return 1
	}
	grepArgs = append(append(grepArgs, "-H", "-s", "--"), files...)
	name := c.name
	c.name = "git grep"
	defer func() { c.name = name }()
	return runGrep(c, grepArgs)
}

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
	if len(specs) == 0 {
		specs = []string{strings.Repeat("../", strings.Count(prefix, "/"))}
		if specs[0] == "" {
			specs[0] = "."
		}
	}
	match, ok := c.pathspecMatcher(top, prefix, specs)
	if !ok {
		return 128
	}
	seen := map[string]bool{}
	for _, e := range idx.Entries {
		if seen[e.Name] || !match(e.Name) || c.writeErr() {
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

func hasGlob(s string) bool { return strings.ContainsAny(s, "*?[") }

// gitWalker finds the untracked candidates of git ls-files --others.
type gitWalker struct {
	c      *cmd
	top    string
	ignore *project.Matcher // with --exclude-standard: the .gitignore files and .git/info/exclude
}

// walk visits untracked candidates below the worktree directory dir
// (slash-separated, "" for the top), skipping .git, nested repositories
// and, with --exclude-standard, what the ignore files leave out.
func (w *gitWalker) walk(dir string, fn func(string)) {
	if w.c.ctx.Err() != nil {
		return
	}
	ents, err := w.c.fs.readDir(w.top, filepath.FromSlash(cmp.Or(dir, ".")))
	if err != nil {
		return
	}
	for _, e := range ents {
		name := e.Name()
		if name == ".git" {
			continue
		}
		p := name
		if dir != "" {
			p = dir + "/" + name
		}
		isDir := e.Type().IsDir()
		if w.ignore != nil {
			if ignored, _ := w.ignore.Match(p, isDir); ignored {
				continue
			}
		}
		if isDir {
			if fi, err := w.c.fs.lstat(w.top, filepath.Join(filepath.FromSlash(p), ".git")); err == nil && fi != nil {
				continue // a nested repository
			}
			w.walk(p, fn)
			continue
		}
		if e.Type()&fs.ModeType == 0 || e.Type()&fs.ModeSymlink != 0 {
			fn(p)
		}
	}
}

// worktreeFS is the worktree at top as an fs.FS, for project's ignore
// matcher: its files are opened as every other file, through the
// project's root.
type worktreeFS struct {
	fs  *projectFS
	top string
}

func (w worktreeFS) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	f, err := w.fs.openFile(w.top, filepath.FromSlash(name))
	if err != nil {
		return nil, err
	}
	return f, nil
}

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
