package shellexec

import (
	"bufio"
	"bytes"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
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
	case "grep", "diff":
		return c.refuse(args[0], "only git ls-files is supported; use grep -r or find")
	}
	return c.refuse(args[0], "only git ls-files is supported")
}

// gitRepo locates the worktree root: the nearest directory at or above
// dir, inside the project, holding a .git directory.
func (c *cmd) gitRepo() (string, bool) {
	d := c.dir
	for {
		if _, ok := relInside(c.fs.rootDir, d); !ok {
			return "", false
		}
		if fi, err := c.fs.lstat(d, ".git"); err == nil && fi.IsDir() {
			return d, true
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", false
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
	top, ok := c.gitRepo()
	if !ok {
		c.errorf("not a git repository (or any of the parent directories inside the project): .git")
		return 128
	}
	prefix, _ := filepath.Rel(top, c.dir)
	prefix = filepath.ToSlash(prefix)
	if prefix == "." {
		prefix = ""
	} else {
		prefix += "/"
	}
	for _, s := range specs {
		if strings.HasPrefix(s, ":") {
			return c.usage("pathspec magic is not supported: %s", s)
		}
	}
	// Pathspecs are relative to the current directory.
	var full []string
	for _, s := range specs {
		p := filepath.ToSlash(filepath.Clean(filepath.Join(c.dir, s)))
		r, ok := relInside(top, filepath.FromSlash(p))
		if !ok {
			c.errorf("%s: '%s' is outside repository", s, s)
			return 128
		}
		full = append(full, filepath.ToSlash(r))
	}
	match := func(name string) bool {
		if len(full) == 0 {
			// The default pathspec is the current directory.
			return strings.HasPrefix(name, prefix)
		}
		for _, s := range full {
			if s == "." || name == s || strings.HasPrefix(name, s+"/") || hasGlob(s) && fnmatch(s, name, false) {
				return true
			}
		}
		return false
	}
	idx := &index.Index{}
	data, err := c.fs.readFile(top, ".git/index")
	if err == nil {
		if err := index.NewDecoder(bytes.NewReader(data)).Decode(idx); err != nil {
			c.errorf("index file corrupt: %v", err)
			return 128
		}
	} else if !isNotExist(err) {
		c.errorf("%s", c.pathMsg(err))
		return 128
	}
	show := func(name string) {
		if !fullName && prefix != "" {
			if rest, ok := strings.CutPrefix(name, prefix); ok {
				name = rest
			} else if r, err := filepath.Rel(filepath.FromSlash(prefix), filepath.FromSlash(name)); err == nil {
				name = filepath.ToSlash(r)
			}
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
		w := &gitWalker{c: c, top: top, excludeStd: excludeStd}
		if excludeStd {
			w.patterns = w.readIgnore(".git/info/exclude", nil)
		}
		w.walk(nil, func(name string) {
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

func hasGlob(s string) bool { return strings.ContainsAny(s, "*?[") }

type gitWalker struct {
	c          *cmd
	top        string
	excludeStd bool
	patterns   []gitignore.Pattern
}

func (w *gitWalker) readIgnore(rel string, domain []string) []gitignore.Pattern {
	data, err := w.c.fs.readFile(w.top, rel)
	if err != nil {
		return nil
	}
	var ps []gitignore.Pattern
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		s := strings.TrimSuffix(sc.Text(), "\r")
		if !strings.HasPrefix(s, "#") && strings.TrimSpace(s) != "" {
			ps = append(ps, gitignore.ParsePattern(s, domain))
		}
	}
	return ps
}

// walk visits untracked candidates below the worktree directory dir
// (path components), skipping .git, nested repositories and, with
// --exclude-standard, ignored paths.
func (w *gitWalker) walk(dir []string, fn func(string)) {
	if w.c.ctx.Err() != nil {
		return
	}
	rel := strings.Join(dir, "/")
	if rel == "" {
		rel = "."
	}
	saved := len(w.patterns)
	if w.excludeStd {
		w.patterns = append(w.patterns, w.readIgnore(filepath.Join(rel, ".gitignore"), slices.Clone(dir))...)
	}
	defer func() { w.patterns = w.patterns[:saved] }()
	ents, err := w.c.fs.readDir(w.top, rel)
	if err != nil {
		return
	}
	m := gitignore.NewMatcher(w.patterns)
	for _, e := range ents {
		name := e.Name()
		if name == ".git" {
			continue
		}
		p := append(slices.Clone(dir), name)
		isDir := e.Type().IsDir()
		if w.excludeStd && m.Match(p, isDir) {
			continue
		}
		if isDir {
			if fi, err := w.c.fs.lstat(w.top, filepath.Join(rel, name, ".git")); err == nil && fi != nil {
				continue // a nested repository
			}
			w.walk(p, fn)
			continue
		}
		if e.Type()&fs.ModeType == 0 || e.Type()&fs.ModeSymlink != 0 {
			fn(strings.Join(p, "/"))
		}
	}
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
