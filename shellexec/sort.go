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

// runSort is GNU sort with -rnufsbz, -t and -k, in memory; options that
// write files or run programs are refused.
func runSort(c *cmd, args []string) int {
	opts, operands, err := parseOpts(args, "rnufsk:t:zo:bdhVRT:S:", map[string]bool{"reverse": false, "numeric-sort": false, "unique": false, "ignore-case": false, "stable": false, "key": true, "field-separator": true, "zero-terminated": false, "output": true, "compress-program": true, "temporary-directory": true})
	if err != nil {
		return c.usage("%v", err)
	}
	s := &sortRun{sepField: -1, sep: '\n'}
	for _, o := range opts {
		if status, ok := s.setOption(c, o); !ok {
			return status
		}
	}
	var lines [][]byte
	c.keepInput = true
	status := c.inputs(operands, func(_ string, data []byte) {
		part := splitLines(data, s.sep)
		// Each line is a slice header besides its bytes.
		if err := c.charge(int64(len(part)) * 24); err != nil {
			c.errorf("%v", err)
			return
		}
		lines = append(lines, part...)
	})
	if len(s.keys) == 0 {
		s.keys = []sortKey{{startField: 1, endField: 0}}
	}
	for i := range s.keys {
		if k := &s.keys[i]; !k.hasOpts {
			k.numeric, k.fold, k.reverse, k.blanks = s.numeric, s.fold, s.reverse, s.blanks
		}
	}
	slices.SortStableFunc(lines, s.compare)
	for i, l := range lines {
		if s.unique && i > 0 && s.cmpKeys(lines[i-1], l) == 0 {
			continue
		}
		c.out.Write(l)
		c.out.WriteByte(s.sep)
	}
	return status
}

// sortRun is one sort's options.
type sortRun struct {
	reverse, numeric, unique, fold, stable, blanks bool
	keys                                           []sortKey
	sepField                                       int  // -t; -1 for blanks
	sep                                            byte // the line terminator
}

// setOption applies one option; ok is false when sort must stop with
// status.
func (s *sortRun) setOption(c *cmd, o opt) (status int, ok bool) {
	switch o.name {
	case "r", "reverse":
		s.reverse = true
	case "n", "numeric-sort":
		s.numeric = true
	case "u", "unique":
		s.unique = true
	case "f", "ignore-case":
		s.fold = true
	case "s", "stable":
		s.stable = true
	case "b":
		s.blanks = true
	case "z", "zero-terminated":
		s.sep = 0
	case "t", "field-separator":
		if len(o.val) != 1 {
			return c.usage("the field separator must be a single character"), false
		}
		s.sepField = int(o.val[0])
	case "k", "key":
		k, ok := parseSortKey(o.val)
		if !ok {
			return c.usage("invalid key specification: '%s'", o.val), false
		}
		s.keys = append(s.keys, k)
	case "o", "output":
		return c.refuse("-o", "sort may not write files"), false
	case "T", "temporary-directory":
		return c.refuse("-T", "sort may not write files"), false
	case "compress-program":
		return c.refuse("--compress-program", "sort may not run programs"), false
	default:
		return c.usage("option -%s is not supported", o.name), false
	}
	return 0, true
}

// keyOf returns the part of line that key k compares.
func (s *sortRun) keyOf(line []byte, k sortKey) []byte {
	key := line
	if k.startField > 1 || k.endField != 0 {
		key = fieldRange(line, s.sepField, k.startField, k.endField)
	}
	if k.blanks {
		key = bytes.TrimLeft(key, " \t")
	}
	return key
}

// cmpKeys compares two lines by the keys, in turn.
func (s *sortRun) cmpKeys(a, b []byte) int {
	for _, k := range s.keys {
		ka, kb := s.keyOf(a, k), s.keyOf(b, k)
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

// compare orders two lines: by the keys, then (unless -s or -u) by the
// whole line.
func (s *sortRun) compare(a, b []byte) int {
	if r := s.cmpKeys(a, b); r != 0 || s.stable || s.unique {
		return r
	}
	r := bytes.Compare(a, b)
	if s.reverse {
		r = -r
	}
	return r
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
