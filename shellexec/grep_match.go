package shellexec

import (
	"bytes"
	"context"
	"regexp"
	"strings"
	"sync/atomic"
)

// matcher finds lines matching any of the patterns.
type matcher struct {
	lit   []byte         // a single literal: bytes.Index fast path
	empty bool           // an empty pattern matches every line
	re    *regexp.Regexp // matches within one line
	bufRe *regexp.Regexp // (?m) form for scanning a whole buffer, or nil
	group bool           // -w: the match is submatch 1
	// ctx is the run's: a long match is abandoned when it ends (see
	// abandonable); done records that one was.
	ctx  context.Context
	done atomic.Bool
}

func newMatcher(patterns []string, fixed, ere bool, o grepOpts) (*matcher, error) {
	m := &matcher{ctx: context.Background()}
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
	if len(patterns) == 0 {
		// No pattern at all (grep -f /dev/null): GNU grep matches no
		// line; "(?:)" matched every one.
		expr = `[^\x00-\x{10FFFF}]`
	}
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
	ok, _ := m.matchCtx(line)
	return ok
}

// matchCtx is re.Match(line) that the run's time limit can abandon;
// completed is false when it was.
func (m *matcher) matchCtx(line []byte) (matched, completed bool) {
	return abandonable(m, len(line), func() bool { return m.re.Match(line) })
}

// cancelled reports whether a match was abandoned.
func (m *matcher) cancelled() bool { return m.done.Load() }

// abandonMin is the input size from which a regular expression runs where
// the time limit can abandon it: RE2 is linear in the input, but times the
// size of the program, which counted repetitions make large
// (a.{1,1000}x on a 1 MB line runs for seconds), and a match cannot be
// interrupted.
const abandonMin = 64 << 10

// abandonable runs f, a regular expression call on size bytes, so that
// the run's time limit can interrupt it: a small input runs here; a large
// one on a goroutine, and when the context ends first, f is left to finish
// alone (it ends: RE2 is linear) and completed is false. A context already
// done runs nothing.
func abandonable[T any](m *matcher, size int, f func() T) (result T, completed bool) {
	result, completed = abandonableCtx(m.ctx, size, f)
	if !completed {
		m.done.Store(true)
	}
	return result, completed
}

// abandonableCtx is abandonable for any regular expression call under ctx
// (sed's).
func abandonableCtx[T any](ctx context.Context, size int, f func() T) (result T, completed bool) {
	if ctx.Err() != nil {
		return result, false
	}
	if size < abandonMin {
		return f(), true
	}
	ch := make(chan T, 1)
	go func() { ch <- f() }()
	select {
	case r := <-ch:
		return r, true
	case <-ctx.Done():
		return result, false
	}
}

// chunkEnd is where the search of data from from stops for a check of the
// time limit: a line boundary at least abandonMin bytes on, or the end.
func chunkEnd(data []byte, from int, sep byte) int {
	end := from + abandonMin
	if end >= len(data) {
		return len(data)
	}
	if i := bytes.IndexByte(data[end:], sep); i >= 0 {
		return end + i + 1
	}
	return len(data)
}

// each calls f with each non-empty match in line (for -o), until f
// returns false. Matches are handed over one by one, never collected: a
// line of 8 MiB has millions.
func (m *matcher) each(line []byte, f func(s, e int) bool) {
	for from := 0; from <= len(line); {
		loc, _ := abandonable(m, len(line)-from, func() []int { return m.re.FindSubmatchIndex(line[from:]) })
		if loc == nil {
			break
		}
		s, e := loc[0], loc[1]
		if m.group {
			s, e = loc[2], loc[3]
		}
		s, e = s+from, e+from
		if e > s {
			if !f(s, e) {
				return
			}
			from = e
		} else {
			from = e + 1
		}
	}
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
			// Whole lines at a time, so that the time limit is looked
			// at between them; a line matches within itself, so no
			// match is lost at a chunk's end.
			end := chunkEnd(data, from, sep)
			loc, ok := abandonable(m, end-from, func() []int { return m.bufRe.FindIndex(data[from:end]) })
			if !ok {
				return -1, -1
			}
			if loc == nil {
				if end >= len(data) {
					return -1, -1
				}
				from = end
				continue
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
		if m.lit != nil {
			return start, end
		}
		ok, completed := m.matchCtx(data[start:end])
		if !completed {
			return -1, -1
		}
		if ok {
			return start, end
		}
		from = end + 1
	}
	return -1, -1
}
