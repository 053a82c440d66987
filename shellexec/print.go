package shellexec

import (
	"fmt"
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

// maxWidth bounds printf field widths and precisions.
const maxWidth = 4096

// runPrintf is bash's builtin printf without -v.
func runPrintf(c *cmd, args []string) int {
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	}
	if len(args) > 0 && strings.HasPrefix(args[0], "-v") {
		return c.refuse("-v", "variables are read-only")
	}
	if len(args) == 0 {
		return c.usage("usage: printf format [arguments]")
	}
	format, args := args[0], args[1:]
	status := 0
	for first := true; first || len(args) > 0; first = false {
		consumed := false
		var stop bool
		args, consumed, stop = printfOnce(c, format, args, &status)
		if stop || !consumed || c.writeErr() {
			break
		}
	}
	return status
}

func printfOnce(c *cmd, format string, args []string, status *int) ([]string, bool, bool) {
	consumed := false
	next := func() (string, bool) {
		if len(args) == 0 {
			return "", false
		}
		a := args[0]
		args = args[1:]
		consumed = true
		return a, true
	}
	for i := 0; i < len(format); i++ {
		ch := format[i]
		if ch == '\\' {
			j := i + 1
			if j < len(format) && format[j] >= '0' && format[j] <= '7' {
				for k := 0; k < 3 && j < len(format) && format[j] >= '0' && format[j] <= '7'; k++ {
					j++
				}
			} else if j < len(format) && format[j] == 'x' {
				j++
				for k := 0; k < 2 && j < len(format) && isHex(format[j]); k++ {
					j++
				}
			} else if j < len(format) {
				j++
			}
			s, _ := expandEscapes(format[i:j], false)
			c.out.WriteString(s)
			i = j - 1
			continue
		}
		if ch != '%' {
			c.out.WriteByte(ch)
			continue
		}
		if i+1 < len(format) && format[i+1] == '%' {
			c.out.WriteByte('%')
			i++
			continue
		}
		// %[flags][width][.prec]verb
		j := i + 1
		for j < len(format) && strings.IndexByte("-+ #0", format[j]) >= 0 {
			j++
		}
		spec := format[i:j]
		readNum := func() {
			if j < len(format) && format[j] == '*' {
				a, _ := next()
				n, _ := strconv.Atoi(a)
				spec += strconv.Itoa(max(min(n, maxWidth), -maxWidth))
				j++
				return
			}
			k := j
			for j < len(format) && format[j] >= '0' && format[j] <= '9' {
				j++
			}
			if n, err := strconv.Atoi(format[k:j]); err == nil {
				spec += strconv.Itoa(min(n, maxWidth))
			}
		}
		readNum()
		if j < len(format) && format[j] == '.' {
			spec += "."
			j++
			readNum()
		}
		if j >= len(format) {
			c.out.WriteString(format[i:])
			return args, consumed, true
		}
		verb := format[j]
		i = j
		a, _ := next()
		switch verb {
		case 's':
			fmt.Fprintf(c.out, spec+"s", a)
		case 'b':
			s, stop := expandEscapes(a, true)
			fmt.Fprintf(c.out, spec+"s", s)
			if stop {
				return args, consumed, true
			}
		case 'c':
			if a != "" {
				fmt.Fprintf(c.out, spec+"s", a[:1])
			} else {
				fmt.Fprintf(c.out, spec+"s", "")
			}
		case 'd', 'i', 'u', 'x', 'X', 'o':
			n, ok := printfInt(a)
			if !ok {
				c.errorf("%s: invalid number", a)
				*status = 1
			}
			v := verb
			if v == 'i' || v == 'u' {
				v = 'd'
			}
			fmt.Fprintf(c.out, spec+string(v), n)
		case 'f', 'e', 'E', 'g', 'G':
			f, err := strconv.ParseFloat(strings.TrimSpace(a), 64)
			if err != nil && a != "" {
				c.errorf("%s: invalid number", a)
				*status = 1
			}
			fmt.Fprintf(c.out, spec+string(verb), f)
		default:
			c.errorf("%%%c: invalid directive", verb)
			return args, consumed, true
		}
	}
	return args, consumed, false
}

func printfInt(s string) (int64, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, true
	}
	if len(s) >= 2 && (s[0] == '\'' || s[0] == '"') {
		return int64(s[1]), true
	}
	n, err := strconv.ParseInt(s, 0, 64)
	return n, err == nil
}
