package shellexec

import (
	"bytes"
	"fmt"
)

// runCat is GNU cat with -n (-u is accepted and changes nothing).
func runCat(c *cmd, args []string) int {
	opts, operands, err := parseOpts(args, "nbsuAEvT", map[string]bool{"number": false})
	if err != nil {
		return c.usage("%v", err)
	}
	number := false
	for _, o := range opts {
		switch o.name {
		case "n", "number":
			number = true
		case "u":
		default:
			return c.usage("option -%s is not supported", o.name)
		}
	}
	n := 0
	return c.inputs(operands, func(_ string, data []byte) {
		if !number {
			c.out.Write(data)
			return
		}
		for len(data) > 0 {
			i := bytes.IndexByte(data, '\n')
			line := data
			if i >= 0 {
				line, data = data[:i+1], data[i+1:]
			} else {
				data = nil
			}
			n++
			fmt.Fprintf(c.out, "%6d\t", n)
			c.out.Write(line)
		}
	})
}
