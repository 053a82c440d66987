package shellexec

import (
	"fmt"
	"strconv"
	"strings"
)

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
