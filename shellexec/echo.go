package shellexec

import (
	"strconv"
	"strings"
)

// runEcho is bash's builtin echo: -n, -e and -E, only as leading words.
func runEcho(c *cmd, args []string) int {
	newline, escapes := true, false
	for len(args) > 0 {
		a := args[0]
		if len(a) < 2 || a[0] != '-' || strings.Trim(a[1:], "neE") != "" {
			break
		}
		for _, f := range a[1:] {
			switch f {
			case 'n':
				newline = false
			case 'e':
				escapes = true
			case 'E':
				escapes = false
			}
		}
		args = args[1:]
	}
	for i, a := range args {
		if i > 0 {
			c.out.WriteByte(' ')
		}
		if escapes {
			s, stop := expandEscapes(a, true)
			c.out.WriteString(s)
			if stop {
				return 0
			}
		} else {
			c.out.WriteString(a)
		}
	}
	if newline {
		c.out.WriteByte('\n')
	}
	return 0
}

// expandEscapes interprets backslash escapes as echo -e and printf %b do
// (echoStyle: \0NNN octal); it reports whether \c asked to stop output.
func expandEscapes(s string, echoStyle bool) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 >= len(s) {
			b.WriteByte(s[i])
			continue
		}
		i++
		switch ch := s[i]; ch {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'v':
			b.WriteByte('\v')
		case 'e', 'E':
			b.WriteByte(0x1b)
		case '\\':
			b.WriteByte('\\')
		case 'c':
			return b.String(), true
		case 'x':
			j := i + 1
			for j < len(s) && j < i+3 && isHex(s[j]) {
				j++
			}
			if j == i+1 {
				b.WriteString(`\x`)
				continue
			}
			v, _ := strconv.ParseUint(s[i+1:j], 16, 8)
			b.WriteByte(byte(v))
			i = j - 1
		case '0', '1', '2', '3', '4', '5', '6', '7':
			j := i
			limit := i + 3
			if ch == '0' && echoStyle {
				j = i + 1
				limit = i + 4
			}
			for j < len(s) && j < limit && s[j] >= '0' && s[j] <= '7' {
				j++
			}
			if ch != '0' && echoStyle {
				b.WriteByte('\\')
				b.WriteByte(ch)
				continue
			}
			start := i
			if ch == '0' && echoStyle {
				start = i + 1
			}
			v := uint64(0)
			if j > start {
				v, _ = strconv.ParseUint(s[start:j], 8, 16)
			}
			b.WriteByte(byte(v))
			i = j - 1
		default:
			b.WriteByte('\\')
			b.WriteByte(ch)
		}
	}
	return b.String(), false
}

func isHex(b byte) bool {
	return '0' <= b && b <= '9' || 'a' <= lower(b) && lower(b) <= 'f'
}
