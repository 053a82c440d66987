package shellexec

import "strings"

// runTr is GNU tr with -d, -s and -c over bytes.
func runTr(c *cmd, args []string) int {
	opts, operands, err := parseOpts(args, "dscC", map[string]bool{"delete": false, "squeeze-repeats": false, "complement": false})
	if err != nil {
		return c.usage("%v", err)
	}
	var del, squeeze, comp bool
	for _, o := range opts {
		switch o.name {
		case "d", "delete":
			del = true
		case "s", "squeeze-repeats":
			squeeze = true
		case "c", "C", "complement":
			comp = true
		}
	}
	if len(operands) == 0 || len(operands) > 2 || !del && !squeeze && len(operands) != 2 {
		return c.usage("missing operand")
	}
	set1, ok1 := expandTrSet(operands[0])
	if !ok1 {
		return c.usage("invalid set '%s'", operands[0])
	}
	var in1 [256]bool
	for _, b := range set1 {
		in1[b] = true
	}
	if comp {
		set1 = set1[:0]
		for i := 0; i < 256; i++ {
			if !in1[i] {
				set1 = append(set1, byte(i))
			}
			in1[i] = !in1[i]
		}
	}
	var mapping [256]int
	for i := range mapping {
		mapping[i] = i
	}
	var squeezeSet [256]bool
	if len(operands) == 2 {
		set2, ok := expandTrSet(operands[1])
		if !ok || len(set2) == 0 {
			return c.usage("invalid set '%s'", operands[1])
		}
		if !del {
			for i, b := range set1 {
				t := set2[min(i, len(set2)-1)]
				mapping[b] = int(t)
			}
		}
		for _, b := range set2 {
			squeezeSet[b] = true
		}
	} else if squeeze {
		squeezeSet = in1
	}
	data, err := c.readStdin()
	if err != nil {
		return c.usage("%v", err)
	}
	last := -1
	for _, b := range data {
		if del && in1[b] {
			continue
		}
		t := mapping[b]
		if squeeze && squeezeSet[t] && t == last {
			continue
		}
		c.out.WriteByte(byte(t))
		last = t
	}
	return 0
}

// expandTrSet expands tr's ranges, escapes and [:class:] names.
func expandTrSet(s string) ([]byte, bool) {
	var out []byte
	for i := 0; i < len(s); i++ {
		ch := s[i]
		if ch == '[' && i+1 < len(s) && s[i+1] == ':' {
			end := strings.Index(s[i+2:], ":]")
			if end < 0 {
				return nil, false
			}
			class := s[i+2 : i+2+end]
			for b := 0; b < 128; b++ {
				if classMatch(class, byte(b)) {
					out = append(out, byte(b))
				}
			}
			i += end + 3
			continue
		}
		if ch == '\\' && i+1 < len(s) {
			i++
			switch c := s[i]; {
			case c >= '0' && c <= '7':
				// \NNN: one to three octal digits, as GNU tr ("\000" is
				// NUL, not NUL and two zeros).
				n, k := 0, i
				for ; k < len(s) && k < i+3 && s[k] >= '0' && s[k] <= '7' && n*8+int(s[k]-'0') <= 0xff; k++ {
					n = n*8 + int(s[k]-'0')
				}
				ch, i = byte(n), k-1
			default:
				ch = trEscape(c)
			}
		}
		if i+2 < len(s) && s[i+1] == '-' {
			hi := s[i+2]
			if hi < ch {
				return nil, false
			}
			for b := int(ch); b <= int(hi); b++ {
				out = append(out, byte(b))
			}
			i += 2
			continue
		}
		out = append(out, ch)
	}
	return out, true
}

// trEscape is the byte a backslash and c stand for in a tr set.
func trEscape(c byte) byte {
	switch c {
	case 'n':
		return '\n'
	case 't':
		return '\t'
	case 'r':
		return '\r'
	case 'a':
		return '\a'
	case 'b':
		return '\b'
	case 'f':
		return '\f'
	case 'v':
		return '\v'
	}
	return c
}
