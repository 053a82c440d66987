package shellexec

import (
	"bytes"
	"regexp"
	"strings"
)

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
