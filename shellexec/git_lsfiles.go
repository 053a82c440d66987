package shellexec

import (
	"cmp"
	"io/fs"
	"path/filepath"
	"sort"

	"github.com/taskctl/taskctl/project"
)

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
