package shellexec

import (
	"io/fs"
	"strings"
)

// findEntry is one file the walk visits.
type findEntry struct {
	path  string // as printed
	name  string // basename for -name
	depth int
	typ   fs.FileMode // type bits (lstat)
	info  fs.FileInfo // lazily filled
	err   error
}

type findExpr func(c *findRun, e *findEntry) bool

type findRun struct {
	c          *cmd
	maxDepth   int
	minDepth   int
	depthFirst bool
	prune      bool // set by -prune for the current entry
	quit       bool
	status     int
}

func (r *findRun) info(e *findEntry) fs.FileInfo {
	if e.info == nil && e.err == nil {
		e.info, e.err = r.c.fs.lstat(r.c.dir, e.path)
	}
	return e.info
}

// runFind is GNU find over the project: the start paths, then an
// expression of the tests and actions find_parse.go reads. Options that
// follow symbolic links, write or execute are refused.
func runFind(c *cmd, args []string) int {
	r := &findRun{c: c, maxDepth: -1}
	args, follow := findLeadingOptions(args)
	if follow != "" {
		return c.refuse(follow, "following symbolic links is not supported")
	}
	starts, args := findStarts(args)
	expr, status := r.parseExpr(args)
	if status != 0 {
		return status
	}
	for _, s := range starts {
		if r.quit || c.ctx.Err() != nil {
			break
		}
		r.walkStart(expr, s)
	}
	if c.ctx.Err() != nil {
		return 1
	}
	return r.status
}

// findLeadingOptions drops the leading -P (symbolic links are not
// followed, find's default) and returns the rest of args, or the first
// leading -L or -H, which would follow them.
func findLeadingOptions(args []string) (rest []string, follow string) {
	for len(args) > 0 {
		switch args[0] {
		case "-P":
			args = args[1:]
		case "-L", "-H":
			return args, args[0]
		default:
			return args, ""
		}
	}
	return args, ""
}

// findStarts splits args into the start paths, the words before the first
// that begins with '-' (a lone "-" is a path), '!' or '(', and the
// expression; with no start path find starts at ".".
func findStarts(args []string) (starts, expr []string) {
	n := 0
	for n < len(args) && args[n] != "!" && args[n] != "(" && (args[n] == "-" || !strings.HasPrefix(args[n], "-")) {
		n++
	}
	if n == 0 {
		return []string{"."}, args
	}
	return args[:n], args[n:]
}

// parseExpr reads the expression, setting the run's options (-maxdepth,
// -depth, ...) as it meets them, and adds the -print find implies when the
// expression has no action. A status other than 0 is find's for a bad or
// refused expression, of which the parser or parseExpr has told.
func (r *findRun) parseExpr(args []string) (findExpr, int) {
	p := &findParser{r: r, args: args}
	var expr findExpr
	if len(args) > 0 {
		var ok bool
		if expr, ok = p.parseOr(); !ok {
			return nil, 1
		}
		if p.i < len(p.args) {
			if p.args[p.i] == ")" {
				return nil, r.c.usage("invalid expression; you have too many ')'")
			}
			return nil, r.c.usage("paths must precede expression: `%s'", p.args[p.i])
		}
	}
	if p.hasAction {
		return expr, 0
	}
	return func(r *findRun, e *findEntry) bool {
		if expr == nil || expr(r, e) {
			r.print(e.path, '\n')
		}
		return true
	}, 0
}

// walkStart walks the start path s: it is lstat'ed, visited, and entered
// when it is a directory. A start that cannot be read is reported and
// makes find's status 1.
func (r *findRun) walkStart(expr findExpr, s string) {
	c := r.c
	fi, err := c.fs.lstat(c.dir, s)
	if err != nil {
		c.errorf("'%s': %s", s, errText(err))
		r.status = 1
		return
	}
	name := "/"
	if t := strings.TrimRight(s, "/"); t != "" {
		name = t[strings.LastIndexByte(t, '/')+1:]
	}
	e := &findEntry{path: s, name: name, typ: fi.Mode().Type(), info: fi}
	var d *walkDir
	if e.typ.IsDir() {
		if d, err = c.fs.openWalk(c.dir, s); err != nil {
			c.errorf("'%s': %s", s, errText(err))
			r.status = 1
		}
	}
	r.visit(expr, e, d)
	if d != nil {
		d.Close()
	}
}

func (r *findRun) print(s string, term byte) {
	r.c.out.WriteString(s)
	r.c.out.WriteByte(term)
}

// visit evaluates e and walks into it if it is a directory; d is e
// opened for the walk (nil when e is not a directory or failed to open).
func (r *findRun) visit(expr findExpr, e *findEntry, d *walkDir) {
	if r.quit || r.c.writeErr() {
		return
	}
	r.prune = false
	if !r.depthFirst && e.depth >= r.minDepth {
		expr(r, e)
	}
	if d != nil && !r.prune && (r.maxDepth < 0 || e.depth < r.maxDepth) {
		prefix := e.path
		if !strings.HasSuffix(prefix, "/") {
			prefix += "/"
		}
		ents, err := d.List(e.path, func(name string) (fs.FileMode, error) {
			fi, err := r.c.fs.lstat(r.c.dir, prefix+name)
			if err != nil {
				return 0, err
			}
			return fi.Mode(), nil
		})
		if err != nil {
			r.c.errorf("'%s': %s", e.path, errText(err))
			r.status = 1
		}
		for _, de := range ents {
			if r.quit || r.c.ctx.Err() != nil {
				return
			}
			child := &findEntry{path: prefix + de.Name(), name: de.Name(), depth: e.depth + 1, typ: de.Type()}
			var sub *walkDir
			// .git and .taskctl are visited (their names printed) but
			// never entered: commands read nothing inside them.
			if child.typ.IsDir() && (r.maxDepth < 0 || child.depth < r.maxDepth) && !isStateName(de.Name()) {
				if sub, err = d.Sub(de.Name(), child.path); err != nil {
					r.c.errorf("'%s': %s", child.path, errText(err))
					r.status = 1
				}
			}
			r.visit(expr, child, sub)
			if sub != nil {
				sub.Close()
			}
		}
	}
	if r.depthFirst && e.depth >= r.minDepth {
		expr(r, e)
	}
}
