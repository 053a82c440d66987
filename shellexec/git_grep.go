package shellexec

import "strings"

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
	if len(files) == 0 {
		return 1
	}
	grepArgs = append(append(grepArgs, "-H", "-s", "--"), files...)
	name := c.name
	c.name = "git grep"
	defer func() { c.name = name }()
	return runGrep(c, grepArgs)
}
