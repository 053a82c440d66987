package shellexec

import (
	"bytes"
	"errors"
	"io/fs"
	"regexp"
	"strconv"
	"strings"
	"sync"
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

func runGrep(c *cmd, args []string) int {
	opts, operands, err := parseOpts(args, "rRlLcnhHiyvwxEFGe:f:m:oqszZaIPA:B:C:", grepLong)
	if err != nil {
		return c.usage("%v", err)
	}
	g := &grepRun{c: c, o: grepOpts{maxCount: -1}}
	var patterns []string
	havePattern := false
	ere, fixed := false, false
	for _, op := range opts {
		switch op.name {
		case "r", "recursive":
			g.o.recursive = true
		case "R", "dereference-recursive":
			return c.refuse("-R", "following symbolic links during recursion could leave the project; use -r")
		case "l", "files-with-matches":
			g.o.filesWith, g.o.filesWithout = true, false
		case "L", "files-without-match":
			g.o.filesWithout, g.o.filesWith = true, false
		case "c", "count":
			g.o.count = true
		case "n", "line-number":
			g.o.lineNum = true
		case "h", "no-filename":
			g.o.noName, g.o.withName = true, false
		case "H", "with-filename":
			g.o.withName, g.o.noName = true, false
		case "i", "y", "ignore-case":
			g.o.fold = true
		case "no-ignore-case":
			g.o.fold = false
		case "v", "invert-match":
			g.o.invert = true
		case "w", "word-regexp":
			g.o.word = true
		case "x", "line-regexp":
			g.o.line = true
		case "E", "extended-regexp":
			ere, fixed = true, false
		case "F", "fixed-strings":
			fixed, ere = true, false
		case "G", "basic-regexp":
			fixed, ere = false, false
		case "P", "perl-regexp":
			return c.usage("-P is not supported; patterns use RE2 syntax with -E")
		case "e", "regexp":
			patterns = append(patterns, strings.Split(op.val, "\n")...)
			havePattern = true
		case "f", "file":
			data, err := c.readInput(op.val)
			if err != nil {
				return c.usage("%s", c.pathMsg(err))
			}
			s := strings.TrimSuffix(string(data), "\n")
			if s != "" || len(data) > 0 {
				patterns = append(patterns, strings.Split(s, "\n")...)
			}
			havePattern = true
		case "m", "max-count":
			n, err := strconv.ParseInt(op.val, 10, 64)
			if err != nil {
				return c.usage("invalid max count")
			}
			g.o.maxCount = n
		case "o", "only-matching":
			g.o.onlyMatch = true
		case "q", "quiet", "silent":
			g.o.quiet = true
		case "s", "no-messages":
			g.o.silent = true
		case "z", "null-data":
			g.o.nulData = true
		case "Z", "null":
			g.o.nulName = true
		case "a", "text":
			g.o.text = true
		case "I":
			g.o.skipBinary = true
		case "binary-files":
			switch op.val {
			case "text":
				g.o.text = true
			case "without-match":
				g.o.skipBinary = true
			case "binary":
			default:
				return c.usage("unknown binary-files type")
			}
		case "include":
			g.o.includes = append(g.o.includes, globRule{op.val, true})
		case "exclude":
			g.o.includes = append(g.o.includes, globRule{op.val, false})
		case "exclude-dir":
			g.excDirs = append(g.excDirs, op.val)
		case "color", "colour":
			if op.val != "never" && op.val != "auto" {
				return c.usage("--color=%s is not supported", op.val)
			}
		case "A", "B", "C", "after-context", "before-context", "context":
			return c.usage("context lines (-%s) are not supported", op.name)
		}
	}
	if !havePattern {
		if len(operands) == 0 {
			return c.usage("Usage: grep [OPTION]... PATTERNS [FILE]...")
		}
		patterns = strings.Split(operands[0], "\n")
		operands = operands[1:]
	}
	g.m, err = newMatcher(patterns, fixed, ere, g.o)
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
		if name == "-" {
			data, err := readAllLimited(c.stdin, maxFileBytes)
			if err != nil {
				g.fileErr("(standard input)", err)
				continue
			}
			if g.search(c.out, "(standard input)", data) {
				g.matched = true
			}
			continue
		}
		fi, err := c.fs.stat(c.dir, name)
		if err == nil && !fi.IsDir() && !g.included(name, true) {
			continue
		}
		if err != nil {
			g.fileErr(name, err)
			continue
		}
		if fi.IsDir() {
			if !g.o.recursive {
				if !g.o.silent {
					c.errorf("%s: Is a directory", name)
				}
				g.errored = true
				continue
			}
			prefix := name
			if implicitDot {
				prefix = ""
			}
			g.walk(name, prefix)
			continue
		}
		g.searchFile(name, name)
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

// walk searches a directory tree in readdir order, like GNU grep -r:
// symbolic links found while walking are skipped.
func (g *grepRun) walk(dir, shown string) {
	d, err := g.c.fs.openWalk(g.c.dir, dir)
	if err != nil {
		g.fileErr(dir, err)
		return
	}
	g.walkAt(d, dir, shown)
	d.close()
}

// walkAt searches the directory d, which is dir relative to the command's
// directory and shown as shown.
func (g *grepRun) walkAt(d *walkDir, dir, shown string) {
	ents, err := d.list(dir, func(name string) (fs.FileMode, error) {
		fi, err := g.c.fs.lstat(g.c.dir, joinPath(dir, name))
		if err != nil {
			return 0, err
		}
		return fi.Mode(), nil
	})
	if err != nil {
		g.fileErr(dir, err)
		return
	}
	var batch []grepJob
	flush := func() {
		g.searchBatch(d, batch)
		batch = batch[:0]
	}
	for _, e := range ents {
		if g.stop() {
			return
		}
		name := e.Name()
		switch t := e.Type(); {
		case t.IsDir():
			flush()
			if g.excludedDir(name) {
				continue
			}
			disp := joinPath(shown, name)
			sub, err := d.sub(name, disp)
			if err != nil {
				g.fileErr(disp, err)
				continue
			}
			g.walkAt(sub, joinPath(dir, name), disp)
			sub.close()
		case t.IsRegular():
			if g.included(name, false) && g.c.fs.refused(g.c.dir, joinPath(dir, name), true) == nil {
				batch = append(batch, grepJob{name: name, path: joinPath(dir, name), shown: joinPath(shown, name)})
				if len(batch) == maxGrepBatch {
					flush()
				}
			}
		}
	}
	flush()
}

// grepJob is one file of a batch searched in parallel; output is
// buffered per file and written in readdir order.
type grepJob struct {
	name    string // in its directory
	path    string // relative to the command's directory
	shown   string // as printed
	out     bytes.Buffer
	matched bool
	err     error
}

const (
	maxGrepBatch = 64
	grepWorkers  = 2
)

func (g *grepRun) searchBatch(d *walkDir, jobs []grepJob) {
	if len(jobs) == 0 {
		return
	}
	var next atomic.Int64
	// For -l, -L and -q one selected line decides, so files are scanned
	// in chunks and a file is read only up to its first selected line, as
	// GNU grep does. With -I a NUL anywhere in the file decides too, so
	// such files are read whole.
	stream := (g.o.filesWith || g.o.filesWithout || g.o.quiet) && !g.o.skipBinary
	sep := byte('\n')
	if g.o.nulData {
		sep = 0
	}
	work := func(w int) {
		buf := g.bufs[w]
		defer func() { g.bufs[w] = buf }()
		for {
			i := int(next.Add(1) - 1)
			if i >= len(jobs) || g.c.ctx.Err() != nil || g.o.quiet && g.quietHit.Load() {
				return
			}
			j := &jobs[i]
			if stream {
				cancelled := false
				found, reuse, ok, err := d.scanFile(j.name, j.shown, buf, sep, func(part []byte) bool {
					if g.c.ctx.Err() != nil {
						cancelled = true
						return true
					}
					return g.search(discard{}, j.shown, part)
				})
				buf = reuse[:0]
				if ok {
					if cancelled {
						continue
					}
					if err != nil {
						j.err = err
						continue
					}
					j.matched = found
					if found && g.o.filesWith || !found && g.o.filesWithout {
						g.printName(&j.out, j.shown)
					}
					if found && g.o.quiet {
						g.quietHit.Store(true)
					}
					continue
				}
			}
			data, ok, err := d.readFile(j.name, j.shown, buf)
			if !ok {
				// Not the plain file getdents listed (now a symlink, say):
				// read it as a named file, through the os.Root.
				data, err = g.c.fs.readFile(g.c.dir, j.path)
			}
			if err != nil {
				j.err = err
				continue
			}
			buf = data[:0]
			j.matched = g.search(&j.out, j.shown, data)
			if j.matched && g.o.quiet {
				g.quietHit.Store(true)
			}
		}
	}
	// -l, -L and -q read files and stop at their first selected line:
	// system calls, not matching, take the time, and a second worker
	// costs more in wake-ups than it saves (on podman and terraform it
	// made grep -rl slower, in CPU and wall time).
	if len(jobs) == 1 || stream {
		work(0)
	} else {
		var wg sync.WaitGroup
		for w := 1; w < grepWorkers; w++ {
			wg.Go(func() { work(w) })
		}
		work(0)
		wg.Wait()
	}
	for i := range jobs {
		j := &jobs[i]
		if j.err != nil {
			if !errors.Is(j.err, errNotRegular) {
				g.fileErr(j.shown, j.err)
			}
			continue
		}
		g.c.out.Write(j.out.Bytes())
		if j.matched {
			g.matched = true
		}
	}
}

func (g *grepRun) excludedDir(name string) bool {
	for _, p := range g.excDirs {
		if fnmatch(p, name, false) {
			return true
		}
	}
	return false
}

func joinPath(dir, name string) string {
	switch {
	case dir == "":
		return name
	case strings.HasSuffix(dir, "/"):
		return dir + name
	}
	return dir + "/" + name
}

func (g *grepRun) searchFile(path, shown string) {
	if err := g.c.fs.refused(g.c.dir, path, false); err != nil {
		if !g.o.recursive {
			g.fileErr(shown, err)
		}
		return // grep -r passes over a file the policy keeps from it
	}
	data, err := g.c.fs.readFile(g.c.dir, path)
	if err != nil {
		if errors.Is(err, errNotRegular) && g.o.recursive {
			return // devices and FIFOs are skipped under -r
		}
		g.fileErr(shown, err)
		return
	}
	if g.search(g.c.out, shown, data) {
		g.matched = true
	}
}

// discard is a byteWriter that keeps nothing.
type discard struct{}

func (discard) Write(p []byte) (int, error)       { return len(p), nil }
func (discard) WriteString(s string) (int, error) { return len(s), nil }
func (discard) WriteByte(byte) error              { return nil }

// byteWriter is what search writes to: the command's output, or a
// per-file buffer when files are searched in parallel.
type byteWriter interface {
	Write([]byte) (int, error)
	WriteString(string) (int, error)
	WriteByte(byte) error
}

// search runs the matcher over one file's contents, writing to w, and
// reports whether a line was selected. It is safe for concurrent use.
func (g *grepRun) search(w byteWriter, name string, data []byte) bool {
	o := &g.o
	c := g.c
	sep := byte('\n')
	if o.nulData {
		sep = 0
	}
	listOnly := o.filesWith || o.filesWithout || o.quiet
	// Binary files only change how lines are printed (and -I).
	binary := !o.text && !o.nulData && (!listOnly && !o.count || o.skipBinary) && bytes.IndexByte(data, 0) >= 0
	if binary && o.skipBinary {
		return false
	}
	var count int64
	lastLineNo, lastOff := 1, 0
	lineNumber := func(off int) int {
		lastLineNo += bytes.Count(data[lastOff:off], []byte{sep})
		lastOff = off
		return lastLineNo
	}
	emit := func(start, end int) bool {
		count++
		if listOnly {
			return false
		}
		if o.count {
			return o.maxCount < 0 || count < o.maxCount
		}
		if binary {
			c.errorf("%s: binary file matches", name)
			return false
		}
		line := data[start:end]
		if o.onlyMatch {
			if o.invert {
				return o.maxCount < 0 || count < o.maxCount
			}
			n := 0
			if o.lineNum {
				n = lineNumber(start)
			}
			for _, m := range g.m.all(line) {
				g.prefix(w, name, n)
				w.Write(line[m[0]:m[1]])
				w.WriteByte(sep)
			}
		} else {
			if o.lineNum {
				g.prefix(w, name, lineNumber(start))
			} else {
				g.prefix(w, name, 0)
			}
			w.Write(line)
			w.WriteByte(sep)
		}
		return (o.maxCount < 0 || count < o.maxCount) && c.ctx.Err() == nil
	}
	if !o.invert {
		for from := 0; from < len(data); {
			start, end := g.m.next(data, from, sep)
			if start < 0 {
				break
			}
			if !emit(start, end) {
				break
			}
			from = end + 1
			if c.ctx.Err() != nil {
				return count > 0
			}
		}
	} else {
		for start := 0; start < len(data); {
			end := bytes.IndexByte(data[start:], sep)
			if end < 0 {
				end = len(data)
			} else {
				end += start
			}
			if !g.m.match(data[start:end]) {
				if !emit(start, end) {
					break
				}
			}
			start = end + 1
		}
	}
	switch {
	case o.quiet:
	case o.filesWith:
		if count > 0 {
			g.printName(w, name)
		}
	case o.filesWithout:
		if count == 0 {
			g.printName(w, name)
		}
	case o.count:
		if count == 0 && g.c.name == "git grep" {
			break // git grep -c leaves out files without a match
		}
		if g.names {
			w.WriteString(name)
			g.nameSep(w)
		}
		w.WriteString(strconv.FormatInt(count, 10))
		w.WriteByte('\n')
	}
	return count > 0
}

func (g *grepRun) printName(w byteWriter, name string) {
	w.WriteString(name)
	if g.o.nulName {
		w.WriteByte(0)
	} else {
		w.WriteByte('\n')
	}
}

func (g *grepRun) nameSep(w byteWriter) {
	if g.o.nulName {
		w.WriteByte(0)
	} else {
		w.WriteByte(':')
	}
}

func (g *grepRun) prefix(w byteWriter, name string, lineNo int) {
	if g.names {
		w.WriteString(name)
		g.nameSep(w)
	}
	if lineNo > 0 {
		w.WriteString(strconv.Itoa(lineNo))
		w.WriteByte(':')
	}
}

// matcher finds lines matching any of the patterns.
type matcher struct {
	lit   []byte         // a single literal: bytes.Index fast path
	empty bool           // an empty pattern matches every line
	re    *regexp.Regexp // matches within one line
	bufRe *regexp.Regexp // (?m) form for scanning a whole buffer, or nil
	group bool           // -w: the match is submatch 1
}

func newMatcher(patterns []string, fixed, ere bool, o grepOpts) (*matcher, error) {
	m := &matcher{}
	if len(patterns) == 1 && !o.word && !o.line {
		p := patterns[0]
		isLit := fixed || !strings.ContainsAny(p, `\.[]*^$`) && (!ere || !strings.ContainsAny(p, `+?(){}|`))
		if isLit && (!o.fold || !hasLetter(p)) {
			if p == "" {
				m.empty = true
			}
			m.lit = []byte(p)
		}
	}
	var alts []string
	for _, p := range patterns {
		if fixed {
			alts = append(alts, regexp.QuoteMeta(p))
			continue
		}
		t, err := translateRegex(p, ere)
		if err != nil {
			return nil, err
		}
		alts = append(alts, t)
	}
	expr := "(?:" + strings.Join(alts, ")|(?:") + ")"
	if o.line {
		expr = "^(?:" + expr + ")$"
	}
	if o.word {
		expr = `(?:^|[^0-9A-Za-z_])(` + expr + `)(?:[^0-9A-Za-z_]|$)`
		m.group = true
	}
	flags := ""
	if o.fold {
		flags = "(?i)"
	}
	var err error
	m.re, err = regexp.Compile(flags + expr)
	if err != nil {
		return nil, err
	}
	if !o.nulData {
		m.bufRe, _ = regexp.Compile("(?m" + strings.TrimPrefix(strings.TrimSuffix(flags, ")"), "(?") + ")" + expr)
	}
	return m, nil
}

func hasLetter(s string) bool {
	for i := 0; i < len(s); i++ {
		if 'a' <= lower(s[i]) && lower(s[i]) <= 'z' || s[i] >= 0x80 {
			return true
		}
	}
	return false
}

func (m *matcher) match(line []byte) bool {
	if m.lit != nil {
		return bytes.Contains(line, m.lit)
	}
	return m.re.Match(line)
}

// all returns the non-empty matches in line (for -o).
func (m *matcher) all(line []byte) [][2]int {
	var out [][2]int
	for from := 0; from <= len(line); {
		loc := m.re.FindSubmatchIndex(line[from:])
		if loc == nil {
			break
		}
		s, e := loc[0], loc[1]
		if m.group {
			s, e = loc[2], loc[3]
		}
		s, e = s+from, e+from
		if e > s {
			out = append(out, [2]int{s, e})
			from = e
		} else {
			from = e + 1
		}
	}
	return out
}

// next returns the bounds of the first line at or after from that
// matches, or -1.
func (m *matcher) next(data []byte, from int, sep byte) (int, int) {
	for from < len(data) {
		var at int
		switch {
		case m.empty:
			at = from
		case m.lit != nil:
			i := bytes.Index(data[from:], m.lit)
			if i < 0 {
				return -1, -1
			}
			at = from + i
		case m.bufRe != nil:
			loc := m.bufRe.FindIndex(data[from:])
			if loc == nil {
				return -1, -1
			}
			at = from + loc[0]
		default:
			at = from
		}
		if at >= len(data) {
			return -1, -1
		}
		start := bytes.LastIndexByte(data[from:at], sep) + 1 + from
		end := bytes.IndexByte(data[at:], sep)
		if end < 0 {
			end = len(data)
		} else {
			end += at
		}
		if m.lit != nil || m.re.Match(data[start:end]) {
			return start, end
		}
		from = end + 1
	}
	return -1, -1
}
