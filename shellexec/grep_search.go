package shellexec

import (
	"bytes"
	"errors"
	"strconv"
)

func (g *grepRun) searchFile(path, shown string) {
	if err := g.c.fs.refused(g.c.dir, path, false); err != nil {
		if !g.o.recursive {
			g.fileErr(shown, err)
		}
		return // grep -r passes over a file the policy keeps from it
	}
	data, err := g.c.fs.readFile(g.c.dir, path)
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

// discard is a byteWriter that keeps nothing.
type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

func (discard) WriteString(s string) (int, error) { return len(s), nil }

func (discard) WriteByte(byte) error { return nil }

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
	c := g.c
	sep := byte('\n')
	if o.nulData {
		sep = 0
	}
	listOnly := o.filesWith || o.filesWithout || o.quiet
	// Binary files only change how lines are printed (and -I).
	binary := !o.text && !o.nulData && (!listOnly && !o.count || o.skipBinary) && bytes.IndexByte(data, 0) >= 0
	if binary && o.skipBinary {
		return false
	}
	var count int64
	lastLineNo, lastOff := 1, 0
	lineNumber := func(off int) int {
		lastLineNo += bytes.Count(data[lastOff:off], []byte{sep})
		lastOff = off
		return lastLineNo
	}
	emit := func(start, end int) bool {
		count++
		if listOnly {
			return false
		}
		if o.count {
			return o.maxCount < 0 || count < o.maxCount
		}
		if binary {
			c.errorf("%s: binary file matches", name)
			return false
		}
		line := data[start:end]
		if o.onlyMatch {
			if o.invert {
				return o.maxCount < 0 || count < o.maxCount
			}
			n := 0
			if o.lineNum {
				n = lineNumber(start)
			}
			for _, m := range g.m.all(line) {
				g.prefix(w, name, n)
				w.Write(line[m[0]:m[1]])
				w.WriteByte(sep)
			}
		} else {
			if o.lineNum {
				g.prefix(w, name, lineNumber(start))
			} else {
				g.prefix(w, name, 0)
			}
			w.Write(line)
			w.WriteByte(sep)
		}
		return (o.maxCount < 0 || count < o.maxCount) && c.ctx.Err() == nil
	}
	if !o.invert {
		for from := 0; from < len(data); {
			start, end := g.m.next(data, from, sep)
			if start < 0 {
				break
			}
			if !emit(start, end) {
				break
			}
			from = end + 1
			if c.ctx.Err() != nil {
				return count > 0
			}
		}
	} else {
		for start := 0; start < len(data); {
			end := bytes.IndexByte(data[start:], sep)
			if end < 0 {
				end = len(data)
			} else {
				end += start
			}
			if !g.m.match(data[start:end]) {
				if !emit(start, end) {
					break
				}
			}
			start = end + 1
		}
	}
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
	return count > 0
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
