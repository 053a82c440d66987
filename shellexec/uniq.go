package shellexec

import (
	"bytes"
	"fmt"
)

// runUniq is GNU uniq with -c, -d, -u and -i, without an output file.
func runUniq(c *cmd, args []string) int {
	opts, operands, err := parseOpts(args, "cdui", map[string]bool{"count": false, "repeated": false, "unique": false, "ignore-case": false})
	if err != nil {
		return c.usage("%v", err)
	}
	var count, repeated, uniqOnly, fold bool
	for _, o := range opts {
		switch o.name {
		case "c", "count":
			count = true
		case "d", "repeated":
			repeated = true
		case "u", "unique":
			uniqOnly = true
		case "i", "ignore-case":
			fold = true
		}
	}
	if len(operands) > 1 {
		return c.refuse("OUTPUT operand", "uniq's second operand is a file it would write")
	}
	return c.inputs(operands, func(_ string, data []byte) {
		lines := splitLines(data, '\n')
		for i := 0; i < len(lines); {
			j := i + 1
			for j < len(lines) && (bytes.Equal(lines[i], lines[j]) || fold && bytes.EqualFold(lines[i], lines[j])) {
				j++
			}
			n := j - i
			if !(repeated && n == 1 || uniqOnly && n > 1) {
				if count {
					fmt.Fprintf(c.out, "%7d ", n)
				}
				c.out.Write(lines[i])
				c.out.WriteByte('\n')
			}
			i = j
		}
	})
}
