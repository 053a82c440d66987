package shellexec

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
)

// sedAddr is a line number, "$" or a regular expression.
type sedAddr struct {
	kind byte // 'n' line, '$' last, '/' regex
	line int
	re   *regexp.Regexp
}

type sedCmd struct {
	a1, a2  *sedAddr
	neg     bool
	inRange bool
	name    byte
	// s
	re       *regexp.Regexp
	repl     string
	global   bool
	nth      int
	print    bool
	text     string    // a, i, c
	exit     int       // q, Q
	block    []*sedCmd // { }
	from, to []byte    // y
}

// runSed is GNU sed with -n, -e, -f, -E/-r and -z (-s, --posix, --debug
// and --sandbox change nothing) over the commands sed_parse.go reads; -i
// and the commands that write, read other files or execute are refused.
func runSed(c *cmd, args []string) int {
	opts, operands, err := parseOpts(args, "ne:f:Erszi", map[string]bool{"quiet": false, "silent": false, "expression": true, "file": true, "regexp-extended": false, "separate": false, "null-data": false, "in-place": false, "posix": false, "debug": false, "sandbox": false})
	if err != nil {
		return c.usage("%v", err)
	}
	quiet, ere := false, false
	sep := byte('\n')
	var scripts []string
	for _, o := range opts {
		switch o.name {
		case "n", "quiet", "silent":
			quiet = true
		case "e", "expression":
			scripts = append(scripts, o.val)
		case "f", "file":
			data, err := c.readInput(o.val)
			if err != nil {
				return c.usage("%s", c.pathMsg(err))
			}
			scripts = append(scripts, strings.TrimSuffix(string(data), "\n"))
		case "E", "r", "regexp-extended":
			ere = true
		case "z", "null-data":
			sep = 0
		case "i", "in-place":
			return c.refuse("-i", "sed may not edit files")
		}
	}
	if len(scripts) == 0 {
		if len(operands) == 0 {
			return c.usage("no script specified")
		}
		scripts = []string{operands[0]}
		operands = operands[1:]
	}
	p := &sedParser{s: strings.Join(scripts, "\n"), ere: ere}
	prog, perr := p.parseBlock(false)
	if perr != nil {
		if d, ok := perr.(*DeniedError); ok {
			c.refuse(d.Construct, d.Msg)
			return 1
		}
		return c.usage("-e expression #1, char %d: %v", p.i, perr)
	}
	r := &sedRun{c: c, quiet: quiet, sep: sep}
	status := c.inputs(operands, func(_ string, data []byte) {
		// (each line's slice header is charged too: a file of newlines
		// would otherwise take three times its size uncharged)
		if r.spent {
			return
		}
		if err := c.charge(int64(24 * (bytes.Count(data, []byte{sep}) + 1))); err != nil {
			c.errorf("%v", err)
			r.spent = true
			return
		}
		r.lines = append(r.lines, splitLines(data, sep)...)
	})
	if r.spent {
		return sedMemory
	}
	r.run(prog)
	if r.exit != 0 {
		return r.exit
	}
	return status
}

type sedRun struct {
	c *cmd
	// held is what the pattern and hold spaces and a substitution's
	// working buffers are charged to the run's memory budget: each buffer
	// that grows is charged before it is allocated (reserve), and the
	// charge is brought back to what is held after each command (settle).
	held   int64
	spent  bool // the memory budget stopped sed
	lines  [][]byte
	next   int // index of the next input line
	lineNo int
	quiet  bool
	sep    byte
	quit   bool
	exit   int
	append []string
	hold   []byte
}

func (r *sedRun) run(prog []*sedCmd) {
	for r.next < len(r.lines) && !r.quit {
		if r.c.writeErr() {
			return
		}
		if !r.reserve(len(r.lines[r.next])) {
			return
		}
		ps := append([]byte(nil), r.lines[r.next]...)
		r.next++
		r.lineNo++
		ps, printIt := r.exec(prog, ps)
		if r.spent {
			return
		}
		if printIt && !r.quiet {
			r.emit(ps)
		}
		r.flushAppend()
	}
}

// sedMemory is sed's exit status when the run's memory budget stopped it.
const sedMemory = 4

// reserve charges n more bytes, for a buffer about to grow, to the run's
// memory budget; when they do not fit, the run is stopped
// (COMMAND_MEMORY_EXCEEDED), sed quits and reserve returns false.
func (r *sedRun) reserve(n int) bool {
	if err := r.c.charge(int64(n)); err != nil {
		r.c.errorf("%v", err)
		r.quit, r.exit, r.spent = true, sedMemory, true
		return false
	}
	r.held += int64(n)
	return true
}

// settle brings the charge back to what sed holds: the pattern space ps
// and the hold space.
func (r *sedRun) settle(ps []byte) {
	want := int64(len(ps) + len(r.hold))
	if want < r.held {
		r.c.uncharge(r.held - want)
		r.held = want
	} else if want > r.held {
		r.reserve(int(want - r.held))
	}
}

func (r *sedRun) emit(b []byte) {
	r.c.out.Write(b)
	r.c.out.WriteByte(r.sep)
}

func (r *sedRun) flushAppend() {
	for _, t := range r.append {
		r.c.out.WriteString(t)
		r.c.out.WriteByte('\n')
	}
	r.append = r.append[:0]
}

func (r *sedRun) last() bool { return r.next >= len(r.lines) }

func (r *sedRun) matchAddr(a *sedAddr, ps []byte) bool {
	switch a.kind {
	case 'n':
		return r.lineNo == a.line
	case '$':
		return r.last()
	}
	ok, _ := abandonableCtx(r.c.ctx, len(ps), func() bool { return a.re.Match(ps) })
	return ok
}

func (r *sedRun) selected(c *sedCmd, ps []byte) bool {
	var sel bool
	switch {
	case c.a1 == nil:
		sel = true
	case c.a2 == nil:
		sel = r.matchAddr(c.a1, ps)
	case c.inRange:
		sel = true
		if c.a2.kind == 'n' && r.lineNo >= c.a2.line || c.a2.kind != 'n' && r.matchAddr(c.a2, ps) {
			c.inRange = false
		}
	default:
		if r.matchAddr(c.a1, ps) {
			sel = true
			c.inRange = !(c.a2.kind == 'n' && c.a2.line <= r.lineNo) && !(c.a2.kind == '$' && r.last())
		}
	}
	return sel != c.neg
}

// exec runs prog on the pattern space; it returns the pattern space and
// whether the cycle ends normally (auto-print applies).
func (r *sedRun) exec(prog []*sedCmd, ps []byte) ([]byte, bool) {
	for _, c := range prog {
		if !r.selected(c, ps) {
			continue
		}
		if grow := r.growth(c, ps); grow > 0 && !r.reserve(grow) {
			return ps, false
		}
		var ok, stop bool
		ps, ok, stop = r.step(c, ps)
		r.settle(ps)
		if stop || r.spent {
			return ps, ok && !r.spent
		}
	}
	return ps, true
}

// growth is how many bytes command c is about to add to what sed holds
// (s charges its own).
func (r *sedRun) growth(c *sedCmd, ps []byte) int {
	switch c.name {
	case 'h', 'H', 'g', 'G':
		return len(ps) + len(r.hold) + 1
	case 'n', 'N':
		if !r.last() {
			return len(ps) + len(r.lines[r.next]) + 1
		}
	}
	return 0
}

// step runs one command on the pattern space ps: the new pattern space,
// whether it is printed, and whether the cycle ends here.
func (r *sedRun) step(c *sedCmd, ps []byte) (_ []byte, printIt, stop bool) {
	switch c.name {
	case '{':
		var ok bool
		ps, ok = r.exec(c.block, ps)
		if !ok || r.quit {
			return ps, ok, true
		}
	case 'p':
		r.emit(ps)
	case 'd':
		return ps, false, true
	case 'q':
		r.quit, r.exit = true, c.exit
		return ps, true, true
	case 'Q':
		r.quit, r.exit = true, c.exit
		return ps, false, true
	case '=':
		fmt.Fprintf(r.c.out, "%d\n", r.lineNo)
	case 'n':
		var ok bool
		if ps, ok = r.readNext(ps); !ok {
			return ps, false, true
		}
	case 'N':
		var ok bool
		if ps, ok = r.appendNext(ps); !ok {
			return ps, false, true
		}
	case 'h', 'H', 'g', 'G', 'x':
		ps = r.holdSpace(c.name, ps)
	case 'P':
		line := ps
		if i := bytes.IndexByte(ps, '\n'); i >= 0 {
			line = ps[:i]
		}
		r.emit(line)
	case 'a':
		r.append = append(r.append, c.text)
	case 'i':
		r.c.out.WriteString(c.text)
		r.c.out.WriteByte('\n')
	case 'c':
		if c.a2 == nil || !c.inRange {
			r.c.out.WriteString(c.text)
			r.c.out.WriteByte('\n')
		}
		return ps, false, true
	case 'y':
		for i, b := range ps {
			if j := bytes.IndexByte(c.from, b); j >= 0 {
				ps[i] = c.to[j]
			}
		}
	case 's':
		var did bool
		ps, did = r.subst(c, ps)
		if did && c.print {
			r.emit(ps)
		}
	}
	return ps, true, false
}

// readNext is n: the pattern space is printed (unless -n) and replaced by
// the next line. With no next line sed quits, and ok is false: the cycle
// ends without the automatic print.
func (r *sedRun) readNext(ps []byte) (_ []byte, ok bool) {
	if !r.quiet {
		r.emit(ps)
	}
	if r.last() {
		r.quit = true
		return ps, false
	}
	ps = append([]byte(nil), r.lines[r.next]...)
	r.next++
	r.lineNo++
	return ps, true
}

// appendNext is N: a newline and the next line are appended to the
// pattern space. With no next line sed prints the pattern space (unless
// -n), as GNU sed does, and quits; ok is false.
func (r *sedRun) appendNext(ps []byte) (_ []byte, ok bool) {
	if r.last() {
		if !r.quiet {
			r.emit(ps)
		}
		r.quit = true
		return ps, false
	}
	ps = append(append(ps, '\n'), r.lines[r.next]...)
	r.next++
	r.lineNo++
	return ps, true
}

// holdSpace runs the hold space commands on the pattern space ps and
// returns the new pattern space: h and H copy or append ps to the hold
// space, g and G copy or append the hold space to ps, x exchanges them.
func (r *sedRun) holdSpace(name byte, ps []byte) []byte {
	switch name {
	case 'h':
		r.hold = append(r.hold[:0], ps...)
	case 'H':
		r.hold = append(append(r.hold, '\n'), ps...)
	case 'g':
		ps = append(ps[:0:0], r.hold...)
	case 'G':
		ps = append(append(ps, '\n'), r.hold...)
	case 'x':
		ps, r.hold = r.hold, ps
		if ps == nil {
			ps = []byte{}
		}
	}
	return ps
}

func (r *sedRun) subst(c *sedCmd, ps []byte) ([]byte, bool) {
	// Each match is a slice of indexes: as many are looked for as the
	// budget can hold, and one more, which tells that they would not fit.
	perMatch := 8*2*(c.re.NumSubexp()+1) + 64 // (with the growth of the slice of matches)
	limit := int(min(r.c.available()/int64(perMatch)+1, int64(len(ps)+1)))
	matches, _ := abandonableCtx(r.c.ctx, len(ps), func() [][]int { return c.re.FindAllSubmatchIndex(ps, limit) })
	if len(matches) == 0 || !r.reserve(len(matches)*perMatch) {
		return ps, false
	}
	size, n := len(ps), 0
	for _, m := range matches {
		if n++; n < c.nth || !c.global && n > c.nth {
			continue
		}
		size += replLen(c.repl, m) - (m[1] - m[0])
	}
	// The new pattern space is charged before it is allocated: a
	// replacement 500 times the size of its match would otherwise make a
	// line of 8 MiB take 4 GB.
	if !r.reserve(size) {
		return ps, false
	}
	out := make([]byte, 0, size)
	last, did := 0, false
	n = 0
	for _, m := range matches {
		n++
		if n < c.nth || !c.global && n > c.nth {
			continue
		}
		out = append(out, ps[last:m[0]]...)
		out = appendRepl(out, c.repl, ps, m)
		last = m[1]
		did = true
	}
	out = append(out, ps[last:]...)
	return out, did
}

// replLen is the length of appendRepl's text for match m.
func replLen(repl string, m []int) int {
	n := 0
	for i := 0; i < len(repl); i++ {
		switch ch := repl[i]; {
		case ch == '&':
			n += m[1] - m[0]
		case ch == '\\' && i+1 < len(repl):
			i++
			if d := repl[i]; d >= '0' && d <= '9' {
				if k := int(d - '0'); 2*k+1 < len(m) && m[2*k] >= 0 {
					n += m[2*k+1] - m[2*k]
				}
			} else {
				n++
			}
		default:
			n++
		}
	}
	return n
}

func appendRepl(out []byte, repl string, src []byte, m []int) []byte {
	for i := 0; i < len(repl); i++ {
		ch := repl[i]
		switch {
		case ch == '&':
			out = append(out, src[m[0]:m[1]]...)
		case ch == '\\' && i+1 < len(repl):
			i++
			d := repl[i]
			switch {
			case d >= '0' && d <= '9':
				k := int(d - '0')
				if 2*k+1 < len(m) && m[2*k] >= 0 {
					out = append(out, src[m[2*k]:m[2*k+1]]...)
				}
			case d == 'n':
				out = append(out, '\n')
			case d == 't':
				out = append(out, '\t')
			default:
				out = append(out, d)
			}
		default:
			out = append(out, ch)
		}
	}
	return out
}
