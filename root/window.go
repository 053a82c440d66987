package root

import (
	"bytes"
	"io"
	"io/fs"
	"os"

	"github.com/taskctl/taskctl/internal/diag"
)

// A Window is the part of a file a ranged read returns: Head lines from
// line FromLine (1-based; 0 or 1: the first), the last Tail lines, or
// Length bytes from Offset (Length 0: to the end). Exactly one of Head, Tail and the byte range is used. A ranged
// read works on files over Policy.MaxFileBytes: it reads only the part it
// returns (and, for Head and Tail, what it scans to find the lines), and
// returns at most MaxFileBytes of it (File.Cut says it was cut).
type Window struct {
	Head     int
	FromLine int // with Head: the range's first line
	Tail     int
	Offset   int64
	Length   int64
}

// windowChunk is how much a line scan reads at once.
const windowChunk = 64 << 10

// WindowMargin is how far around a range its bytes are read too, for the
// content policy alone (File.Around): a secret cut by the range's edge is
// not found in the range, so the range is refused when its surroundings
// hold a secret it does not (a key is never read a piece at a time).
const WindowMargin = 16 << 10

// readWindow reads w of ra, a file of size bytes, at most max bytes of
// it: it returns the bytes with WindowMargin bytes either side (around),
// where the range starts in around (at) and in the file (start), and
// whether max cut the range.
func readWindow(ra io.ReaderAt, size int64, w *Window, max int64) (around []byte, at int, start, end int64, cut bool, err error) {
	switch {
	case w.Head > 0:
		// The scan for the first line has no byte limit: only what it
		// returns is capped.
		if w.FromLine > 1 {
			start, err = headEnd(ra, 0, size, w.FromLine-1, size)
		}
		if err == nil {
			end, err = headEnd(ra, start, size, w.Head, max)
		}
	case w.Tail > 0:
		end = size
		start, err = tailStart(ra, size, w.Tail, max)
	default:
		start, end = min(w.Offset, size), size
		if w.Length > 0 && w.Offset+w.Length < size {
			end = w.Offset + w.Length
		}
	}
	if err != nil {
		return nil, 0, 0, 0, false, err
	}
	if end-start > max {
		cut = true
		if w.Tail > 0 {
			start = end - max // the last bytes of the tail
		} else {
			end = start + max
		}
	}
	lo, hi := max64(0, start-WindowMargin), min(size, end+WindowMargin)
	data := make([]byte, hi-lo)
	n, err := ra.ReadAt(data, lo)
	if err != nil && err != io.EOF {
		return nil, 0, 0, 0, false, err
	}
	data = data[:n]
	// The file may have shrunk since its size was taken.
	end = min(end, lo+int64(n))
	start = min(start, end)
	return data, int(start - lo), start, end, cut, nil
}

// headEnd is where the first n lines of ra from byte from end: after the
// n-th newline, or at the end of the file; the scan stops past max bytes
// from from.
func headEnd(ra io.ReaderAt, from, size int64, n int, max int64) (int64, error) {
	buf := make([]byte, windowChunk)
	for pos := from; pos < size && pos-from <= max; {
		m, err := ra.ReadAt(buf[:min(int64(len(buf)), size-pos)], pos)
		if m == 0 && err != nil {
			if err == io.EOF {
				break
			}
			return 0, err
		}
		for i := 0; i < m; {
			j := bytes.IndexByte(buf[i:m], '\n')
			if j < 0 {
				break
			}
			i += j + 1
			if n--; n == 0 {
				return pos + int64(i), nil
			}
		}
		pos += int64(m)
	}
	return size, nil
}

// tailStart is where the last n lines of ra start: after the newline
// before them (a last line without a newline counts), or at 0; the scan
// stops past max bytes from the end.
func tailStart(ra io.ReaderAt, size int64, n int, max int64) (int64, error) {
	if size == 0 {
		return 0, nil
	}
	pos := size
	var last [1]byte
	if _, err := ra.ReadAt(last[:], size-1); err != nil && err != io.EOF {
		return 0, err
	}
	if last[0] == '\n' {
		pos-- // the final newline ends the last line, it does not start one
	}
	buf := make([]byte, windowChunk)
	for pos > 0 && size-pos <= max {
		lo := max64(0, pos-windowChunk)
		m, err := ra.ReadAt(buf[:pos-lo], lo)
		if err != nil && err != io.EOF {
			return 0, err
		}
		for i := m - 1; i >= 0; i-- {
			if buf[i] == '\n' {
				if n--; n == 0 {
					return lo + int64(i) + 1, nil
				}
			}
		}
		pos = lo
	}
	return pos, nil
}

func max64(a, b int64) int64 {
	if a > b {
		return a
	}
	return b
}

// WindowFile reads win of f, the regular file fst describes (path, rel),
// at most max bytes of it.
func WindowFile(f *os.File, path, rel string, fst fs.FileInfo, win *Window, max int64) (*File, *diag.Warning) {
	around, at, start, end, cut, err := readWindow(f, fst.Size(), win, max)
	if err != nil {
		code, msg := ClassifyErr(&fs.PathError{Op: "read", Path: path, Err: err})
		return nil, warnf(code, path, "%s", msg)
	}
	data := around[at : at+int(end-start)]
	return &File{Path: path, Rel: rel, Size: int64(len(data)), ModTime: fst.ModTime(), Mode: fst.Mode(),
		Content: data, Binary: IsBinary(data), Offset: start, FileSize: fst.Size(), Cut: cut, Around: around}, nil
}
