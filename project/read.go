package project

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"github.com/taskctl/taskctl/internal/diag"
)

// A File is a file read through the project's root.
type File struct {
	Path    string      // absolute real path
	Rel     string      // relative to the project dir, slash-separated
	Size    int64       // bytes read (not what stat said)
	ModTime time.Time   // from fstat of the descriptor read
	Mode    fs.FileMode // from fstat of the descriptor read
	Content []byte      // the bytes read, binary or not: callers decide what to show
	Binary  bool        // a NUL byte in the first 8 KiB and no UTF-16/UTF-32 byte-order mark
	// Judged is the content policy's verdict (JudgeContent), set by the
	// readers that decide it (FS.ReadFile); nil where the caller judges.
	Judged *Content
	// Of a ranged read (FS.ReadRange): Content starts at byte Offset of a
	// file of FileSize bytes, and Cut says the cap cut the range.
	Offset   int64
	FileSize int64
	Cut      bool
	Around   []byte // the range with WindowMargin bytes either side, for the content policy
}

const (
	openFlags   = os.O_RDONLY | syscall.O_NONBLOCK | syscall.O_NOCTTY
	binaryProbe = 8 << 10
)

// Read reads a candidate from the allowed root its path lies in. The file
// is opened with O_RDONLY|O_NONBLOCK|O_NOCTTY (so a FIFO swapped in cannot
// block and a terminal cannot become the controlling one), fstat'ed, and
// refused unless it is a regular file; its content comes from that same
// descriptor, so a symlink swapped in after the candidate was resolved
// cannot make Read return bytes from outside the root. The size cap is
// enforced on the bytes actually read. A path that is (or, after a swap,
// has become) an absolute symlink staying inside the root is resolved again
// and opened at its real path; one leading outside is refused.
//
// On Linux the file is opened with openat2(RESOLVE_BENEATH|
// RESOLVE_NO_SYMLINKS) relative to a descriptor of the root: one system
// call that the kernel confines below the root and that refuses every
// symlink, since a real path holds none. A path it declines (a symlink, a
// special or missing file, an error) and a kernel without openat2 take the
// portable way, through the root's *os.Root, which gives every refusal its
// code.
//
// The name rules (.git/, .taskctl/, Exclude, sensitive names) are checked
// again, so a Candidate made by hand gets no more than one from Expand.
func (p *Project) Read(c Candidate) (*File, *diag.Warning) { return p.ReadInto(c, nil) }

// ReadInto is Read with the content read into buf when the file fits in
// its capacity: a caller reading many files one after another (an index
// build) reuses one buffer instead of allocating each file afresh. The
// File's Content then shares buf's array.
func (p *Project) ReadInto(c Candidate, buf []byte) (*File, *diag.Warning) {
	path, r, rel, w := p.readTarget(c)
	if w != nil {
		return nil, w
	}
	return p.readAt(r, path, rel, c.Path, buf, nil)
}

// readResolved is Read for a candidate ResolveFrom (or resolveChecked)
// just made: its path is real, clean and inside a root, so the input is
// not checked again.
func (p *Project) readResolved(c Candidate, win *Window) (*File, *diag.Warning) {
	r, rel := p.rootOf(c.Path)
	if r == nil {
		return nil, warnf(diag.PathOutsideProject, c.Path, "outside the project dir %s", p.dir)
	}
	return p.readAt(r, c.Path, rel, c.Path, nil, win)
}

// readAt reads path (rel in r): openat2 beneath the root, else through
// the root's *os.Root. A ranged read (win not nil) takes readRoot's way,
// whose open is the same openat2 beneath the root where the kernel has it.
func (p *Project) readAt(r *rootDir, path, rel, given string, buf []byte, win *Window) (*File, *diag.Warning) {
	if win == nil {
		if f, w, ok := p.readBeneath(r, path, rel, given, buf); ok {
			return f, w
		}
	}
	return p.readRoot(r, path, rel, given, win)
}

// readTarget checks a candidate's path and finds the allowed root it lies
// in: it returns the path cleaned, the root, and the path relative to it.
func (p *Project) readTarget(c Candidate) (string, *rootDir, string, *diag.Warning) {
	path := c.Path
	if !filepath.IsAbs(path) {
		return "", nil, "", warnf(diag.PathInvalid, path, "candidate path %s is not absolute", quote(path))
	}
	if msg := checkInput(path); msg != "" {
		return "", nil, "", warnf(diag.PathInvalid, path, "%s: %s", quote(path), msg)
	}
	path = filepath.Clean(path)
	r, rel := p.rootOf(path)
	if r == nil {
		return "", nil, "", warnf(diag.PathOutsideProject, path, "outside the project dir %s", p.dir)
	}
	return path, r, rel, nil
}

// readRoot reads path, rel in r, through the root's *os.Root: the portable
// way, and the authority on every refusal. What it judges is what it opens:
// a path that is a symlink now (swapped in since it was resolved, or a
// Candidate made by hand) is resolved again and judged by its real path;
// special files are refused on lstat, before any open; the last component
// is opened with O_NOFOLLOW and the descriptor must be the file lstat saw
// (os.SameFile), so a symlink or FIFO swapped in between is refused.
func (p *Project) readRoot(r *rootDir, path, rel, given string, win *Window) (*File, *diag.Warning) {
	st, err := r.root.Lstat(rel)
	if err == nil && st.Mode()&fs.ModeSymlink != 0 {
		res, w := p.resolve(r.dir, rel)
		if w != nil {
			return nil, w
		}
		path, r, rel = res.real, res.root, res.rel
		st, err = r.root.Lstat(rel)
	}
	if err != nil {
		code, msg := classifyErr(err)
		if isEscape(err) {
			code, msg = diag.PathOutsideProject, "outside the project dir "+p.dir
		}
		return nil, warnf(code, path, "%s", msg)
	}
	res := &resolved{real: path, root: r, rel: rel, info: st}
	if w := fileKind(res); w != nil {
		return nil, w // special files are never opened
	}
	if w := p.checkName(res, given); w != nil {
		return nil, w
	}
	f, err := r.openNoFollow(rel)
	if err != nil {
		code, msg := classifyErr(err)
		if errors.Is(err, syscall.ELOOP) || errors.Is(err, syscall.EXDEV) {
			code, msg = diag.PathUnreadable, "changed while it was read (a symbolic link was swapped in)"
		}
		if isEscape(err) {
			code, msg = diag.PathOutsideProject, "outside the project dir "+p.dir
		}
		return nil, warnf(code, path, "%s", msg)
	}
	defer f.Close()
	fst, err := f.Stat()
	if err != nil {
		code, msg := classifyErr(err)
		return nil, warnf(code, path, "%s", msg)
	}
	if !os.SameFile(st, fst) {
		return nil, warnf(diag.PathUnreadable, path, "changed while it was read (another file was swapped in)")
	}
	max := p.policy.MaxFileBytes
	if win != nil {
		return windowFile(f, path, p.relToProject(path), fst, win, max)
	}
	if fst.Size() > max {
		return nil, warnf(diag.FileTooLarge, path, "%d bytes, over the %d-byte cap", fst.Size(), max)
	}
	data, err := readCapped(f, fst.Size(), max)
	if err != nil {
		if errors.Is(err, errTooLarge) {
			return nil, warnf(diag.FileTooLarge, path, "grew past the %d-byte cap while read", max)
		}
		code, msg := classifyErr(err)
		return nil, warnf(code, path, "%s", msg)
	}
	file := &File{Path: path, Rel: p.relToProject(path), Size: int64(len(data)), ModTime: fst.ModTime(), Mode: fst.Mode(),
		Content: data, Binary: IsBinary(data)}
	return file, nil
}

var errTooLarge = errors.New("file too large")

// readCapped reads r to the end, failing with errTooLarge past max bytes;
// hint (the stat size) only sizes the first buffer.
func readCapped(r io.Reader, hint, max int64) ([]byte, error) {
	if hint < 0 || hint > max {
		hint = max
	}
	buf := make([]byte, 0, hint+1)
	lr := io.LimitReader(r, max+1)
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := lr.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if int64(len(buf)) > max {
			return nil, errTooLarge
		}
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			if errors.Is(err, syscall.EAGAIN) {
				return nil, &fs.PathError{Op: "read", Err: err}
			}
			return nil, err
		}
	}
}

// IsBinary reports whether data looks binary: a NUL byte in its first 8 KiB,
// unless it starts with a UTF-16 or UTF-32 byte-order mark (such text is full
// of NULs).
func IsBinary(data []byte) bool {
	switch {
	case bytes.HasPrefix(data, []byte{0xff, 0xfe}), bytes.HasPrefix(data, []byte{0xfe, 0xff}),
		bytes.HasPrefix(data, []byte{0, 0, 0xfe, 0xff}):
		return false
	}
	if len(data) > binaryProbe {
		data = data[:binaryProbe]
	}
	return bytes.IndexByte(data, 0) >= 0
}

// isEscape reports os.Root's "path escapes from parent" refusal, which has
// no exported sentinel.
func isEscape(err error) bool {
	var pe *fs.PathError
	return errors.As(err, &pe) && pe.Err != nil && pe.Err.Error() == "path escapes from parent"
}
