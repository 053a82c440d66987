package shellexec

import (
	"io/fs"
	"strconv"
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

func runFind(c *cmd, args []string) int {
	r := &findRun{c: c, maxDepth: -1}
	// Leading options.
	for len(args) > 0 {
		switch args[0] {
		case "-P":
			args = args[1:]
			continue
		case "-L", "-H":
			return c.refuse(args[0], "following symbolic links is not supported")
		}
		break
	}
	var starts []string
	for len(args) > 0 && (args[0] == "!" || args[0] == "(" || !strings.HasPrefix(args[0], "-") || args[0] == "-") {
		if args[0] == "!" || args[0] == "(" {
			break
		}
		starts = append(starts, args[0])
		args = args[1:]
	}
	if len(starts) == 0 {
		starts = []string{"."}
	}
	p := &findParser{r: r, args: args}
	var expr findExpr
	if len(args) > 0 {
		var ok bool
		expr, ok = p.parseOr()
		if !ok {
			if p.refused {
				return 1
			}
			return 1
		}
		if p.i < len(p.args) {
			if p.args[p.i] == ")" {
				return c.usage("invalid expression; you have too many ')'")
			}
			return c.usage("paths must precede expression: `%s'", p.args[p.i])
		}
	}
	if !p.hasAction {
		inner := expr
		expr = func(r *findRun, e *findEntry) bool {
			if inner == nil || inner(r, e) {
				r.print(e.path, '\n')
			}
			return true
		}
	}
	for _, s := range starts {
		if r.quit || c.ctx.Err() != nil {
			break
		}
		fi, err := c.fs.lstat(c.dir, s)
		if err != nil {
			c.errorf("'%s': %s", s, errText(err))
			r.status = 1
			continue
		}
		name := s
		if t := strings.TrimRight(s, "/"); t != "" {
			name = t[strings.LastIndexByte(t, '/')+1:]
		} else {
			name = "/"
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
			d.close()
		}
	}
	if c.ctx.Err() != nil {
		return 1
	}
	return r.status
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
		ents, err := d.list(e.path, func(name string) (fs.FileMode, error) {
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
			if child.typ.IsDir() && (r.maxDepth < 0 || child.depth < r.maxDepth) {
				if sub, err = d.sub(de.Name(), child.path); err != nil {
					r.c.errorf("'%s': %s", child.path, errText(err))
					r.status = 1
				}
			}
			r.visit(expr, child, sub)
			if sub != nil {
				sub.close()
			}
		}
	}
	if r.depthFirst && e.depth >= r.minDepth {
		expr(r, e)
	}
}

func errText(err error) string {
	if pe, ok := err.(*fs.PathError); ok {
		err = pe.Err
	}
	switch {
	case isNotExist(err):
		return "No such file or directory"
	case err == errOutside:
		return "Permission denied (outside the project)"
	}
	s := err.Error()
	if s == "permission denied" {
		return "Permission denied"
	}
	if s == "not a directory" {
		return "Not a directory"
	}
	return s
}

type findParser struct {
	r         *findRun
	args      []string
	i         int
	hasAction bool
	refused   bool
}

func (p *findParser) peek() string {
	if p.i < len(p.args) {
		return p.args[p.i]
	}
	return ""
}

func (p *findParser) parseOr() (findExpr, bool) {
	left, ok := p.parseAnd()
	if !ok {
		return nil, false
	}
	for p.peek() == "-o" || p.peek() == "-or" {
		p.i++
		right, ok := p.parseAnd()
		if !ok {
			return nil, false
		}
		l := left
		left = func(r *findRun, e *findEntry) bool { return l(r, e) || right(r, e) }
	}
	return left, true
}

func (p *findParser) parseAnd() (findExpr, bool) {
	left, ok := p.parseNot()
	if !ok {
		return nil, false
	}
	for {
		t := p.peek()
		if t == "" || t == "-o" || t == "-or" || t == ")" || t == "," {
			return left, true
		}
		if t == "-a" || t == "-and" {
			p.i++
		}
		right, ok := p.parseNot()
		if !ok {
			return nil, false
		}
		l := left
		left = func(r *findRun, e *findEntry) bool { return l(r, e) && right(r, e) }
	}
}

func (p *findParser) parseNot() (findExpr, bool) {
	if t := p.peek(); t == "!" || t == "-not" {
		p.i++
		x, ok := p.parseNot()
		if !ok {
			return nil, false
		}
		return func(r *findRun, e *findEntry) bool { return !x(r, e) }, true
	}
	return p.parsePrimary()
}

func (p *findParser) fail(format string, args ...any) (findExpr, bool) {
	p.r.c.errorf(format, args...)
	return nil, false
}

func (p *findParser) arg(flag string) (string, bool) {
	if p.i >= len(p.args) {
		p.r.c.errorf("missing argument to `%s'", flag)
		return "", false
	}
	a := p.args[p.i]
	p.i++
	return a, true
}

func (p *findParser) parsePrimary() (findExpr, bool) {
	c := p.r.c
	t := p.peek()
	if t == "" {
		return p.fail("invalid expression")
	}
	p.i++
	always := func(*findRun, *findEntry) bool { return true }
	switch t {
	case "(":
		x, ok := p.parseOr()
		if !ok {
			return nil, false
		}
		if p.peek() != ")" {
			return p.fail("invalid expression; I was expecting to find a ')' somewhere but did not see one.")
		}
		p.i++
		return x, true
	case "-name", "-iname":
		pat, ok := p.arg(t)
		if !ok {
			return nil, false
		}
		fold := t == "-iname"
		return func(_ *findRun, e *findEntry) bool { return fnmatch(pat, e.name, fold) }, true
	case "-path", "-ipath", "-wholename", "-iwholename":
		pat, ok := p.arg(t)
		if !ok {
			return nil, false
		}
		fold := t[1] == 'i'
		return func(_ *findRun, e *findEntry) bool { return fnmatch(pat, e.path, fold) }, true
	case "-type", "-xtype":
		v, ok := p.arg(t)
		if !ok {
			return nil, false
		}
		var want []fs.FileMode
		for _, k := range strings.Split(v, ",") {
			switch k {
			case "f":
				want = append(want, 0)
			case "d":
				want = append(want, fs.ModeDir)
			case "l":
				want = append(want, fs.ModeSymlink)
			case "p":
				want = append(want, fs.ModeNamedPipe)
			case "s":
				want = append(want, fs.ModeSocket)
			case "b":
				want = append(want, fs.ModeDevice)
			case "c":
				want = append(want, fs.ModeDevice|fs.ModeCharDevice)
			default:
				return p.fail("Unknown argument to -type: %s", k)
			}
		}
		follow := t == "-xtype"
		return func(r *findRun, e *findEntry) bool {
			typ := e.typ & (fs.ModeType)
			if follow && typ == fs.ModeSymlink {
				if fi, err := r.c.fs.stat(r.c.dir, e.path); err == nil {
					typ = fi.Mode().Type()
				}
			}
			for _, w := range want {
				if typ == w {
					return true
				}
			}
			return false
		}, true
	case "-maxdepth", "-mindepth":
		v, ok := p.arg(t)
		if !ok {
			return nil, false
		}
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return p.fail("Expected a positive decimal integer argument to %s, but got `%s'", t, v)
		}
		if t == "-maxdepth" {
			p.r.maxDepth = n
		} else {
			p.r.minDepth = n
		}
		return always, true
	case "-depth", "-d":
		p.r.depthFirst = true
		return always, true
	case "-xdev", "-mount", "-noleaf", "-ignore_readdir_race", "-true":
		return always, true
	case "-false":
		return func(*findRun, *findEntry) bool { return false }, true
	case "-empty":
		return func(r *findRun, e *findEntry) bool {
			switch {
			case e.typ.IsDir():
				ents, err := r.c.fs.readDir(r.c.dir, e.path)
				return err == nil && len(ents) == 0
			case e.typ.IsRegular():
				fi := r.info(e)
				return fi != nil && fi.Size() == 0
			}
			return false
		}, true
	case "-size":
		v, ok := p.arg(t)
		if !ok {
			return nil, false
		}
		cmp, n, unit, ok := parseFindSize(v)
		if !ok {
			return p.fail("invalid -size argument: `%s'", v)
		}
		return func(r *findRun, e *findEntry) bool {
			fi := r.info(e)
			if fi == nil {
				return false
			}
			units := (fi.Size() + unit - 1) / unit
			switch cmp {
			case '+':
				return units > n
			case '-':
				return units < n
			}
			return units == n
		}, true
	case "-print", "-print0":
		p.hasAction = true
		term := byte('\n')
		if t == "-print0" {
			term = 0
		}
		return func(r *findRun, e *findEntry) bool { r.print(e.path, term); return true }, true
	case "-prune":
		return func(r *findRun, e *findEntry) bool {
			if !r.depthFirst {
				r.prune = true
			}
			return true
		}, true
	case "-quit":
		return func(r *findRun, e *findEntry) bool { r.quit = true; return true }, true
	case "-delete", "-exec", "-execdir", "-ok", "-okdir", "-fprint", "-fprint0", "-fprintf", "-fls":
		p.refused = true
		c.refuse(t, "find may only read; options that write or execute are refused")
		return nil, false
	case "-L", "-H", "-follow":
		p.refused = true
		c.refuse(t, "following symbolic links is not supported")
		return nil, false
	}
	if strings.HasPrefix(t, "-") {
		return p.fail("unknown predicate `%s'", t)
	}
	return p.fail("paths must precede expression: `%s'", t)
}

func parseFindSize(v string) (cmp byte, n, unit int64, ok bool) {
	if v == "" {
		return 0, 0, 0, false
	}
	if v[0] == '+' || v[0] == '-' {
		cmp = v[0]
		v = v[1:]
	}
	unit = 512
	if v != "" {
		switch v[len(v)-1] {
		case 'c':
			unit = 1
		case 'w':
			unit = 2
		case 'b':
			unit = 512
		case 'k':
			unit = 1024
		case 'M':
			unit = 1 << 20
		case 'G':
			unit = 1 << 30
		default:
			goto num
		}
		v = v[:len(v)-1]
	}
num:
	x, err := strconv.ParseInt(v, 10, 64)
	if err != nil || x < 0 {
		return 0, 0, 0, false
	}
	return cmp, x, unit, true
}
