package ignore

import (
	"errors"
	"strings"
	"unicode/utf8"
)

// This file turns the pattern of an ignore-file line, written for git's
// wildmatch, into a doublestar pattern that matches the same paths. git
// reads a pattern byte by byte; doublestar, rune by rune. The differences,
// each checked against git by TestIgnoreDifferential:
//
//   - "?" and a bracket expression match one byte in git. The patterns made
//     here hold every byte from 0x80 up as the rune of that value, and a
//     name holding such bytes is widened the same way before it is matched
//     (widen), so that each rune is one byte.
//   - Bracket expressions: "]" first is a member, "[:alpha:]" and the other
//     POSIX classes (of ASCII, as git's ctype has them), "\" escapes, and
//     with a "/" in the path no bracket matches "/". They are written out
//     as the set of bytes they match.
//   - Three or more stars are two ("a/***" is "a/**"), and "X/**" at the
//     end matches what is inside X, not X itself.
//   - An escape of a character that needs none is the character.
//
// An anchored pattern's literal start (up to the first "*", "?", "[" or
// "\") is compared by git as a string before wildmatch sees the rest, so
// a "**" that follows the literal start directly behaves as at the start
// of a pattern: "ab**/c" matches "abc" and "abx/y/c". The Rule keeps the
// two parts apart and matches them the same way (Rule.matchGlob).

// errNever is a pattern git accepts but that matches no path, such as
// "a[/]b": its line is dropped.
var errNever = errors.New("matches nothing")

var (
	errTrailingBackslash = errors.New("trailing backslash")
	errUnclosedBracket   = errors.New("unclosed bracket expression")
	errUnknownClass      = errors.New("unknown character class")
)

// trimTrailingSpaces drops the spaces that end line unless the first of
// them is escaped with a backslash; the escape itself stays.
func trimTrailingSpaces(line string) string {
	lastSpace := -1
	for i := 0; i < len(line); i++ {
		switch line[i] {
		case ' ':
			if lastSpace < 0 {
				lastSpace = i
			}
		case '\\':
			i++
			if i == len(line) {
				return line
			}
			lastSpace = -1
		default:
			lastSpace = -1
		}
	}
	if lastSpace >= 0 {
		return line[:lastSpace]
	}
	return line
}

// wildGlob translates a wildmatch pattern (or the rest of one after its
// literal start) to doublestar.
func wildGlob(p string) (string, error) {
	var b strings.Builder
	for i := 0; i < len(p); {
		switch c := p[i]; c {
		case '\\':
			if i+1 == len(p) {
				return "", errTrailingBackslash
			}
			writeLiteral(&b, p[i+1])
			i += 2
		case '*':
			n := 1
			for i+n < len(p) && p[i+n] == '*' {
				n++
			}
			i += n
			switch {
			case n == 1:
				b.WriteByte('*')
			case i == len(p) && b.Len() > 0 && strings.HasSuffix(b.String(), "/"):
				b.WriteString("*/**") // "X/**" matches below X only
			default:
				b.WriteString("**")
			}
		case '?':
			b.WriteByte('?')
			i++
		case '[':
			n, err := writeBracket(&b, p[i:])
			if err != nil {
				return "", err
			}
			i += n
		default:
			writeLiteral(&b, c)
			i++
		}
	}
	return b.String(), nil
}

// matchesEmpty reports whether the wildmatch pattern p matches the empty
// string, as what follows an anchored pattern's literal start does when the
// path is that start: after any number of "**/", nothing but stars is left
// ("**/*" matches it; "*/**" does not).
func matchesEmpty(p string) bool {
	for {
		n := 0
		for n < len(p) && p[n] == '*' {
			n++
		}
		if n == len(p) {
			return true
		}
		if n < 2 || p[n] != '/' {
			return false
		}
		p = p[n+1:]
	}
}

// writeLiteral writes byte c to match itself.
func writeLiteral(b *strings.Builder, c byte) {
	switch {
	case c >= utf8.RuneSelf:
		b.WriteRune(rune(c))
	case strings.IndexByte(`*?[]{}\`, c) >= 0:
		b.WriteByte('\\')
		b.WriteByte(c)
	default:
		b.WriteByte(c)
	}
}

// writeBracket reads the bracket expression that starts p (p[0] == '[')
// with git's rules and writes it as a doublestar bracket of the bytes it
// matches, "/" left out. It returns the length it read.
func writeBracket(b *strings.Builder, p string) (int, error) {
	set, negated, n, err := parseBracket(p)
	if err != nil {
		return 0, err
	}
	set['/'] = negated
	if !negated && set == ([256]bool{}) {
		return 0, errNever
	}
	b.WriteByte('[')
	if negated {
		b.WriteByte('!')
	}
	for lo := 0; lo < len(set); lo++ {
		if !set[lo] {
			continue
		}
		hi := lo
		for hi+1 < len(set) && set[hi+1] {
			hi++
		}
		writeMember(b, byte(lo))
		if hi > lo {
			b.WriteByte('-')
			writeMember(b, byte(hi))
		}
		lo = hi
	}
	b.WriteByte(']')
	return n, nil
}

// writeMember writes one byte of a bracket expression.
func writeMember(b *strings.Builder, c byte) {
	switch {
	case c >= utf8.RuneSelf:
		b.WriteRune(rune(c))
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		b.WriteByte(c)
	default:
		b.WriteByte('\\')
		b.WriteByte(c)
	}
}

// parseBracket reads the bracket expression that starts p as git's
// wildmatch does: "!" or "^" first negates, "]" first is a member, "\"
// escapes, "a-z" is a range from the member before, "[:class:]" a POSIX
// class, and a "[:" without its ":]" a "[".
func parseBracket(p string) (set [256]bool, negated bool, n int, err error) {
	i := 1
	if i < len(p) && (p[i] == '!' || p[i] == '^') {
		negated = true
		i++
	}
	prev := -1 // the member a "-" starts a range from; none after a range or class
	for first := true; ; first = false {
		if i >= len(p) {
			return set, false, 0, errUnclosedBracket
		}
		c := p[i]
		switch {
		case c == ']' && !first:
			return set, negated, i + 1, nil
		case c == '\\':
			if i+1 >= len(p) {
				return set, false, 0, errUnclosedBracket
			}
			set[p[i+1]] = true
			prev = int(p[i+1])
			i += 2
		case c == '-' && prev >= 0 && i+1 < len(p) && p[i+1] != ']':
			i++
			hi := p[i]
			if hi == '\\' {
				if i+1 >= len(p) {
					return set, false, 0, errUnclosedBracket
				}
				i++
				hi = p[i]
			}
			for x := prev; x <= int(hi); x++ {
				set[x] = true
			}
			prev = -1
			i++
		case c == '[' && i+1 < len(p) && p[i+1] == ':':
			end := strings.IndexByte(p[i+2:], ']')
			if end < 0 {
				return set, false, 0, errUnclosedBracket
			}
			name := p[i+2 : i+2+end]
			if !strings.HasSuffix(name, ":") {
				set['['] = true // no class: a "[" member, and ":" is next
				prev = '['
				i++
				continue
			}
			if !addClass(&set, name[:len(name)-1]) {
				return set, false, 0, errUnknownClass
			}
			prev = -1
			i += 2 + end + 1
		default:
			set[c] = true
			prev = int(c)
			i++
		}
	}
}

// addClass adds the bytes of a POSIX class, as git's ctype has them (ASCII
// only; "space" is tab, line feed, carriage return and space).
func addClass(set *[256]bool, class string) bool {
	var in func(c byte) bool
	switch class {
	case "alnum":
		in = func(c byte) bool { return isAlpha(c) || isDigit(c) }
	case "alpha":
		in = isAlpha
	case "blank":
		in = func(c byte) bool { return c == ' ' || c == '\t' }
	case "cntrl":
		in = func(c byte) bool { return c < 0x20 || c == 0x7f }
	case "digit":
		in = isDigit
	case "graph":
		in = func(c byte) bool { return c > ' ' && c < 0x7f }
	case "lower":
		in = func(c byte) bool { return 'a' <= c && c <= 'z' }
	case "print":
		in = func(c byte) bool { return c >= ' ' && c < 0x7f }
	case "punct":
		in = func(c byte) bool { return c > ' ' && c < 0x7f && !isAlpha(c) && !isDigit(c) }
	case "space":
		in = func(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
	case "upper":
		in = func(c byte) bool { return 'A' <= c && c <= 'Z' }
	case "xdigit":
		in = func(c byte) bool { return isDigit(c) || 'a' <= c|0x20 && c|0x20 <= 'f' }
	default:
		return false
	}
	for c := 0; c < 0x80; c++ {
		if in(byte(c)) {
			set[c] = true
		}
	}
	return true
}

func isAlpha(c byte) bool { return 'a' <= c|0x20 && c|0x20 <= 'z' }
func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// widen returns s with every byte from 0x80 up as the rune of that value
// (s read as Latin-1), the form the patterns of wildGlob match.
func widen(s string) string {
	i := 0
	for i < len(s) && s[i] < utf8.RuneSelf {
		i++
	}
	if i == len(s) {
		return s
	}
	b := make([]byte, i, len(s)+8)
	copy(b, s)
	for ; i < len(s); i++ {
		b = utf8.AppendRune(b, rune(s[i]))
	}
	return string(b)
}
