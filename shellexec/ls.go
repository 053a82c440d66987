package shellexec

import (
	"io/fs"
	"slices"
	"sort"
	"strings"
)

func runLs(c *cmd, args []string) int {
	opts, operands, err := parseOpts(args, "1aAdpFRrU", map[string]bool{"all": false, "almost-all": false, "directory": false, "recursive": false, "reverse": false, "classify": false})
	if err != nil {
		return c.usage("%v", err)
	}
	var all, almost, dirOnly, slash, classify, recursive, reverse, unsorted bool
	for _, o := range opts {
		switch o.name {
		case "a", "all":
			all = true
		case "A", "almost-all":
			almost = true
		case "d", "directory":
			dirOnly = true
		case "p":
			slash = true
		case "F", "classify":
			classify = true
		case "R", "recursive":
			recursive = true
		case "r", "reverse":
			reverse = true
		case "U":
			unsorted = true
		}
	}
	if len(operands) == 0 {
		operands = []string{"."}
	}
	status := 0
	decorate := func(name string, mode fs.FileMode) string {
		switch {
		case mode.IsDir() && (slash || classify):
			return name + "/"
		case classify && mode&fs.ModeSymlink != 0:
			return name + "@"
		case classify && mode&0o111 != 0 && mode.IsRegular():
			return name + "*"
		}
		return name
	}
	order := func(names []string) {
		if !unsorted {
			sort.Strings(names)
			if reverse {
				slices.Reverse(names)
			}
		}
	}
	var files, dirs []string
	for _, op := range operands {
		fi, err := c.fs.lstat(c.dir, op)
		if err == nil && fi.Mode()&fs.ModeSymlink != 0 && !dirOnly {
			if st, err2 := c.fs.stat(c.dir, op); err2 == nil && st.IsDir() {
				fi = st
			}
		}
		if err != nil {
			c.errorf("cannot access '%s': %s", op, errText(err))
			status = 2
			continue
		}
		if fi.IsDir() && !dirOnly {
			dirs = append(dirs, op)
		} else {
			files = append(files, op)
		}
	}
	order(files)
	order(dirs)
	for _, f := range files {
		mode := fs.FileMode(0)
		if fi, err := c.fs.lstat(c.dir, f); err == nil {
			mode = fi.Mode()
		}
		c.out.WriteString(decorate(f, mode))
		c.out.WriteByte('\n')
	}
	headers := len(operands) > 1 || recursive
	first := len(files) == 0
	var list func(dir string)
	list = func(dir string) {
		if c.writeErr() {
			return
		}
		ents, err := c.fs.readDir(c.dir, dir)
		if err != nil {
			c.errorf("cannot open directory '%s': %s", dir, errText(err))
			status = 2
			return
		}
		if !first {
			c.out.WriteByte('\n')
		}
		first = false
		if headers {
			c.out.WriteString(dir + ":\n")
		}
		types := map[string]fs.FileMode{}
		var names []string
		if all {
			names = append(names, ".", "..")
			types["."], types[".."] = fs.ModeDir, fs.ModeDir
		}
		for _, e := range ents {
			if strings.HasPrefix(e.Name(), ".") && !all && !almost {
				continue
			}
			names = append(names, e.Name())
			t := e.Type()
			if classify && t.IsRegular() {
				if fi, err := e.Info(); err == nil {
					t = fi.Mode()
				}
			}
			types[e.Name()] = t
		}
		order(names)
		for _, n := range names {
			c.out.WriteString(decorate(n, types[n]))
			c.out.WriteByte('\n')
		}
		if recursive {
			for _, n := range names {
				if types[n].IsDir() && n != "." && n != ".." {
					list(joinPath(dir, n))
				}
			}
		}
	}
	for _, d := range dirs {
		list(d)
	}
	return status
}
