package shellexec

import (
	"strconv"
	"strings"
	"sync/atomic"
)

type grepOpts struct {
	recursive, filesWith, filesWithout, count, lineNum, noName, withName bool
	fold, invert, word, line, onlyMatch, quiet, silent, nulData, nulName bool
	text, skipBinary                                                     bool
	maxCount                                                             int64
	includes                                                             []globRule
}

type globRule struct {
	pat     string
	include bool
}

var grepLong = map[string]bool{
	"recursive": false, "files-with-matches": false, "files-without-match": false, "count": false,
	"line-number": false, "no-filename": false, "with-filename": false, "ignore-case": false,
	"invert-match": false, "word-regexp": false, "line-regexp": false, "extended-regexp": false,
	"fixed-strings": false, "basic-regexp": false, "regexp": true, "file": true, "max-count": true,
	"only-matching": false, "quiet": false, "silent": false, "no-messages": false, "null-data": false,
	"null": false, "include": true, "exclude": true, "exclude-dir": true, "color": true, "colour": true,
	"text": false, "dereference-recursive": false, "no-ignore-case": false, "binary-files": true,
	"perl-regexp": false, "after-context": true, "before-context": true, "context": true,
}

type grepRun struct {
	c       *cmd
	o       grepOpts
	m       *matcher
	names   bool // print file names
	matched bool
	errored bool
	excDirs []string
	bufs    [grepWorkers][]byte // one reused file buffer per worker

	quietHit atomic.Bool // -q: a match was found; stop
}

// runGrep is GNU grep without context lines, -P or -R: the options are
// read, the patterns compiled, then each operand searched (a directory
// walked with -r).
func runGrep(c *cmd, args []string) int {
	opts, operands, err := parseOpts(args, "rRlLcnhHiyvwxEFGe:f:m:oqszZaIPA:B:C:", grepLong)
	if err != nil {
		return c.usage("%v", err)
	}
	g := &grepRun{c: c, o: grepOpts{maxCount: -1}}
	var syn grepSyntax
	for _, op := range opts {
		if g.o.setFlag(op.name) {
			continue
		}
		if status, ok := g.setOption(op, &syn); !ok {
			return status
		}
	}
	if !syn.given {
		if len(operands) == 0 {
			return c.usage("Usage: grep [OPTION]... PATTERNS [FILE]...")
		}
		syn.patterns = strings.Split(operands[0], "\n")
		operands = operands[1:]
	}
	g.m, err = newMatcher(syn.patterns, syn.fixed, syn.ere, g.o)
	if err == nil {
		g.m.ctx = c.ctx
	}
	if err != nil {
		return c.usage("%v", err)
	}
	if g.o.maxCount == 0 {
		return 1
	}
	implicitDot := false
	if len(operands) == 0 {
		if g.o.recursive {
			operands = []string{"."}
			implicitDot = true
		} else {
			operands = []string{"-"}
		}
	}
	g.names = (len(operands) > 1 || g.o.recursive) && !g.o.noName || g.o.withName
	for _, name := range operands {
		if g.stop() {
			break
		}
		g.searchOperand(name, implicitDot)
	}
	switch {
	case g.o.quiet && g.matched:
		return 0
	case g.errored:
		return 2
	case g.matched:
		return 0
	}
	return 1
}

// grepSyntax is what the options say of the patterns: those given with -e
// and -f (given is set even when -f read none), and their syntax.
type grepSyntax struct {
	patterns   []string
	given      bool
	ere, fixed bool
}

// setFlag sets one of grep's options that take no value and only set
// flags; it reports false for any other option.
func (o *grepOpts) setFlag(name string) bool {
	switch name {
	case "r", "recursive":
		o.recursive = true
	case "l", "files-with-matches":
		o.filesWith, o.filesWithout = true, false
	case "L", "files-without-match":
		o.filesWithout, o.filesWith = true, false
	case "c", "count":
		o.count = true
	case "n", "line-number":
		o.lineNum = true
	case "h", "no-filename":
		o.noName, o.withName = true, false
	case "H", "with-filename":
		o.withName, o.noName = true, false
	case "i", "y", "ignore-case":
		o.fold = true
	case "no-ignore-case":
		o.fold = false
	case "v", "invert-match":
		o.invert = true
	case "w", "word-regexp":
		o.word = true
	case "x", "line-regexp":
		o.line = true
	case "o", "only-matching":
		o.onlyMatch = true
	case "q", "quiet", "silent":
		o.quiet = true
	case "s", "no-messages":
		o.silent = true
	case "z", "null-data":
		o.nulData = true
	case "Z", "null":
		o.nulName = true
	case "a", "text":
		o.text = true
	case "I":
		o.skipBinary = true
	default:
		return false
	}
	return true
}

// setOption applies one of grep's other options: the pattern syntax, the
// patterns, values and refusals. ok is false when grep must stop with
// status.
func (g *grepRun) setOption(op opt, syn *grepSyntax) (status int, ok bool) {
	c := g.c
	switch op.name {
	case "R", "dereference-recursive":
		return c.refuse("-R", "following symbolic links during recursion could leave the project; use -r"), false
	case "E", "extended-regexp":
		syn.ere, syn.fixed = true, false
	case "F", "fixed-strings":
		syn.fixed, syn.ere = true, false
	case "G", "basic-regexp":
		syn.fixed, syn.ere = false, false
	case "P", "perl-regexp":
		return c.usage("-P is not supported; patterns use RE2 syntax with -E"), false
	case "e", "regexp":
		syn.patterns = append(syn.patterns, strings.Split(op.val, "\n")...)
		syn.given = true
	case "f", "file":
		data, err := c.readInput(op.val)
		if err != nil {
			return c.usage("%s", c.pathMsg(err)), false
		}
		s := strings.TrimSuffix(string(data), "\n")
		if s != "" || len(data) > 0 {
			syn.patterns = append(syn.patterns, strings.Split(s, "\n")...)
		}
		syn.given = true
	case "m", "max-count":
		n, err := strconv.ParseInt(op.val, 10, 64)
		if err != nil {
			return c.usage("invalid max count"), false
		}
		g.o.maxCount = n
	case "binary-files":
		switch op.val {
		case "text":
			g.o.text = true
		case "without-match":
			g.o.skipBinary = true
		case "binary":
		default:
			return c.usage("unknown binary-files type"), false
		}
	case "include":
		g.o.includes = append(g.o.includes, globRule{op.val, true})
	case "exclude":
		g.o.includes = append(g.o.includes, globRule{op.val, false})
	case "exclude-dir":
		g.excDirs = append(g.excDirs, op.val)
	case "color", "colour":
		if op.val != "never" && op.val != "auto" {
			return c.usage("--color=%s is not supported", op.val), false
		}
	case "A", "B", "C", "after-context", "before-context", "context":
		return c.usage("context lines (-%s) are not supported", op.name), false
	}
	return 0, true
}

// searchOperand searches one operand: standard input, a file, or with -r
// a directory (shown without a "./" prefix when grep -r had no operand).
func (g *grepRun) searchOperand(name string, implicitDot bool) {
	c := g.c
	if name == "-" {
		data, err := c.readStdin()
		if err != nil {
			g.fileErr("(standard input)", err)
			return
		}
		if g.search(c.out, "(standard input)", data) {
			g.matched = true
		}
		return
	}
	fi, err := c.fs.stat(c.dir, name)
	if err == nil && !fi.IsDir() && !g.included(name, true) {
		return
	}
	if err != nil {
		g.fileErr(name, err)
		return
	}
	if fi.IsDir() {
		if !g.o.recursive {
			if !g.o.silent {
				c.errorf("%s: Is a directory", name)
			}
			g.errored = true
			return
		}
		prefix := name
		if implicitDot {
			prefix = ""
		}
		g.walk(name, prefix)
		return
	}
	g.searchFile(name, name)
}

func (g *grepRun) stop() bool {
	return g.c.ctx.Err() != nil || g.o.quiet && g.matched || g.c.writeErr()
}

func (g *grepRun) fileErr(name string, err error) {
	g.errored = true
	if !g.o.silent {
		g.c.errorf("%s: %s", name, errText(err))
	}
}

// included applies --include/--exclude: the last matching rule wins; with
// any --include and no match, the file is skipped.
func (g *grepRun) included(name string, cmdline bool) bool {
	if len(g.o.includes) == 0 {
		return true
	}
	base := name[strings.LastIndexByte(name, '/')+1:]
	anyInclude := false
	for i := len(g.o.includes) - 1; i >= 0; i-- {
		r := g.o.includes[i]
		anyInclude = anyInclude || r.include
		if fnmatch(r.pat, base, false) || cmdline && fnmatch(r.pat, name, false) {
			return r.include
		}
	}
	for _, r := range g.o.includes {
		if r.include {
			return false
		}
	}
	return !anyInclude
}
