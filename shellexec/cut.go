package shellexec

import (
	"bytes"
	"strconv"
	"strings"
)

// runCut is GNU cut with -b, -c (bytes, as in the C locale), -f, -d, -s,
// --complement and --output-delimiter.
func runCut(c *cmd, args []string) int {
	opts, operands, err := parseOpts(args, "d:f:c:b:sz", map[string]bool{"delimiter": true, "fields": true, "characters": true, "bytes": true, "only-delimited": false, "complement": false, "output-delimiter": true})
	if err != nil {
		return c.usage("%v", err)
	}
	delim := byte('\t')
	var list string
	fields, onlyDelim, complement := false, false, false
	outDelim := ""
	haveOut := false
	for _, o := range opts {
		switch o.name {
		case "d", "delimiter":
			if len(o.val) != 1 {
				return c.usage("the delimiter must be a single character")
			}
			delim = o.val[0]
		case "f", "fields":
			list, fields = o.val, true
		case "c", "b", "characters", "bytes":
			list, fields = o.val, false
		case "s", "only-delimited":
			onlyDelim = true
		case "complement":
			complement = true
		case "output-delimiter":
			outDelim, haveOut = o.val, true
		}
	}
	if list == "" {
		return c.usage("you must specify a list of bytes, characters, or fields")
	}
	ranges, ok := parseList(list)
	if !ok {
		return c.usage("invalid field range")
	}
	in := func(n int) bool {
		for _, r := range ranges {
			if n >= r[0] && (r[1] == 0 || n <= r[1]) {
				return !complement
			}
		}
		return complement
	}
	if !haveOut {
		outDelim = string(delim)
		if !fields {
			outDelim = ""
		}
	}
	return c.inputs(operands, func(_ string, data []byte) {
		for _, line := range splitLines(data, '\n') {
			if fields {
				if bytes.IndexByte(line, delim) < 0 {
					if !onlyDelim {
						c.out.Write(line)
						c.out.WriteByte('\n')
					}
					continue
				}
				first := true
				for i, f := range bytes.Split(line, []byte{delim}) {
					if in(i + 1) {
						if !first {
							c.out.WriteString(outDelim)
						}
						c.out.Write(f)
						first = false
					}
				}
			} else {
				for i, b := range line {
					if in(i + 1) {
						c.out.WriteByte(b)
					}
				}
			}
			c.out.WriteByte('\n')
		}
	})
}

// parseList parses "1,3-5,7-" into ranges (an open end is 0).
func parseList(s string) ([][2]int, bool) {
	var out [][2]int
	for _, part := range strings.Split(s, ",") {
		lo, hi, isRange := strings.Cut(part, "-")
		var r [2]int
		var err error
		if lo == "" {
			r[0] = 1
		} else if r[0], err = strconv.Atoi(lo); err != nil || r[0] < 1 {
			return nil, false
		}
		switch {
		case !isRange:
			r[1] = r[0]
		case hi == "":
			r[1] = 0
		default:
			if r[1], err = strconv.Atoi(hi); err != nil || r[1] < r[0] {
				return nil, false
			}
		}
		out = append(out, r)
	}
	return out, len(out) > 0
}
