package shellexec

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// parseCount parses head/tail counts: "5", "-5", "+5", with GNU suffixes.
func parseCount(s string) (sign byte, n int64, ok bool) {
	if s != "" && (s[0] == '-' || s[0] == '+') {
		sign, s = s[0], s[1:]
	}
	mult := int64(1)
	for suf, m := range map[string]int64{"k": 1024, "K": 1024, "M": 1 << 20, "G": 1 << 30, "b": 512, "kB": 1000, "MB": 1000000} {
		if strings.HasSuffix(s, suf) && len(s) > len(suf) {
			if _, err := strconv.ParseInt(strings.TrimSuffix(s, suf), 10, 64); err == nil {
				s, mult = strings.TrimSuffix(s, suf), m
				break
			}
		}
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil || v < 0 {
		return 0, 0, false
	}
	return sign, v * mult, true
}

// numericShorthand rewrites "-5" into "-n 5" for head and tail.
func numericShorthand(args []string) []string {
	if len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' && args[0][1] >= '0' && args[0][1] <= '9' {
		return append([]string{"-n", args[0][1:]}, args[1:]...)
	}
	return args
}

// runHead is GNU head with -n, -c, -q, -v and -z (and -N).
func runHead(c *cmd, args []string) int {
	return headTail(c, args, true)
}

// runTail is GNU tail with -n, -c, -q, -v and -z (and -N, +N); -f is
// refused.
func runTail(c *cmd, args []string) int {
	if len(args) > 0 && len(args[0]) > 1 && args[0][0] == '+' {
		args = append([]string{"-n", args[0]}, args[1:]...)
	}
	return headTail(c, args, false)
}

func headTail(c *cmd, args []string, head bool) int {
	opts, operands, err := parseOpts(numericShorthand(args), "n:c:qvzf", map[string]bool{"lines": true, "bytes": true, "quiet": false, "silent": false, "verbose": false, "follow": false, "zero-terminated": false})
	if err != nil {
		return c.usage("%v", err)
	}
	sign, n, bytesMode := byte(0), int64(10), false
	verbose, quiet := false, false
	sep := byte('\n')
	for _, o := range opts {
		switch o.name {
		case "n", "lines", "c", "bytes":
			var ok bool
			sign, n, ok = parseCount(o.val)
			if !ok {
				return c.usage("invalid number of %s: '%s'", map[bool]string{true: "bytes", false: "lines"}[o.name[0] == 'c' || o.name == "bytes"], o.val)
			}
			bytesMode = o.name == "c" || o.name == "bytes"
		case "q", "quiet", "silent":
			quiet, verbose = true, false
		case "v", "verbose":
			verbose, quiet = true, false
		case "z", "zero-terminated":
			sep = 0
		case "f", "follow":
			return c.refuse("-f", "following a file never ends")
		}
	}
	headers := (len(operands) > 1 || verbose) && !quiet
	if head && sign != '-' && !headers && (len(operands) == 0 || len(operands) == 1 && operands[0] == "-") {
		// Stream: stop reading once enough is printed, so "find . | head"
		// ends the walk early instead of reading all of it.
		return headStream(c, n, bytesMode, sep)
	}
	first := true
	return c.inputs(operands, func(name string, data []byte) {
		if headers {
			if !first {
				c.out.WriteByte('\n')
			}
			if name == "-" {
				name = "standard input"
			}
			fmt.Fprintf(c.out, "==> %s <==\n", name)
		}
		first = false
		c.out.Write(cutData(data, sep, sign, n, bytesMode, head))
	})
}

func headStream(c *cmd, n int64, bytesMode bool, sep byte) int {
	if bytesMode {
		if _, err := io.CopyN(c.out, c.stdin, n); err != nil && err != io.EOF {
			return 1
		}
		return 0
	}
	r := bufio.NewReaderSize(c.stdin, 64<<10)
	for i := int64(0); i < n; i++ {
		line, err := r.ReadSlice(sep)
		c.out.Write(line)
		if err == bufio.ErrBufferFull {
			i-- // the rest of a long line
			continue
		}
		if err != nil || c.writeErr() {
			break
		}
	}
	return 0
}

// cutData returns the part of data head or tail prints.
func cutData(data []byte, sep byte, sign byte, n int64, bytesMode, head bool) []byte {
	size := int64(len(data))
	if bytesMode {
		switch {
		case head && sign == '-':
			return data[:max(0, size-n)]
		case head:
			return data[:min(size, n)]
		case sign == '+':
			return data[min(size, max(n-1, 0)):]
		default:
			return data[max(0, size-n):]
		}
	}
	// Line offsets.
	if head && sign != '-' {
		off := 0
		for i := int64(0); i < n && off < len(data); i++ {
			j := bytes.IndexByte(data[off:], sep)
			if j < 0 {
				off = len(data)
				break
			}
			off += j + 1
		}
		return data[:off]
	}
	if !head && sign == '+' {
		off := 0
		for i := int64(1); i < n && off < len(data); i++ {
			j := bytes.IndexByte(data[off:], sep)
			if j < 0 {
				off = len(data)
				break
			}
			off += j + 1
		}
		return data[off:]
	}
	// The last n lines (tail) or all but the last n (head -n -N).
	end := len(data)
	if end > 0 && data[end-1] == sep {
		end--
	}
	off := len(data)
	i := int64(0)
	for ; i < n; i++ {
		j := bytes.LastIndexByte(data[:end], sep)
		if j < 0 {
			off = 0
			break
		}
		off = j + 1
		end = j
	}
	if n == 0 {
		off = len(data)
	}
	if head {
		if i < n && off == 0 {
			return nil
		}
		return data[:off]
	}
	return data[off:]
}
