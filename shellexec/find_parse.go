package shellexec

import (
	"io/fs"
	"strconv"
	"strings"
)

type findParser struct {
	r         *findRun
	args      []string
	i         int
	hasAction bool
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
		return p.typeTest(t)
	case "-maxdepth", "-mindepth":
		return p.depthOption(t)
	case "-depth", "-d":
		p.r.depthFirst = true
		return always, true
	case "-xdev", "-mount", "-noleaf", "-ignore_readdir_race", "-true":
		return always, true
	case "-false":
		return func(*findRun, *findEntry) bool { return false }, true
	case "-empty":
		return findEmpty, true
	case "-size":
		return p.sizeTest(t)
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
		c.refuse(t, "find may only read; options that write or execute are refused")
		return nil, false
	case "-L", "-H", "-follow":
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

// typeTest parses the argument of -type or -xtype (letters joined by
// commas): -xtype tests a symlink's target.
func (p *findParser) typeTest(t string) (findExpr, bool) {
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
}

// depthOption parses -maxdepth or -mindepth, which set the walk's bounds
// and are true.
func (p *findParser) depthOption(t string) (findExpr, bool) {
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
	return func(*findRun, *findEntry) bool { return true }, true
}

// findEmpty is -empty: an empty directory or regular file.
func findEmpty(r *findRun, e *findEntry) bool {
	switch {
	case e.typ.IsDir():
		ents, err := r.c.fs.readDir(r.c.dir, e.path)
		return err == nil && len(ents) == 0
	case e.typ.IsRegular():
		fi := r.info(e)
		return fi != nil && fi.Size() == 0
	}
	return false
}

// sizeTest parses -size [+-]N[unit].
func (p *findParser) sizeTest(t string) (findExpr, bool) {
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
}
