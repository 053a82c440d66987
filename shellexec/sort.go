package shellexec

import (
	"bytes"
	"slices"
	"strconv"
	"strings"
)

type sortKey struct {
	startField, endField int
	numeric, reverse     bool
	fold, blanks         bool
	hasOpts              bool
}

func runSort(c *cmd, args []string) int {
	opts, operands, err := parseOpts(args, "rnufsk:t:zo:bdhVRT:S:", map[string]bool{"reverse": false, "numeric-sort": false, "unique": false, "ignore-case": false, "stable": false, "key": true, "field-separator": true, "zero-terminated": false, "output": true, "compress-program": true, "temporary-directory": true})
	if err != nil {
		return c.usage("%v", err)
	}
	var reverse, numeric, unique, fold, stable, blanks bool
	var keys []sortKey
	sepField := -1
	sep := byte('\n')
	for _, o := range opts {
		switch o.name {
		case "r", "reverse":
			reverse = true
		case "n", "numeric-sort":
			numeric = true
		case "u", "unique":
			unique = true
		case "f", "ignore-case":
			fold = true
		case "s", "stable":
			stable = true
		case "b":
			blanks = true
		case "z", "zero-terminated":
			sep = 0
		case "t", "field-separator":
			if len(o.val) != 1 {
				return c.usage("the field separator must be a single character")
			}
			sepField = int(o.val[0])
		case "k", "key":
			k, ok := parseSortKey(o.val)
			if !ok {
				return c.usage("invalid key specification: '%s'", o.val)
			}
			keys = append(keys, k)
		case "o", "output":
			return c.refuse("-o", "sort may not write files")
		case "T", "temporary-directory":
			return c.refuse("-T", "sort may not write files")
		case "compress-program":
			return c.refuse("--compress-program", "sort may not run programs")
		default:
			return c.usage("option -%s is not supported", o.name)
		}
	}
	var lines [][]byte
	status := c.inputs(operands, func(_ string, data []byte) {
		lines = append(lines, splitLines(data, sep)...)
	})
	if len(keys) == 0 {
		keys = []sortKey{{startField: 1, endField: 0}}
	}
	for i := range keys {
		if !keys[i].hasOpts {
			keys[i].numeric, keys[i].fold, keys[i].reverse, keys[i].blanks = numeric, fold, reverse, blanks
		}
	}
	keyOf := func(line []byte, k sortKey) []byte {
		key := line
		if k.startField > 1 || k.endField != 0 {
			key = fieldRange(line, sepField, k.startField, k.endField)
		}
		if k.blanks {
			key = bytes.TrimLeft(key, " \t")
		}
		return key
	}
	cmpKeys := func(a, b []byte) int {
		for _, k := range keys {
			ka, kb := keyOf(a, k), keyOf(b, k)
			var r int
			switch {
			case k.numeric:
				r = cmpNumeric(ka, kb)
			case k.fold:
				r = bytes.Compare(bytes.ToUpper(ka), bytes.ToUpper(kb))
			default:
				r = bytes.Compare(ka, kb)
			}
			if k.reverse {
				r = -r
			}
			if r != 0 {
				return r
			}
		}
		return 0
	}
	cmp := func(a, b []byte) int {
		if r := cmpKeys(a, b); r != 0 || stable || unique {
			return r
		}
		r := bytes.Compare(a, b)
		if reverse {
			r = -r
		}
		return r
	}
	slices.SortStableFunc(lines, cmp)
	for i, l := range lines {
		if unique && i > 0 && cmpKeys(lines[i-1], l) == 0 {
			continue
		}
		c.out.Write(l)
		c.out.WriteByte(sep)
	}
	return status
}

func parseSortKey(s string) (sortKey, bool) {
	var k sortKey
	start, end, hasEnd := strings.Cut(s, ",")
	parse := func(f string) (int, bool) {
		f = strings.TrimRightFunc(f, func(r rune) bool {
			switch r {
			case 'n':
				k.numeric = true
			case 'r':
				k.reverse = true
			case 'f':
				k.fold = true
			case 'b':
				k.blanks = true
			default:
				return false
			}
			k.hasOpts = true
			return true
		})
		f, _, _ = strings.Cut(f, ".")
		n, err := strconv.Atoi(f)
		return n, err == nil && n > 0
	}
	var ok bool
	if k.startField, ok = parse(start); !ok {
		return k, false
	}
	if hasEnd {
		if k.endField, ok = parse(end); !ok {
			return k, false
		}
	}
	return k, true
}

// fieldRange returns fields from..to (1-based, to 0 = end of line). With
// no separator (sep < 0), a field is leading blanks plus non-blanks.
func fieldRange(line []byte, sep int, from, to int) []byte {
	starts := []int{0}
	if sep >= 0 {
		for i, b := range line {
			if int(b) == sep {
				starts = append(starts, i+1)
			}
		}
	} else {
		for i := 1; i < len(line); i++ {
			if isBlank(line[i]) && !isBlank(line[i-1]) {
				starts = append(starts, i)
			}
		}
	}
	if from > len(starts) {
		return nil
	}
	s := starts[from-1]
	e := len(line)
	if to > 0 && to < len(starts) {
		e = starts[to]
		if sep >= 0 {
			e--
		}
	}
	if e < s {
		return nil
	}
	return line[s:e]
}

func isBlank(b byte) bool { return b == ' ' || b == '\t' }

// cmpNumeric compares leading numbers like sort -n: blanks, an optional
// '-', digits and a decimal part; anything else counts as zero.
func cmpNumeric(a, b []byte) int {
	fa, fb := leadingNumber(a), leadingNumber(b)
	switch {
	case fa < fb:
		return -1
	case fa > fb:
		return 1
	}
	return 0
}

func leadingNumber(s []byte) float64 {
	i := 0
	for i < len(s) && isBlank(s[i]) {
		i++
	}
	j := i
	if j < len(s) && s[j] == '-' {
		j++
	}
	for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] == '.') {
		j++
	}
	v, err := strconv.ParseFloat(string(s[i:j]), 64)
	if err != nil {
		return 0
	}
	return v
}
