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
	var lines [][]byte
	status := c.inputs(operands, func(_ string, data []byte) {
		lines = append(lines, splitLines(data, sep)...)
	})
	r := &sedRun{c: c, lines: lines, quiet: quiet, sep: sep}
	r.run(prog)
	if r.exit != 0 {
		return r.exit
	}
	return status
}

type sedRun struct {
	c      *cmd
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
		ps := append([]byte(nil), r.lines[r.next]...)
		r.next++
		r.lineNo++
		ps, printIt := r.exec(prog, ps)
		if printIt && !r.quiet {
			r.emit(ps)
		}
		r.flushAppend()
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
		switch c.name {
		case '{':
			var ok bool
			ps, ok = r.exec(c.block, ps)
			if !ok || r.quit {
				return ps, ok
			}
		case 'p':
			r.emit(ps)
		case 'd':
			return ps, false
		case 'q':
			r.quit, r.exit = true, c.exit
			return ps, true
		case 'Q':
			r.quit, r.exit = true, c.exit
			return ps, false
		case '=':
			fmt.Fprintf(r.c.out, "%d\n", r.lineNo)
		case 'n':
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
		case 'N':
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
			return ps, false
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
	}
	return ps, true
}

func (r *sedRun) subst(c *sedCmd, ps []byte) ([]byte, bool) {
	matches, _ := abandonableCtx(r.c.ctx, len(ps), func() [][]int { return c.re.FindAllSubmatchIndex(ps, -1) })
	if len(matches) == 0 {
		return ps, false
	}
	var out []byte
	last, n, did := 0, 0, false
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
