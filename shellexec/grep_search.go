package shellexec

import (
	"bytes"
	"errors"
	"strconv"
)

func (g *grepRun) searchFile(path, shown string) {
	held := g.c.held
	defer func() { g.c.uncharge(g.c.held - held) }()
	data, err := g.c.readInput(path)
	if isRefused(err) && g.o.recursive {
		return // grep -r passes over a file the policy keeps from it
	}
	if err != nil {
		if errors.Is(err, errNotRegular) && g.o.recursive {
			return // devices and FIFOs are skipped under -r
		}
		g.fileErr(shown, err)
		return
	}
	if g.search(g.c.out, shown, data) {
		g.matched = true
	}
}

// byteWriter is what search writes to: the command's output, or a
// per-file buffer when files are searched in parallel.
type byteWriter interface {
	Write([]byte) (int, error)
	WriteString(string) (int, error)
	WriteByte(byte) error
}

// search runs the matcher over one file's contents, writing to w, and
// reports whether a line was selected. It is safe for concurrent use.
func (g *grepRun) search(w byteWriter, name string, data []byte) bool {
	o := &g.o
	s := fileSearch{g: g, w: w, name: name, data: data, sep: '\n', lastLineNo: 1}
	if o.nulData {
		s.sep = 0
	}
	s.listOnly = o.filesWith || o.filesWithout || o.quiet
	// Binary files only change how lines are printed (and -I).
	s.binary = !o.text && !o.nulData && (!s.listOnly && !o.count || o.skipBinary) && bytes.IndexByte(data, 0) >= 0
	if s.binary && o.skipBinary {
		return false
	}
	if o.invert {
		s.scanInverted()
	} else if !s.scanMatches() {
		return s.count > 0 // cancelled
	}
	g.summarize(w, name, s.count)
	return s.count > 0
}

// fileSearch is the search of one file's contents.
type fileSearch struct {
	g                *grepRun
	w                byteWriter
	name             string
	data             []byte
	sep              byte // the line terminator
	listOnly, binary bool
	count            int64 // selected lines so far

	lastLineNo, lastOff int // the number of the line at lastOff
}

// scanMatches selects the lines the matcher finds; it returns false when
// the run was cancelled.
func (s *fileSearch) scanMatches() bool {
	for from := 0; from < len(s.data); {
		start, end := s.g.m.next(s.data, from, s.sep)
		if start < 0 {
			if s.g.m.cancelled() {
				return false
			}
			break
		}
		if !s.emit(start, end) {
			break
		}
		from = end + 1
		if s.g.c.ctx.Err() != nil {
			return false
		}
	}
	return true
}

// scanInverted selects the lines the matcher does not match (-v).
func (s *fileSearch) scanInverted() {
	data, sep := s.data, s.sep
	for start := 0; start < len(data); {
		end := bytes.IndexByte(data[start:], sep)
		if end < 0 {
			end = len(data)
		} else {
			end += start
		}
		if !s.g.m.match(data[start:end]) {
			if !s.emit(start, end) {
				break
			}
		}
		start = end + 1
	}
}

// lineNumber returns the number of the line starting at off, counting on
// from the last one asked.
func (s *fileSearch) lineNumber(off int) int {
	s.lastLineNo += bytes.Count(s.data[s.lastOff:off], []byte{s.sep})
	s.lastOff = off
	return s.lastLineNo
}

// emit counts the selected line data[start:end] and prints it (or its
// matches, with -o) as the options say; it returns false when the search
// of this file is over.
func (s *fileSearch) emit(start, end int) bool {
	g, o, w := s.g, &s.g.o, s.w
	s.count++
	if s.listOnly {
		return false
	}
	if o.count {
		return o.maxCount < 0 || s.count < o.maxCount
	}
	if s.binary {
		g.c.errorf("%s: binary file matches", s.name)
		return false
	}
	line := s.data[start:end]
	if o.onlyMatch {
		if o.invert {
			return o.maxCount < 0 || s.count < o.maxCount
		}
		n := 0
		if o.lineNum {
			n = s.lineNumber(start)
		}
		g.m.each(line, func(from, to int) bool {
			g.prefix(w, s.name, n)
			w.Write(line[from:to])
			w.WriteByte(s.sep)
			return !g.c.writeErr()
		})
	} else {
		if o.lineNum {
			g.prefix(w, s.name, s.lineNumber(start))
		} else {
			g.prefix(w, s.name, 0)
		}
		w.Write(line)
		w.WriteByte(s.sep)
	}
	return (o.maxCount < 0 || s.count < o.maxCount) && g.c.ctx.Err() == nil
}

// summarize prints what -l, -L and -c print for a file once it is
// searched.
func (g *grepRun) summarize(w byteWriter, name string, count int64) {
	o := &g.o
	switch {
	case o.quiet:
	case o.filesWith:
		if count > 0 {
			g.printName(w, name)
		}
	case o.filesWithout:
		if count == 0 {
			g.printName(w, name)
		}
	case o.count:
		if count == 0 && g.c.name == "git grep" {
			break // git grep -c leaves out files without a match
		}
		if g.names {
			w.WriteString(name)
			g.nameSep(w)
		}
		w.WriteString(strconv.FormatInt(count, 10))
		w.WriteByte('\n')
	}
}

func (g *grepRun) printName(w byteWriter, name string) {
	w.WriteString(name)
	if g.o.nulName {
		w.WriteByte(0)
	} else {
		w.WriteByte('\n')
	}
}

func (g *grepRun) nameSep(w byteWriter) {
	if g.o.nulName {
		w.WriteByte(0)
	} else {
		w.WriteByte(':')
	}
}

func (g *grepRun) prefix(w byteWriter, name string, lineNo int) {
	if g.names {
		w.WriteString(name)
		g.nameSep(w)
	}
	if lineNo > 0 {
		w.WriteString(strconv.Itoa(lineNo))
		w.WriteByte(':')
	}
}
