package shellexec

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// splitLines splits data into lines without their terminator.
func splitLines(data []byte, sep byte) [][]byte {
	if len(data) == 0 {
		return nil
	}
	if data[len(data)-1] == sep {
		data = data[:len(data)-1]
	}
	return bytes.Split(data, []byte{sep})
}

// inputs reads each operand (or stdin when there are none) and calls fn.
func (c *cmd) inputs(operands []string, fn func(name string, data []byte)) int {
	if len(operands) == 0 {
		operands = []string{"-"}
	}
	status := 0
	for _, name := range operands {
		if c.writeErr() {
			break
		}
		data, err := c.readInput(name)
		if err != nil {
			c.errorf("%s", c.pathMsg(err))
			if pe, ok := err.(*fs.PathError); ok && pe.Err.Error() == "is a directory" {
				c.errorf("%s: Is a directory", name)
			}
			status = 1
			continue
		}
		fn(name, data)
	}
	return status
}

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

func runHead(c *cmd, args []string) int {
	return headTail(c, args, true)
}

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
	type row struct {
		n    [5]int64
		name string
	}
	var rows []row
	var total [5]int64
	stdin := len(operands) == 0
	status := c.inputs(operands, func(name string, data []byte) {
		var r row
		if name != "-" || !stdin {
			r.name = name
		}
		if name == "-" {
			stdin = true
		}
		r.n[0] = int64(bytes.Count(data, []byte{'\n'}))
		inWord := false
		var cur int64
		for _, b := range data {
			space := b == ' ' || b >= '\t' && b <= '\r'
			if !space && !inWord {
				r.n[1]++
			}
			inWord = !space
			if b == '\n' {
				r.n[4] = max(r.n[4], cur)
				cur = 0
			} else if b == '\t' {
				cur += 8 - cur%8
			} else if b >= 32 && b < 127 {
				cur++
			}
		}
		r.n[4] = max(r.n[4], cur)
		r.n[2] = int64(len(data))
		r.n[3] = int64(len(data))
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
		rows = append(rows, row{n: total, name: "total"})
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
	return status
}

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
	data, err := readAllLimited(c.stdin, maxFileBytes)
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
			switch s[i] {
			case 'n':
				ch = '\n'
			case 't':
				ch = '\t'
			case 'r':
				ch = '\r'
			case '0':
				ch = 0
			default:
				ch = s[i]
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

func runPwd(c *cmd, args []string) int {
	c.out.WriteString(c.dir)
	c.out.WriteByte('\n')
	return 0
}

func runLs(c *cmd, args []string) int {
	opts, operands, err := parseOpts(args, "1aAdpFRrU", map[string]bool{"all": false, "almost-all": false, "directory": false, "recursive": false, "reverse": false, "classify": false})
	if err != nil {
		return c.usage("%v", err)
	}
	var all, almost, dirOnly, slash, classify, recursive, reverse, unsorted bool
	for _, o := range opts {
		switch o.name {
		case "a", "all":
			all = true
		case "A", "almost-all":
			almost = true
		case "d", "directory":
			dirOnly = true
		case "p":
			slash = true
		case "F", "classify":
			classify = true
		case "R", "recursive":
			recursive = true
		case "r", "reverse":
			reverse = true
		case "U":
			unsorted = true
		}
	}
	if len(operands) == 0 {
		operands = []string{"."}
	}
	status := 0
	decorate := func(name string, mode fs.FileMode) string {
		switch {
		case mode.IsDir() && (slash || classify):
			return name + "/"
		case classify && mode&fs.ModeSymlink != 0:
			return name + "@"
		case classify && mode&0o111 != 0 && mode.IsRegular():
			return name + "*"
		}
		return name
	}
	order := func(names []string) {
		if !unsorted {
			sort.Strings(names)
			if reverse {
				slices.Reverse(names)
			}
		}
	}
	var files, dirs []string
	for _, op := range operands {
		fi, err := c.fs.lstat(c.dir, op)
		if err == nil && fi.Mode()&fs.ModeSymlink != 0 && !dirOnly {
			if st, err2 := c.fs.stat(c.dir, op); err2 == nil && st.IsDir() {
				fi = st
			}
		}
		if err != nil {
			c.errorf("cannot access '%s': %s", op, errText(err))
			status = 2
			continue
		}
		if fi.IsDir() && !dirOnly {
			dirs = append(dirs, op)
		} else {
			files = append(files, op)
		}
	}
	order(files)
	order(dirs)
	for _, f := range files {
		mode := fs.FileMode(0)
		if fi, err := c.fs.lstat(c.dir, f); err == nil {
			mode = fi.Mode()
		}
		c.out.WriteString(decorate(f, mode))
		c.out.WriteByte('\n')
	}
	headers := len(operands) > 1 || recursive
	first := len(files) == 0
	var list func(dir string)
	list = func(dir string) {
		if c.writeErr() {
			return
		}
		ents, err := c.fs.readDir(c.dir, dir)
		if err != nil {
			c.errorf("cannot open directory '%s': %s", dir, errText(err))
			status = 2
			return
		}
		if !first {
			c.out.WriteByte('\n')
		}
		first = false
		if headers {
			c.out.WriteString(dir + ":\n")
		}
		types := map[string]fs.FileMode{}
		var names []string
		if all {
			names = append(names, ".", "..")
			types["."], types[".."] = fs.ModeDir, fs.ModeDir
		}
		for _, e := range ents {
			if strings.HasPrefix(e.Name(), ".") && !all && !almost {
				continue
			}
			names = append(names, e.Name())
			t := e.Type()
			if classify && t.IsRegular() {
				if fi, err := e.Info(); err == nil {
					t = fi.Mode()
				}
			}
			types[e.Name()] = t
		}
		order(names)
		for _, n := range names {
			c.out.WriteString(decorate(n, types[n]))
			c.out.WriteByte('\n')
		}
		if recursive {
			for _, n := range names {
				if types[n].IsDir() && n != "." && n != ".." {
					list(joinPath(dir, n))
				}
			}
		}
	}
	for _, d := range dirs {
		list(d)
	}
	return status
}
