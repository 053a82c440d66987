package root

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/taskctl/taskctl/internal/diag"
	"github.com/taskctl/taskctl/state"
)

// A File is a file read through a Root.
type File struct {
	Path    string      // absolute real path
	Rel     string      // relative to the project dir, slash-separated
	Size    int64       // bytes read (not what stat said)
	ModTime time.Time   // from fstat of the descriptor read
	Mode    fs.FileMode // from fstat of the descriptor read
	Content []byte      // the bytes read, binary or not: callers decide what to show
	Binary  bool        // a NUL byte in the first 8 KiB and no UTF-16/UTF-32 byte-order mark
	// Judged is the content policy's verdict (JudgeContent), set by the
	// readers that decide it (project's FS.ReadFile); nil where the caller judges.
	Judged *Content
	// Of a ranged read (FS.ReadRange): Content starts at byte Offset of a
	// file of FileSize bytes, and Cut says the cap cut the range.
	Offset   int64
	FileSize int64
	Cut      bool
	Around   []byte // the range with WindowMargin bytes either side, for the content policy
}

const (
	// OpenFlags are the flags every read opens a file with.
	OpenFlags   = os.O_RDONLY | syscall.O_NONBLOCK | syscall.O_NOCTTY
	binaryProbe = 8 << 10
)

// Read reads the file at path (absolute) from the allowed directory it
// lies in. The file is opened with O_RDONLY|O_NONBLOCK|O_NOCTTY (so a FIFO
// swapped in cannot block and a terminal cannot become the controlling
// one), fstat'ed, and refused unless it is a regular file; its content
// comes from that same descriptor, so a symlink swapped in after the path
// was resolved cannot make Read return bytes from outside the root. The
// size cap is enforced on the bytes actually read. A path that is (or,
// after a swap, has become) a symlink staying inside the root is resolved
// again and opened at its real path; one leading outside is refused.
//
// On Linux the file is opened with openat2(RESOLVE_BENEATH|
// RESOLVE_NO_SYMLINKS) relative to a descriptor of the directory: one
// system call that the kernel confines below it and that refuses every
// symlink, since a real path holds none. A path it declines (a symlink, a
// special or missing file, an error) and a kernel without openat2 take the
// portable way, through the directory's *os.Root, which gives every
// refusal its code.
//
// The name rules (.git/, .taskctl/, Exclude, sensitive names) are checked
// on the path opened, so a path made by hand gets no more than a resolved
// one. The content is returned as read: the content policy is
// JudgeContent's.
func (r *Root) Read(path string) (*File, *diag.Warning) { return r.ReadInto(path, nil) }

// ReadInto is Read with the content read into buf when the file fits in
// its capacity: a caller reading many files one after another (an index
// build) reuses one buffer instead of allocating each file afresh. The
// File's Content then shares buf's array.
func (r *Root) ReadInto(path string, buf []byte) (*File, *diag.Warning) {
	path, d, rel, w := r.target(path)
	if w != nil {
		return nil, w
	}
	return r.readAt(d, path, rel, path, buf, nil)
}

// ReadResolved is Read for a path resolution just made (real, clean and
// inside an allowed directory), so the input is not checked again; with
// win, only that part of the file is read (see Window).
func (r *Root) ReadResolved(path string, win *Window) (*File, *diag.Warning) {
	d, rel := r.DirOf(path)
	if d == nil {
		return nil, warnf(diag.PathOutsideProject, path, "outside the project dir %s", r.Dir())
	}
	return r.readAt(d, path, rel, path, nil, win)
}

// readAt reads path (rel in d): openat2 beneath the directory, else
// through its *os.Root. A ranged read (win not nil) takes readRoot's way,
// whose open is the same openat2 beneath the directory where the kernel
// has it.
func (r *Root) readAt(d *Dir, path, rel, given string, buf []byte, win *Window) (*File, *diag.Warning) {
	if win == nil {
		if f, w, ok := r.readBeneath(d, path, rel, given, buf); ok {
			return f, w
		}
	}
	return r.readRoot(d, path, rel, given, win)
}

// target checks a path given to Read and finds the allowed directory it
// lies in: it returns the path cleaned, the directory, and the path
// relative to it.
func (r *Root) target(path string) (string, *Dir, string, *diag.Warning) {
	if !filepath.IsAbs(path) {
		return "", nil, "", warnf(diag.PathInvalid, path, "candidate path %s is not absolute", Quote(path))
	}
	if msg := CheckInput(path); msg != "" {
		return "", nil, "", warnf(diag.PathInvalid, path, "%s: %s", Quote(path), msg)
	}
	path = filepath.Clean(path)
	d, rel := r.DirOf(path)
	if d == nil {
		return "", nil, "", warnf(diag.PathOutsideProject, path, "outside the project dir %s", r.Dir())
	}
	return path, d, rel, nil
}

// resolveLink resolves rel in d, which is a symbolic link now, to the
// real path it leads to inside an allowed directory: one answer for every
// path that leads outside, whatever is there, and the target never named.
func (r *Root) resolveLink(d *Dir, rel string) (string, *Dir, string, *diag.Warning) {
	lexical := filepath.Join(d.path, filepath.FromSlash(rel))
	real, err := r.Eval(lexical)
	if err == nil {
		if d2, rel2 := r.DirOf(real); d2 != nil {
			return real, d2, rel2, nil
		}
	} else if d2, _ := r.DirOf(filepath.Clean(real)); d2 != nil {
		code, msg := ClassifyErr(err)
		return "", nil, "", warnf(code, lexical, "%s", msg)
	}
	return "", nil, "", warnf(diag.PathOutsideProject, lexical, "%s is outside the project dir %s", Quote(rel), r.Dir())
}

// readRoot reads path, rel in r, through the root's *os.Root: the portable
// way, and the authority on every refusal. What it judges is what it opens:
// a path that is a symlink now, or whose directory holds one (swapped in
// since it was resolved, or a path made by hand), is resolved again and
// judged by its real path, as the *os.Root would follow a link in a
// directory while it stays inside (into .git/, say);
// special files are refused on lstat, before any open; the last component
// is opened with O_NOFOLLOW and the descriptor must be the file lstat saw
// (os.SameFile), so a symlink or FIFO swapped in between is refused.
func (r *Root) readRoot(d *Dir, path, rel, given string, win *Window) (*File, *diag.Warning) {
	st, err := d.os.Lstat(rel)
	if err == nil && (st.Mode()&fs.ModeSymlink != 0 || linkedDir(d, rel)) {
		var w *diag.Warning
		if path, d, rel, w = r.resolveLink(d, rel); w != nil {
			return nil, w
		}
		st, err = d.os.Lstat(rel)
	}
	if err != nil {
		code, msg := ClassifyErr(err)
		if IsEscape(err) {
			code, msg = diag.PathOutsideProject, "outside the project dir "+r.Dir()
		}
		return nil, warnf(code, path, "%s", msg)
	}
	if w := FileKind(path, st.Mode()); w != nil {
		return nil, w // special files are never opened
	}
	if _, w := r.CheckName(path, rel, given); w != nil {
		return nil, w
	}
	f, fst, err := d.openSame(rel, st)
	if err != nil {
		code, msg := ClassifyErr(err)
		switch {
		case errors.Is(err, ErrSwapped):
			code, msg = diag.PathUnreadable, "changed while it was read (another file was swapped in)"
		case errors.Is(err, errLink) || errors.Is(err, ErrOutside) || errors.Is(err, syscall.ELOOP):
			code, msg = diag.PathUnreadable, "changed while it was read (a symbolic link was swapped in)"
		case IsEscape(err):
			code, msg = diag.PathOutsideProject, "outside the project dir "+r.Dir()
		}
		return nil, warnf(code, path, "%s", msg)
	}
	defer f.Close()
	max := r.policy.MaxFileBytes
	if win != nil {
		return WindowFile(f, path, r.Rel(path), fst, win, max)
	}
	if fst.Size() > max {
		return nil, warnf(diag.FileTooLarge, path, "%d bytes, over the %d-byte cap", fst.Size(), max)
	}
	data, err := ReadCapped(f, fst.Size(), max)
	if err != nil {
		if errors.Is(err, ErrTooLarge) {
			return nil, warnf(diag.FileTooLarge, path, "grew past the %d-byte cap while read", max)
		}
		code, msg := ClassifyErr(err)
		return nil, warnf(code, path, "%s", msg)
	}
	file := &File{Path: path, Rel: r.Rel(path), Size: int64(len(data)), ModTime: fst.ModTime(), Mode: fst.Mode(),
		Content: data, Binary: IsBinary(data)}
	return file, nil
}

// openSame opens rel in d (openNoFollow: no symbolic link on the way
// where openat2 serves, else none as the last component) and holds it to
// want, what an lstat of rel said: ErrSwapped when another file was
// opened. It is the portable open, readRoot's and the commands' where
// openat2 cannot serve (openNoLinksPortable).
func (d *Dir) openSame(rel string, want fs.FileInfo) (*os.File, fs.FileInfo, error) {
	f, err := d.openNoFollow(rel)
	if err != nil {
		return nil, nil, err
	}
	fst, err := f.Stat()
	if err == nil && !os.SameFile(want, fst) {
		err = ErrSwapped
	}
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, fst, nil
}

// linkedDir reports whether the directory part of rel (in d) holds a
// symbolic link, or may.
func linkedDir(d *Dir, rel string) bool {
	i := strings.LastIndexByte(rel, '/')
	return i > 0 && d.dirHasLinks(rel[:i])
}

// ErrTooLarge is ReadCapped's error for content past its cap (see
// state.ErrTooLarge).
var ErrTooLarge = state.ErrTooLarge

// ReadCapped reads r to the end, failing with ErrTooLarge past max bytes
// (see state.ReadCapped).
func ReadCapped(r io.Reader, hint, max int64) ([]byte, error) { return state.ReadCapped(r, hint, max) }

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

// IsEscape reports os.Root's "path escapes from parent" refusal, which has
// no exported sentinel.
func IsEscape(err error) bool {
	var pe *fs.PathError
	return errors.As(err, &pe) && pe.Err != nil && pe.Err.Error() == "path escapes from parent"
}

// FileKind refuses what is not a regular file: PATH_IS_DIR for a
// directory, PATH_SPECIAL_FILE (never opened) for the rest; nil for a
// regular file. real names it in the warning.
func FileKind(real string, m fs.FileMode) *diag.Warning {
	switch {
	case m.IsRegular():
		return nil
	case m.IsDir():
		return warnf(diag.PathIsDir, real, "is a directory")
	}
	return warnf(diag.PathSpecialFile, real, "special file (%s): never opened", KindName(m))
}

// KindName names the type of a special file.
func KindName(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "FIFO"
	case m&fs.ModeSocket != 0:
		return "socket"
	case m&fs.ModeCharDevice != 0:
		return "character device"
	case m&fs.ModeDevice != 0:
		return "device"
	}
	return m.Type().String()
}

// ErrNotRegular is the error for a file that must be regular and is not
// (see state.ErrNotRegular).
var ErrNotRegular = state.ErrNotRegular
