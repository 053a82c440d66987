package shellexec

import (
	"bytes"
	"strconv"
	"strings"
)

// maxXargsBytes is the argument bytes per invocation, like GNU's default.
const maxXargsBytes = 128 << 10

// xargsRun is one xargs: the command it runs, how it reads its input and
// how it groups the items into invocations.
type xargsRun struct {
	c       *cmd
	name    string                   // the command
	run     func(*cmd, []string) int // its in-process implementation
	cmdArgs []string                 // the command and its initial arguments
	status  int

	nul, noEmpty bool
	delim        byte
	hasDelim     bool
	maxArgs      int
	replace      string
}

// xargsShort and xargsLong are the options xargs knows.
const xargsShort = "0n:I:d:rtxpP:L:s:E:"

var xargsLong = map[string]bool{"null": false, "max-args": true, "delimiter": true, "no-run-if-empty": false, "max-procs": true, "replace": true}

// runXargs runs one of the in-process commands with arguments read from
// stdin. The command never leaves the process and gets an empty stdin.
func runXargs(c *cmd, args []string) int {
	opts, cmdArgs, bad := xargsOptions(args)
	if bad != "" {
		return c.usage("invalid option %s", bad)
	}
	if len(cmdArgs) == 0 {
		cmdArgs = []string{"echo"}
	}
	x := &xargsRun{c: c, cmdArgs: cmdArgs, name: cmdArgs[0]}
	for _, o := range opts {
		if status, ok := x.setOption(o); !ok {
			return status
		}
	}
	run, ok := lookupCommand(x.name)
	if !ok || x.name == "xargs" {
		return c.refuse(x.name, "xargs may only run the read-only commands ("+commandList()+") except xargs")
	}
	x.run = run
	input, err := c.readStdin()
	if err != nil {
		return c.usage("%v", err)
	}
	items, err := x.items(input)
	if err != nil {
		return c.usage("%v", err)
	}
	switch {
	case x.replace != "":
		x.runReplacing(items)
	case len(items) == 0:
		if !x.noEmpty {
			x.invoke(cmdArgs[1:])
		}
	default:
		x.runBatches(items)
	}
	return x.status
}

// xargsOptions splits xargs's arguments into its options, which end at
// the first operand, and the command; bad is an option it cannot read.
func xargsOptions(args []string) (opts []opt, cmdArgs []string, bad string) {
	i := 0
	for i < len(args) && strings.HasPrefix(args[i], "-") && args[i] != "-" {
		a := args[i]
		if a == "--" {
			i++
			break
		}
		o, rest, err := parseOpts([]string{a}, xargsShort, xargsLong)
		if err != nil && i+1 < len(args) {
			o, rest, err = parseOpts(args[i:i+2], xargsShort, xargsLong)
			i++
		}
		if err != nil || len(rest) > 0 {
			return nil, nil, a
		}
		opts = append(opts, o...)
		i++
	}
	return opts, args[i:], ""
}

// setOption applies one option; ok is false when xargs must stop with
// status.
func (x *xargsRun) setOption(o opt) (status int, ok bool) {
	c := x.c
	switch o.name {
	case "0", "null":
		x.nul = true
	case "n", "max-args":
		n, err := strconv.Atoi(o.val)
		if err != nil || n < 1 {
			return c.usage("invalid number for -n option"), false
		}
		x.maxArgs = n
	case "I", "replace":
		x.replace = o.val
	case "d", "delimiter":
		s, _ := expandEscapes(o.val, false)
		if len(s) != 1 {
			return c.usage("invalid delimiter"), false
		}
		x.delim, x.hasDelim = s[0], true
	case "r", "no-run-if-empty":
		x.noEmpty = true
	case "p":
		return c.refuse("-p", "xargs may not prompt"), false
	case "t", "x", "P", "max-procs":
	default:
		return c.usage("option -%s is not supported", o.name), false
	}
	return 0, true
}

// items splits the input into the items xargs passes: NUL- or
// delimiter-separated, whole lines with -I, else words with quotes.
func (x *xargsRun) items(input []byte) ([]string, error) {
	switch {
	case x.nul:
		return splitNonEmpty(input, 0), nil
	case x.hasDelim:
		return splitNonEmpty(input, x.delim), nil
	case x.replace != "":
		var items []string
		for _, l := range splitLines(input, '\n') {
			if s := strings.TrimLeft(string(l), " \t"); s != "" {
				items = append(items, s)
			}
		}
		return items, nil
	}
	return xargsWords(input)
}

// invoke runs the command once with argv, in-process, and folds its exit
// status into xargs's as GNU xargs does (123 for a failure, 124 for 255).
func (x *xargsRun) invoke(argv []string) {
	c := x.c
	sub := &cmd{ctx: c.ctx, s: c.s, fs: c.fs, name: x.name, dir: c.dir,
		stdin: bytes.NewReader(nil), out: c.out, stderr: c.stderr, pos: c.pos}
	st := x.run(sub, argv)
	if sub.denied != nil {
		c.denied = sub.denied
	}
	switch {
	case st == 255:
		x.status = 124
	case st != 0 && x.status == 0:
		x.status = 123
	}
}

// runReplacing runs the command once per item, with -I's string replaced
// by the item in each initial argument.
func (x *xargsRun) runReplacing(items []string) {
	for _, it := range items {
		if x.c.writeErr() || x.c.denied != nil {
			break
		}
		argv := make([]string, 0, len(x.cmdArgs)-1)
		for _, a := range x.cmdArgs[1:] {
			argv = append(argv, strings.ReplaceAll(a, x.replace, it))
		}
		x.invoke(argv)
	}
}

// runBatches runs the command on as many items at a time as -n and the
// argument size allow.
func (x *xargsRun) runBatches(items []string) {
	for len(items) > 0 && !x.c.writeErr() && x.c.denied == nil {
		n, size := 0, 0
		for n < len(items) && (x.maxArgs == 0 || n < x.maxArgs) && (n == 0 || size+len(items[n])+1 <= maxXargsBytes) {
			size += len(items[n]) + 1
			n++
		}
		argv := append(append([]string(nil), x.cmdArgs[1:]...), items[:n]...)
		items = items[n:]
		x.invoke(argv)
	}
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
