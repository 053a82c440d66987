package shellexec

import (
	"io/fs"
	"slices"
	"sort"
	"strings"
)

// lsRun is one ls: its options and the state of its output.
type lsRun struct {
	c                                     *cmd
	all, almost, dirOnly, slash, classify bool
	recursive, reverse, unsorted          bool
	headers                               bool // print "DIR:" above each listing
	first                                 bool // nothing printed yet
	status                                int
}

// runLs is GNU ls with -1aAdpFRrU: the operands that are files are
// printed first, then each directory's listing.
func runLs(c *cmd, args []string) int {
	opts, operands, err := parseOpts(args, "1aAdpFRrU", map[string]bool{"all": false, "almost-all": false, "directory": false, "recursive": false, "reverse": false, "classify": false})
	if err != nil {
		return c.usage("%v", err)
	}
	l := &lsRun{c: c}
	for _, o := range opts {
		l.setOption(o.name)
	}
	if len(operands) == 0 {
		operands = []string{"."}
	}
	files, dirs := l.sortOperands(operands)
	l.order(files)
	l.order(dirs)
	for _, f := range files {
		mode := fs.FileMode(0)
		if fi, err := c.fs.lstat(c.dir, f); err == nil {
			mode = fi.Mode()
		}
		c.out.WriteString(l.decorate(f, mode))
		c.out.WriteByte('\n')
	}
	l.headers = len(operands) > 1 || l.recursive
	l.first = len(files) == 0
	for _, d := range dirs {
		l.list(d)
	}
	return l.status
}

func (l *lsRun) setOption(name string) {
	switch name {
	case "a", "all":
		l.all = true
	case "A", "almost-all":
		l.almost = true
	case "d", "directory":
		l.dirOnly = true
	case "p":
		l.slash = true
	case "F", "classify":
		l.classify = true
	case "R", "recursive":
		l.recursive = true
	case "r", "reverse":
		l.reverse = true
	case "U":
		l.unsorted = true
	}
}

// sortOperands splits the operands into the files and the directories to
// list (a symlink to a directory is listed, unless -d); an operand that
// cannot be reached is an error.
func (l *lsRun) sortOperands(operands []string) (files, dirs []string) {
	c := l.c
	for _, op := range operands {
		if op == "" {
			// GNU ls: an empty name names no file (it listed the working
			// dir, and so did ls ~, which expands to "" here).
			c.errorf("cannot access '': No such file or directory")
			l.status = 2
			continue
		}
		fi, err := c.fs.lstat(c.dir, op)
		if err == nil && fi.Mode()&fs.ModeSymlink != 0 && !l.dirOnly {
			if st, err2 := c.fs.stat(c.dir, op); err2 == nil && st.IsDir() {
				fi = st
			}
		}
		if err != nil {
			c.errorf("cannot access '%s': %s", op, errText(err))
			l.status = 2
			continue
		}
		if fi.IsDir() && !l.dirOnly {
			dirs = append(dirs, op)
		} else {
			files = append(files, op)
		}
	}
	return files, dirs
}

// decorate adds the -p or -F indicator to a name.
func (l *lsRun) decorate(name string, mode fs.FileMode) string {
	switch {
	case mode.IsDir() && (l.slash || l.classify):
		return name + "/"
	case l.classify && mode&fs.ModeSymlink != 0:
		return name + "@"
	case l.classify && mode&0o111 != 0 && mode.IsRegular():
		return name + "*"
	}
	return name
}

// order sorts names as ls prints them.
func (l *lsRun) order(names []string) {
	if !l.unsorted {
		sort.Strings(names)
		if l.reverse {
			slices.Reverse(names)
		}
	}
}

// list prints the listing of directory dir, and with -R those of its
// subdirectories.
func (l *lsRun) list(dir string) {
	c := l.c
	if c.writeErr() {
		return
	}
	ents, err := c.fs.readDir(c.dir, dir)
	if err != nil {
		c.errorf("cannot open directory '%s': %s", dir, errText(err))
		l.status = 2
		return
	}
	if !l.first {
		c.out.WriteByte('\n')
	}
	l.first = false
	if l.headers {
		c.out.WriteString(dir + ":\n")
	}
	names, types := l.entries(ents)
	l.order(names)
	for _, n := range names {
		c.out.WriteString(l.decorate(n, types[n]))
		c.out.WriteByte('\n')
	}
	if l.recursive {
		for _, n := range names {
			// .git and .taskctl are listed but never entered.
			if types[n].IsDir() && n != "." && n != ".." && !isStateName(n) {
				l.list(joinPath(dir, n))
			}
		}
	}
}

// entries returns the names a listing shows and their types (with -F, a
// regular file's mode, for its executable bits).
func (l *lsRun) entries(ents []fs.DirEntry) ([]string, map[string]fs.FileMode) {
	types := map[string]fs.FileMode{}
	var names []string
	if l.all {
		names = append(names, ".", "..")
		types["."], types[".."] = fs.ModeDir, fs.ModeDir
	}
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), ".") && !l.all && !l.almost {
			continue
		}
		names = append(names, e.Name())
		t := e.Type()
		if l.classify && t.IsRegular() {
			if fi, err := e.Info(); err == nil {
				t = fi.Mode()
			}
		}
		types[e.Name()] = t
	}
	return names, types
}
