package shellexec

import (
	"bytes"
	"context"
	"errors"
	"io"
	"sort"
	"sync"
)

// errCapped is returned by writers once an output cap is hit.
var errCapped = errors.New("output cap exceeded")

// budget counts bytes and lines written to the top-level stdout and to
// every $(...) buffer; crossing a limit cancels the run.
type budget struct {
	mu       sync.Mutex
	maxBytes int64
	maxLines int64
	bytes    int64
	lines    int64
	hit      bool
	cancel   context.CancelCauseFunc
}

// take reserves room for p and returns how many bytes of p fit.
func (b *budget) take(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.hit {
		return 0, errCapped
	}
	n := len(p)
	if room := b.maxBytes - b.bytes; int64(n) > room {
		n = int(room)
		b.hit = true
	}
	// Count lines; stop right after the line that reaches the limit.
	if b.lines >= b.maxLines && n > 0 {
		n = 0
		b.hit = true
	}
	for i := 0; i < n; i++ {
		if p[i] == '\n' || p[i] == 0 {
			b.lines++
			if b.lines >= b.maxLines && i+1 < n {
				n = i + 1
				b.hit = true
				break
			}
		}
	}
	b.bytes += int64(n)
	if b.hit {
		b.cancel(errTruncated)
		return n, errCapped
	}
	return n, nil
}

// sink is the script's top-level standard output. Each command writes to
// it through a dirWriter, so the sink knows which directory each record
// is relative to.
type sink struct {
	budget *budget
	mu     sync.Mutex
	buf    bytes.Buffer
	marks  []mark
}

type mark struct {
	off int
	dir string
}

// Write is used by interpreter builtins that print without a command
// context; their records fall back to Config.Dir.
func (s *sink) Write(p []byte) (int, error) { return s.write(p, "") }

func (s *sink) write(p []byte, dir string) (int, error) {
	n, err := s.budget.take(p)
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.marks) == 0 || s.marks[len(s.marks)-1].dir != dir {
		s.marks = append(s.marks, mark{off: s.buf.Len(), dir: dir})
	}
	s.buf.Write(p[:n])
	return n, err
}

// records splits the sink into records, each with the directory of the
// command that wrote its first byte.
func (s *sink) records(nul bool, fallback string) []Record {
	s.mu.Lock()
	defer s.mu.Unlock()
	sep := byte('\n')
	if nul {
		sep = 0
	}
	data := s.buf.Bytes()
	var recs []Record
	for start := 0; start < len(data); {
		end := bytes.IndexByte(data[start:], sep)
		next := 0
		if end < 0 {
			end = len(data)
			next = end
		} else {
			end += start
			next = end + 1
		}
		text := data[start:end]
		if nul {
			// Tolerate a newline printed after NUL records (echo at the end).
			text = bytes.Trim(text, "\n")
		} else {
			// A CRLF line (a file list written on Windows, cat of it) ends
			// at the CR, as bufio.ScanLines has it: no path ends in a
			// carriage return (one that did would be refused anyway), and
			// every path of such a list was refused as "holds control
			// character U+000D".
			text = bytes.TrimSuffix(text, []byte("\r"))
		}
		if len(text) > 0 {
			dir := fallback
			i := sort.Search(len(s.marks), func(i int) bool { return s.marks[i].off > start }) - 1
			if i >= 0 && s.marks[i].dir != "" {
				dir = s.marks[i].dir
			}
			recs = append(recs, Record{Text: string(text), Dir: dir})
		}
		start = next
	}
	return recs
}

// dirWriter tags a command's writes to the sink with its directory.
type dirWriter struct {
	s   *sink
	dir string
}

func (w dirWriter) Write(p []byte) (int, error) { return w.s.write(p, w.dir) }

// countingWriter charges writes into a $(...) buffer to the budget.
type countingWriter struct {
	b *budget
	w io.Writer
}

func (w countingWriter) Write(p []byte) (int, error) {
	n, err := w.b.take(p)
	if n > 0 {
		if _, werr := w.w.Write(p[:n]); werr != nil {
			return 0, werr
		}
	}
	return n, err
}

// limitedBuffer keeps the first max bytes and silently drops the rest.
type limitedBuffer struct {
	mu  sync.Mutex
	max int
	buf bytes.Buffer
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if room := b.max - b.buf.Len(); room > 0 {
		if len(p) > room {
			b.buf.Write(p[:room])
		} else {
			b.buf.Write(p)
		}
	}
	return len(p), nil
}
