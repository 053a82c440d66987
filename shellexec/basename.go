package shellexec

import "strings"

// runBasename is GNU basename with -a, -s SUFFIX and -z.
func runBasename(c *cmd, args []string) int {
	opts, operands, err := parseOpts(args, "as:z", map[string]bool{"multiple": false, "suffix": true, "zero": false})
	if err != nil {
		return c.usage("%v", err)
	}
	multiple, suffix := false, ""
	term := byte('\n')
	for _, o := range opts {
		switch o.name {
		case "a", "multiple":
			multiple = true
		case "s", "suffix":
			suffix, multiple = o.val, true
		case "z", "zero":
			term = 0
		}
	}
	if len(operands) == 0 {
		return c.usage("missing operand")
	}
	if !multiple {
		if len(operands) > 2 {
			return c.usage("extra operand '%s'", operands[2])
		}
		if len(operands) == 2 {
			suffix = operands[1]
		}
		operands = operands[:1]
	}
	for _, name := range operands {
		b := basename(name)
		if suffix != "" && b != suffix && strings.HasSuffix(b, suffix) {
			b = strings.TrimSuffix(b, suffix)
		}
		c.out.WriteString(b)
		c.out.WriteByte(term)
	}
	return 0
}

func basename(s string) string {
	if s == "" {
		return ""
	}
	t := strings.TrimRight(s, "/")
	if t == "" {
		return "/"
	}
	return t[strings.LastIndexByte(t, '/')+1:]
}

// runDirname is GNU dirname with -z.
func runDirname(c *cmd, args []string) int {
	_, operands, err := parseOpts(args, "z", map[string]bool{"zero": false})
	if err != nil {
		return c.usage("%v", err)
	}
	if len(operands) == 0 {
		return c.usage("missing operand")
	}
	for _, name := range operands {
		t := strings.TrimRight(name, "/")
		switch i := strings.LastIndexByte(t, '/'); {
		case name != "" && t == "":
			c.out.WriteString("/")
		case i < 0:
			c.out.WriteString(".")
		default:
			d := strings.TrimRight(t[:i], "/")
			if d == "" {
				d = "/"
			}
			c.out.WriteString(d)
		}
		c.out.WriteByte('\n')
	}
	return 0
}
