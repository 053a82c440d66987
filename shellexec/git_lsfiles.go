package shellexec

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/index"

	"github.com/taskctl/taskctl/ignore"
)

// lsFiles is what one git ls-files shows.
type lsFiles struct {
	nul, cached, others, ignored, modified, deleted, stage bool
	excludeStd, fullName, directory, errorUnmatch          bool
}

const lsFilesUsage = "usage: git ls-files [-z] [-c] [-o] [-i] [-m] [-d] [-s] [--exclude-standard] [--directory] [--full-name] [--error-unmatch] [--] [<pathspec>...]"

// parseLsFiles reads git ls-files's options; status is non-zero (and
// reported) for a usage error.
func (c *cmd) parseLsFiles(args []string) (o lsFiles, specs []string, status int) {
	opts, specs, err := parseOpts(args, "zcoimdsk", map[string]bool{"cached": false, "others": false, "exclude-standard": false,
		"full-name": false, "ignored": false, "modified": false, "deleted": false, "stage": false, "directory": false, "error-unmatch": false})
	if err != nil {
		return o, nil, c.usage("%v", err)
	}
	for _, op := range opts {
		switch op.name {
		case "z":
			o.nul = true
		case "c", "cached":
			o.cached = true
		case "o", "others":
			o.others = true
		case "i", "ignored":
			o.ignored = true
		case "m", "modified":
			o.modified = true
		case "d", "deleted":
			o.deleted = true
		case "s", "stage":
			o.stage = true
		case "exclude-standard":
			o.excludeStd = true
		case "full-name":
			o.fullName = true
		case "directory":
			o.directory = true
		case "error-unmatch":
			o.errorUnmatch = true
		default:
			return o, nil, c.usage("ls-files option -%s is not supported; %s", op.name, lsFilesUsage)
		}
	}
	if !o.others && !o.modified && !o.deleted && !o.stage {
		o.cached = true
	}
	switch {
	case o.ignored && !o.others && !o.cached && !o.stage:
		c.errorf("fatal: ls-files -i must be used with either -o or -c")
		return o, nil, 128
	case o.ignored && !o.excludeStd:
		// git reads patterns from -x, -X or --exclude-per-directory
		// too; here only the standard files are read.
		c.errorf("fatal: ls-files --ignored needs some exclude pattern: give --exclude-standard")
		return o, nil, 128
	case o.ignored && o.directory:
		return o, nil, c.usage("ls-files --ignored with --directory is not supported")
	}
	return o, specs, 0
}

// gitLsFiles is git ls-files over the index (go-git's decoder) and the
// worktree, read through the project's root: the untracked files (-o)
// first, then for each index entry the cached (-c, -s), deleted (-d) and
// modified (-m) listings, in git's order.
func gitLsFiles(c *cmd, args []string) int {
	o, specs, st := c.parseLsFiles(args)
	if st != 0 {
		return st
	}
	top, prefix, idx, st := c.gitIndex()
	if st != 0 {
		return st
	}
	ps, ok := c.pathspecMatcher(top, prefix, specs)
	if !ok {
		return 128
	}
	var ign *ignore.Matcher
	if o.excludeStd {
		ign = ignore.NewGit(c.ignoreFiles(top))
	}
	show := func(name, tag string) {
		if !o.fullName {
			name = relToCwd(prefix, name)
		}
		if o.nul {
			c.out.WriteString(tag + name)
			c.out.WriteByte(0)
			return
		}
		c.out.WriteString(tag + quoteGitPath(name))
		c.out.WriteByte('\n')
	}
	if o.others {
		c.lsOthers(o, top, idx, ign, ps, show)
	}
	for _, e := range idx.Entries {
		if c.writeErr() {
			break
		}
		if !ps.match(e.Name) {
			continue
		}
		if o.ignored {
			if ignored, _ := ign.Match(e.Name, false); !ignored {
				continue
			}
		}
		c.lsEntry(o, top, e, show)
	}
	if o.errorUnmatch {
		if s, bad := ps.unmatched(); bad {
			c.errorf("error: pathspec '%s' did not match any file(s) known to git\nDid you forget to 'git add'?", s)
			return 1
		}
	}
	return 0
}

// lsEntry shows one index entry in the listings o asks for.
func (c *cmd) lsEntry(o lsFiles, top string, e *index.Entry, show func(name, tag string)) {
	tag := ""
	if o.stage {
		tag = fmt.Sprintf("%06o %s %d\t", uint32(e.Mode), e.Hash, e.Stage)
	}
	if o.cached || o.stage {
		show(e.Name, tag)
	}
	if (!o.deleted && !o.modified) || e.SkipWorktree {
		return
	}
	_, err := c.fs.lstat(top, filepath.FromSlash(e.Name))
	gone := err != nil
	if gone && o.deleted {
		show(e.Name, tag)
	}
	if o.modified && (gone || !worktreeMatches(c, top, e)) {
		show(e.Name, tag)
	}
}

// lsOthers shows the untracked files (with -i, only the ignored ones;
// with --directory, a directory holding no tracked file as "dir/").
func (c *cmd) lsOthers(o lsFiles, top string, idx *index.Index, ign *ignore.Matcher, ps *pathspec, show func(name, tag string)) {
	tracked := make(map[string]bool, len(idx.Entries))
	trackedDirs := map[string]bool{}
	for _, e := range idx.Entries {
		tracked[e.Name] = true
		for d := e.Name; strings.Contains(d, "/"); {
			d = d[:strings.LastIndexByte(d, '/')]
			if trackedDirs[d] {
				break
			}
			trackedDirs[d] = true
		}
	}
	var found []string
	w := &gitWalker{c: c, top: top, ignore: ign, onlyIgnored: o.ignored}
	if o.directory {
		w.wholeDir = func(d string) bool { return !trackedDirs[d] }
	}
	w.walk("", false, func(name string) {
		if !tracked[name] && ps.match(strings.TrimSuffix(name, "/")) {
			found = append(found, name)
		}
	})
	sort.Strings(found)
	for _, f := range found {
		show(f, "")
	}
}

// gitWalker finds the untracked candidates of git ls-files --others.
type gitWalker struct {
	c           *cmd
	top         string
	ignore      *ignore.Matcher // with --exclude-standard: the .gitignore files and .git/info/exclude
	onlyIgnored bool            // -i: yield only what the ignore files leave out
	// wholeDir, with --directory, says a directory holds no tracked
	// file: it is yielded as "dir/" instead of its files.
	wholeDir func(dir string) bool
}

// walk visits untracked candidates below the worktree directory dir
// (slash-separated, "" for the top), skipping .git and nested
// repositories; with an ignore matcher, it skips what the ignore files
// leave out, or (onlyIgnored) yields only that. inIgnored says dir itself
// is ignored.
func (w *gitWalker) walk(dir string, inIgnored bool, fn func(string)) {
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
		ignored := inIgnored
		if !ignored && w.ignore != nil {
			ignored, _ = w.ignore.Match(p, isDir)
		}
		if ignored && !w.onlyIgnored {
			continue
		}
		if isDir {
			if fi, err := w.c.fs.lstat(w.top, filepath.Join(filepath.FromSlash(p), ".git")); err == nil && fi != nil {
				continue // a nested repository
			}
			if w.wholeDir != nil && w.wholeDir(p) {
				fn(p + "/")
				continue
			}
			w.walk(p, ignored, fn)
			continue
		}
		if w.onlyIgnored && !ignored {
			continue
		}
		if e.Type()&fs.ModeType == 0 || e.Type()&fs.ModeSymlink != 0 {
			fn(p)
		}
	}
}

// ignoreFiles reads the ignore files of the worktree at top for package
// ignore's matcher: opened as every other file, through the project's root
// (.git/info/exclude through its view of the git directory, root.GitDir),
// regular files of at most ignore.MaxFileBytes, a missing one holding no
// rules.
func (c *cmd) ignoreFiles(top string) ignore.ReadFunc {
	charge := func(n int64) error {
		if n-1 > ignore.MaxFileBytes { // n counts a byte past the end
			return fmt.Errorf("larger than %d bytes", ignore.MaxFileBytes)
		}
		return nil
	}
	return func(name string) ([]byte, error) {
		if !fs.ValidPath(name) {
			return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
		}
		var data []byte
		var err error
		if inGit, ok := strings.CutPrefix(name, ".git/"); ok {
			data, err = c.fs.readGitFile(top, inGit, charge)
		} else {
			data, err = c.fs.readWith(top, filepath.FromSlash(name), openOpts{charge: charge})
		}
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		return data, err
	}
}
