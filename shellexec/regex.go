package shellexec

import (
	"fmt"
	"regexp"
	"strings"
)

// translateRegex turns a POSIX basic (ere=false) or extended regular
// expression, with GNU extensions, into RE2 syntax. Back-references have
// no RE2 equivalent and are an error.
func translateRegex(p string, ere bool) (string, error) {
	var b strings.Builder
	// atStart: a position where '*' (and in ERE '+?{') is literal and '^' anchors.
	atStart := true
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '[':
			end, class, err := translateBracket(p[i:])
			if err != nil {
				return "", err
			}
			b.WriteString(class)
			i += end - 1
			atStart = false
			continue
		case c == '\\':
			if i+1 >= len(p) {
				return "", fmt.Errorf("trailing backslash (\\)")
			}
			used, start, err := translateEscape(&b, p[i+1:], ere, atStart)
			if err != nil {
				return "", err
			}
			i += used
			atStart = start
			continue
		case c == '*':
			if atStart {
				b.WriteString(`\*`)
			} else {
				b.WriteByte('*')
			}
		case c == '^':
			if atStart || ere {
				b.WriteByte('^')
				continue // still at start: "^*" has a literal star
			}
			b.WriteString(`\^`)
		case c == '$':
			rest := p[i+1:]
			if ere || rest == "" || strings.HasPrefix(rest, `\)`) || strings.HasPrefix(rest, `\|`) {
				b.WriteByte('$')
			} else {
				b.WriteString(`\$`)
			}
		case ere && (c == '(' || c == '|'):
			b.WriteByte(c)
			atStart = true
			continue
		case ere && (c == '+' || c == '?'):
			if atStart {
				b.WriteString(regexp.QuoteMeta(string(c)))
			} else {
				b.WriteByte(c)
			}
		case ere && c == '{':
			n, s := translateInterval(p[i+1:], false)
			if n < 0 || atStart {
				b.WriteString(`\{`)
			} else {
				b.WriteString(s)
				i += n
			}
		case ere && c == ')':
			b.WriteByte(')')
		case c == '.':
			b.WriteByte('.')
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
		atStart = false
	}
	return b.String(), nil
}

// translateEscape writes the RE2 form of the escape whose backslash
// precedes rest (rest[0] is the escaped byte) and returns how many bytes
// of rest it used and whether the position after it is a start.
func translateEscape(b *strings.Builder, rest string, ere, atStart bool) (used int, start bool, err error) {
	d := rest[0]
	switch {
	case d >= '1' && d <= '9':
		return 0, false, fmt.Errorf("back-references (\\%c) are not supported (RE2 syntax)", d)
	case d == '<' || d == '>':
		b.WriteString(`\b`)
	case d == 'b' || d == 'B' || d == 'w' || d == 'W' || d == 's' || d == 'S':
		b.WriteByte('\\')
		b.WriteByte(d)
	case d == '`':
		b.WriteString(`\A`)
	case d == '\'':
		b.WriteString(`\z`)
	case !ere && strings.IndexByte("(){}|+?", d) >= 0:
		return translateBREOperator(b, rest, atStart)
	default:
		b.WriteString(regexp.QuoteMeta(string(d)))
	}
	return 1, false, nil
}

// translateBREOperator is translateEscape for the operators a basic
// regular expression spells escaped (\( \) \| \{ \} \+ \?); at a start,
// \{ \+ and \? are literal.
func translateBREOperator(b *strings.Builder, rest string, atStart bool) (used int, start bool, err error) {
	d := rest[0]
	switch {
	case d == '(' || d == '|':
		b.WriteByte(d)
		return 1, true, nil
	case (d == '{' || d == '+' || d == '?') && atStart:
		b.WriteString(regexp.QuoteMeta(string(d)))
	case d == '{':
		n, s := translateInterval(rest[1:], true)
		if n < 0 {
			return 0, false, fmt.Errorf("unmatched \\{")
		}
		b.WriteString(s)
		return 1 + n, false, nil
	default:
		b.WriteByte(d)
	}
	return 1, false, nil
}

// translateInterval reads "m,n}" (bre: "m,n\}") after an opening brace
// and returns how many bytes it used and its RE2 form, or -1.
func translateInterval(s string, bre bool) (int, string) {
	close := "}"
	if bre {
		close = `\}`
	}
	end := strings.Index(s, close)
	if end < 0 {
		return -1, ""
	}
	body := s[:end]
	lo, hi, comma := strings.Cut(body, ",")
	if !isDigits(lo) && lo != "" || !isDigits(hi) && hi != "" || lo == "" && !comma {
		return -1, ""
	}
	if lo == "" {
		lo = "0"
	}
	out := "{" + lo
	if comma {
		out += "," + hi
	}
	return end + len(close), out + "}"
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// translateBracket converts the POSIX bracket expression at the start of
// p. Inside it a backslash is an ordinary character.
func translateBracket(p string) (int, string, error) {
	var b strings.Builder
	b.WriteByte('[')
	i := 1
	if i < len(p) && p[i] == '^' {
		b.WriteByte('^')
		i++
	}
	first := true
	for i < len(p) {
		c := p[i]
		if c == ']' && !first {
			b.WriteByte(']')
			return i + 1, b.String(), nil
		}
		first = false
		if c == '[' && i+1 < len(p) && (p[i+1] == ':' || p[i+1] == '=' || p[i+1] == '.') {
			delim := p[i+1]
			end := strings.Index(p[i+2:], string(delim)+"]")
			if end < 0 {
				return 0, "", fmt.Errorf("unmatched [")
			}
			name := p[i+2 : i+2+end]
			if delim == ':' {
				b.WriteString("[:" + name + ":]")
			} else {
				b.WriteString(regexp.QuoteMeta(name))
			}
			i += end + 4
			continue
		}
		switch c {
		case '\\', '[', ']':
			b.WriteByte('\\')
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
		i++
	}
	return 0, "", fmt.Errorf("unmatched [, [^, [:, [., or [=")
}
