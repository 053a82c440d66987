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

// printfOnce prints format once, taking its arguments from args: it
// returns the arguments left, whether it took any, and whether printf
// stops (\c in %b, a directive it does not know, a format cut short).
func printfOnce(c *cmd, format string, args []string, status *int) ([]string, bool, bool) {
	a := &printfArgs{list: args}
	for i := 0; i < len(format); i++ {
		ch := format[i]
		if ch == '\\' {
			s, j := printfEscape(format, i)
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
		spec, j := printfSpec(format, i, a)
		if j >= len(format) {
			c.out.WriteString(format[i:])
			return a.list, a.consumed, true
		}
		i = j
		if printfVerb(c, spec, format[j], a.next(), status) {
			return a.list, a.consumed, true
		}
	}
	return a.list, a.consumed, false
}

// printfArgs are the arguments a format takes, in turn.
type printfArgs struct {
	list     []string
	consumed bool // an argument was taken
}

// next takes the next argument; "" when none is left.
func (a *printfArgs) next() string {
	if len(a.list) == 0 {
		return ""
	}
	s := a.list[0]
	a.list = a.list[1:]
	a.consumed = true
	return s
}

// printfEscape expands the escape at format[i] (a backslash): what it
// prints, and the index after it.
func printfEscape(format string, i int) (string, int) {
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
	return s, j
}

// printfSpec reads %[flags][width][.prec] at format[i] (a "%") as a Go
// format without its verb, widths capped at maxWidth ("*" takes an
// argument), and returns the index of the verb.
func printfSpec(format string, i int, a *printfArgs) (string, int) {
	j := i + 1
	for j < len(format) && strings.IndexByte("-+ #0", format[j]) >= 0 {
		j++
	}
	spec := format[i:j]
	readNum := func(prec bool) {
		if j < len(format) && format[j] == '*' {
			n, _ := strconv.Atoi(a.next())
			j++
			if n < 0 && prec {
				// As bash: a negative precision is none at all (Go
				// would print "%!-(...)").
				spec = strings.TrimSuffix(spec, ".")
				return
			}
			// A negative width is the "-" flag and its size, which Go
			// reads as such ("%-5s").
			spec += strconv.Itoa(max(min(n, maxWidth), -maxWidth))
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
	readNum(false)
	if j < len(format) && format[j] == '.' {
		spec += "."
		j++
		readNum(true)
	}
	return spec, j
}

// printfVerb prints the argument a by spec and verb; stop is true after
// %b met \c or a directive printf does not know.
func printfVerb(c *cmd, spec string, verb byte, a string, status *int) (stop bool) {
	switch verb {
	case 's':
		fmt.Fprintf(c.out, spec+"s", a)
	case 'b':
		s, stop := expandEscapes(a, true)
		fmt.Fprintf(c.out, spec+"s", s)
		return stop
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
		return true
	}
	return false
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
