package shellexec

import (
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/index"
)

// gitGrep searches the tracked files in the worktree with the in-process
// grep: git grep [-l -L -c -n -h -i -v -w -x -E -F -G -q -z] [-e] PATTERN
// [--] [pathspec...].
func gitGrep(c *cmd, args []string) int {
	grepArgs, pathspecs, st := gitGrepArgs(c, args)
	if st != 0 {
		return st
	}
	top, prefix, idx, st := c.gitIndex()
	if st != 0 {
		return st
	}
	match, ok := c.pathspecMatcher(top, prefix, pathspecs)
	if !ok {
		return 128
	}
	files := c.gitGrepFiles(top, prefix, idx, match)
	if len(files) == 0 {
		return 1
	}
	grepArgs = append(append(grepArgs, "-H", "-s", "--"), files...)
	name := c.name
	c.name = "git grep"
	defer func() { c.name = name }()
	return runGrep(c, grepArgs)
}

// gitGrepOptions is the reason given for refusing an option git grep has
// but this one does not.
const gitGrepOptions = "git grep options are limited to -l -L -c -n -h -i -v -w -x -E -F -G -q -z -e"

// gitGrepArgs translates git grep's arguments into grep's options and
// pattern, and returns them with the pathspecs; a status other than 0 is
// git grep's for an option it refuses or a missing pattern.
func gitGrepArgs(c *cmd, args []string) (grepArgs, pathspecs []string, status int) {
	havePattern := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			pathspecs = append(pathspecs, args[i+1:]...)
			i = len(args)
		case a == "-e" || a == "--regexp":
			if i+1 >= len(args) {
				return nil, nil, c.usage("switch 'e' requires a value")
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
				return nil, nil, c.refuse(a, gitGrepOptions)
			}
		case len(a) > 1 && a[0] == '-':
			for _, f := range a[1:] {
				if !strings.ContainsRune("lLcnhivwxEFGqzI", f) {
					return nil, nil, c.refuse("-"+string(f), gitGrepOptions)
				}
			}
			grepArgs = append(grepArgs, strings.ReplaceAll(a, "z", "Z"))
		default:
			pathspecs = append(pathspecs, a)
		}
	}
	if !havePattern {
		if len(pathspecs) == 0 {
			return nil, nil, c.usage("no pattern given")
		}
		grepArgs = append(grepArgs, "-e", pathspecs[0])
		pathspecs = pathspecs[1:]
	}
	return grepArgs, pathspecs, 0
}

// gitGrepFiles lists the tracked files that match, once each, that are
// regular files in the worktree and that commands may read, as paths
// relative to the working directory.
func (c *cmd) gitGrepFiles(top, prefix string, idx *index.Index, match *pathspec) []string {
	var files []string
	seen := map[string]bool{}
	for _, e := range idx.Entries {
		if seen[e.Name] || !match.match(e.Name) {
			continue
		}
		seen[e.Name] = true
		if fi, err := c.fs.lstat(top, e.Name); err != nil || !fi.Mode().IsRegular() {
			continue // deleted in the worktree, or a symlink: git grep skips it
		}
		if c.fs.refusedName(top, e.Name) != nil {
			// A file commands may not read (a sensitive .env): passed
			// over, as grep -r passes over it. Before, grep's -s hid
			// its refusal and git grep exited 2 with no reason given.
			continue
		}
		files = append(files, relToCwd(prefix, e.Name))
	}
	return files
}
