package shellexec

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
)

// runWc is GNU wc with -lwcmL (-m counts bytes, as in the C locale).
func runWc(c *cmd, args []string) int {
	opts, operands, err := parseOpts(args, "lwcmL", map[string]bool{"lines": false, "words": false, "bytes": false, "chars": false, "max-line-length": false})
	if err != nil {
		return c.usage("%v", err)
	}
	var show [5]bool // lines words chars bytes maxline
	for _, o := range opts {
		switch o.name {
		case "l", "lines":
			show[0] = true
		case "w", "words":
			show[1] = true
		case "m", "chars":
			show[2] = true
		case "c", "bytes":
			show[3] = true
		case "L", "max-line-length":
			show[4] = true
		}
	}
	if !slices.Contains(show[:], true) {
		show[0], show[1], show[3] = true, true, true
	}
	var rows []wcRow
	var total [5]int64
	stdin := len(operands) == 0
	status := c.inputs(operands, func(name string, data []byte) {
		r := wcRow{n: wcCounts(data)}
		if name != "-" || !stdin {
			r.name = name
		}
		if name == "-" {
			stdin = true
		}
		for i := range total {
			if i == 4 {
				total[i] = max(total[i], r.n[i])
			} else {
				total[i] += r.n[i]
			}
		}
		rows = append(rows, r)
	})
	if len(rows) > 1 {
		rows = append(rows, wcRow{n: total, name: "total"})
	}
	nshow := 0
	for _, s := range show {
		if s {
			nshow++
		}
	}
	width := 1
	if nshow > 1 || len(rows) > 1 || status != 0 {
		width = len(strconv.FormatInt(total[3], 10))
		if stdin {
			width = max(width, 7)
		}
	}
	for _, r := range rows {
		r.print(c, show, width)
	}
	return status
}

// wcRow is one line of wc's output: the counts (lines, words, chars,
// bytes, longest line) of a file, or the total.
type wcRow struct {
	n    [5]int64
	name string
}

// wcCounts counts data's lines, words, chars and bytes, and measures its
// longest line (tabs to multiples of 8, only printable ASCII counted).
func wcCounts(data []byte) [5]int64 {
	var n [5]int64
	n[0] = int64(bytes.Count(data, []byte{'\n'}))
	inWord := false
	var cur int64
	for _, b := range data {
		space := b == ' ' || b >= '\t' && b <= '\r'
		if !space && !inWord {
			n[1]++
		}
		inWord = !space
		if b == '\n' {
			n[4] = max(n[4], cur)
			cur = 0
		} else if b == '\t' {
			cur += 8 - cur%8
		} else if b >= 32 && b < 127 {
			cur++
		}
	}
	n[4] = max(n[4], cur)
	n[2] = int64(len(data))
	n[3] = int64(len(data))
	return n
}

// print writes the counts show selects, each width wide.
func (r wcRow) print(c *cmd, show [5]bool, width int) {
	sepc := ""
	for i, s := range show {
		if s {
			fmt.Fprintf(c.out, "%s%*d", sepc, width, r.n[i])
			sepc = " "
		}
	}
	if r.name != "" {
		fmt.Fprintf(c.out, " %s", r.name)
	}
	c.out.WriteByte('\n')
}
