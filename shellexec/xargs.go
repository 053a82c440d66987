package shellexec

import (
	"bytes"
	"strconv"
	"strings"
)

// maxXargsBytes is the argument bytes per invocation, like GNU's default.
const maxXargsBytes = 128 << 10

// runXargs runs one of the in-process commands with arguments read from
// stdin. The command never leaves the process and gets an empty stdin.
func runXargs(c *cmd, args []string) int {
	// Options end at the first operand (the command).
	var opts []opt
	i := 0
	for i < len(args) && strings.HasPrefix(args[i], "-") && args[i] != "-" {
		a := args[i]
		if a == "--" {
			i++
			break
		}
		o, rest, err := parseOpts([]string{a}, "0n:I:d:rtxpP:L:s:E:", map[string]bool{"null": false, "max-args": true, "delimiter": true, "no-run-if-empty": false, "max-procs": true, "replace": true})
		if err != nil && i+1 < len(args) {
			o, rest, err = parseOpts(args[i:i+2], "0n:I:d:rtxpP:L:s:E:", map[string]bool{"null": false, "max-args": true, "delimiter": true, "no-run-if-empty": false, "max-procs": true, "replace": true})
			i++
		}
		if err != nil || len(rest) > 0 {
			return c.usage("invalid option %s", a)
		}
		opts = append(opts, o...)
		i++
	}
	cmdArgs := args[i:]
	if len(cmdArgs) == 0 {
		cmdArgs = []string{"echo"}
	}
	nul, noEmpty := false, false
	var delim byte
	hasDelim := false
	maxArgs := 0
	replace := ""
	for _, o := range opts {
		switch o.name {
		case "0", "null":
			nul = true
		case "n", "max-args":
			n, err := strconv.Atoi(o.val)
			if err != nil || n < 1 {
				return c.usage("invalid number for -n option")
			}
			maxArgs = n
		case "I", "replace":
			replace = o.val
		case "d", "delimiter":
			s, _ := expandEscapes(o.val, false)
			if len(s) != 1 {
				return c.usage("invalid delimiter")
			}
			delim, hasDelim = s[0], true
		case "r", "no-run-if-empty":
			noEmpty = true
		case "p":
			return c.refuse("-p", "xargs may not prompt")
		case "t", "x", "P", "max-procs":
		default:
			return c.usage("option -%s is not supported", o.name)
		}
	}
	name := cmdArgs[0]
	run, ok := lookupCommand(name)
	if !ok || name == "xargs" {
		return c.refuse(name, "xargs may only run the read-only commands ("+commandList()+") except xargs")
	}
	input, err := readAllLimited(c.stdin, maxFileBytes)
	if err != nil {
		return c.usage("%v", err)
	}
	var items []string
	switch {
	case nul:
		items = splitNonEmpty(input, 0)
	case hasDelim:
		items = splitNonEmpty(input, delim)
	case replace != "":
		for _, l := range splitLines(input, '\n') {
			if s := strings.TrimLeft(string(l), " \t"); s != "" {
				items = append(items, s)
			}
		}
	default:
		items, err = xargsWords(input)
		if err != nil {
			return c.usage("%v", err)
		}
	}
	status := 0
	invoke := func(argv []string) {
		sub := &cmd{ctx: c.ctx, s: c.s, fs: c.fs, name: name, dir: c.dir,
			stdin: bytes.NewReader(nil), out: c.out, stderr: c.stderr, pos: c.pos}
		st := run(sub, argv)
		if sub.denied != nil {
			c.denied = sub.denied
		}
		switch {
		case st == 255:
			status = 124
		case st != 0 && status == 0:
			status = 123
		}
	}
	if replace != "" {
		for _, it := range items {
			if c.writeErr() || c.denied != nil {
				break
			}
			argv := make([]string, 0, len(cmdArgs)-1)
			for _, a := range cmdArgs[1:] {
				argv = append(argv, strings.ReplaceAll(a, replace, it))
			}
			invoke(argv)
		}
		return status
	}
	if len(items) == 0 {
		if !noEmpty {
			invoke(cmdArgs[1:])
		}
		return status
	}
	for len(items) > 0 && !c.writeErr() && c.denied == nil {
		n, size := 0, 0
		for n < len(items) && (maxArgs == 0 || n < maxArgs) && (n == 0 || size+len(items[n])+1 <= maxXargsBytes) {
			size += len(items[n]) + 1
			n++
		}
		argv := append(append([]string(nil), cmdArgs[1:]...), items[:n]...)
		items = items[n:]
		invoke(argv)
	}
	return status
}

func splitNonEmpty(data []byte, sep byte) []string {
	var out []string
	for _, f := range bytes.Split(data, []byte{sep}) {
		if len(f) > 0 {
			out = append(out, string(f))
		}
	}
	return out
}

// xargsWords splits input like GNU xargs: blanks and newlines separate,
// single and double quotes and backslashes quote.
func xargsWords(data []byte) ([]string, error) {
	var out []string
	var cur strings.Builder
	inWord := false
	var quote byte
	for i := 0; i < len(data); i++ {
		ch := data[i]
		switch {
		case quote != 0:
			if ch == quote {
				quote = 0
			} else if ch == '\n' {
				return nil, errUnmatchedQuote(quote)
			} else {
				cur.WriteByte(ch)
			}
		case ch == '\'' || ch == '"':
			quote = ch
			inWord = true
		case ch == '\\' && i+1 < len(data):
			i++
			cur.WriteByte(data[i])
			inWord = true
		case ch == ' ' || ch == '\t' || ch == '\n':
			if inWord {
				out = append(out, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteByte(ch)
			inWord = true
		}
	}
	if quote != 0 {
		return nil, errUnmatchedQuote(quote)
	}
	if inWord {
		out = append(out, cur.String())
	}
	return out, nil
}

type errUnmatchedQuote byte

func (e errUnmatchedQuote) Error() string {
	kind := "single"
	if e == '"' {
		kind = "double"
	}
	return "unmatched " + kind + " quote; by default quotes are special to xargs unless you use the -0 option"
}
