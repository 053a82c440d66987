package state

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"
	"syscall"

	"github.com/taskctl/taskctl/internal/diag"
)

// An UnsafeError refuses a file or directory of taskctl's own state (the
// index, its lock and caches, the runs, the audit log, under .taskctl/)
// because something stands in its place that taskctl did not make: a
// symbolic link (a cloned repository can commit one pointing anywhere), a
// FIFO, device or socket, a directory, or a file with more than one link
// (writing it would write the file it shares its data with). Its code is
// diag.StateUnsafe.
type UnsafeError struct {
	Path   string // absolute
	Reason string // "not a regular file (a symbolic link)", "a file with 2 links", ...
}

func (e *UnsafeError) Error() string {
	return fmt.Sprintf("%s: %s is %s: refusing to use it for taskctl's state", diag.StateUnsafe, e.Path, e.Reason)
}

// Code returns diag.StateUnsafe.
func (e *UnsafeError) Code() diag.Code { return diag.StateUnsafe }

// A Dir is a directory of taskctl's own state, held open. It is
// reached from its absolute path one component at a time without
// following a symbolic link (Open), so the path must be the
// directory's real path; a symlink on the way (.taskctl or .taskctl/index
// committed as one) is an *UnsafeError. Every file in it is then created,
// replaced, locked, appended to or read relative to the directory's
// descriptor, never through a symbolic link: the name must hold a regular
// file of one link, or nothing, and anything else is an *UnsafeError. What
// is opened is checked (fstat), not only the name, and special files are
// refused before they are opened.
//
// Names are single path components. A Dir is not safe for use after
// Close; its methods are safe for concurrent use.
type Dir struct {
	path string
	fd   int // the directory, opened with O_NOFOLLOW (Unix)
}

// Open opens the directory at path, which must exist and be
// named by its real, absolute path.
func Open(path string) (*Dir, error) { return openDir(path, false) }

// Make is Open, but it first creates the directories of
// path that are missing (mode 0755), each with a ".gitignore" holding "*"
// so that taskctl's state never gets committed.
func Make(path string) (*Dir, error) { return openDir(path, true) }

// Path returns the directory's absolute path.
func (d *Dir) Path() string { return d.path }

// ReadFile reads name if it is a regular file of one link and at most max
// bytes (see ReadRegular).
func (d *Dir) ReadFile(name string, max int64) ([]byte, error) {
	f, err := d.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadRegular(f, max)
}

// WriteFile replaces name with data, as a PendingFile does, without
// syncing it.
func (d *Dir) WriteFile(name string, data []byte, perm fs.FileMode) error {
	p, err := d.Create(name, perm)
	if err != nil {
		return err
	}
	if _, err := p.Write(data); err != nil {
		p.Abort()
		return err
	}
	return p.Commit(false)
}

// pendingName returns the name of a new temporary file for name:
// ".NAME.<12 hex digits>.tmp".
func pendingName(name string) string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return "." + name + "." + hex.EncodeToString(b[:]) + ".tmp"
}

// PendingOf returns the name a temporary file of a PendingFile, named tmp,
// stands for, and whether tmp is such a name: what a killed writer leaves
// behind, for its next writer to remove.
func PendingOf(tmp string) (name string, ok bool) {
	rest, ok := strings.CutPrefix(tmp, ".")
	if !ok {
		return "", false
	}
	rest, ok = strings.CutSuffix(rest, ".tmp")
	if !ok || len(rest) < 14 || rest[len(rest)-13] != '.' {
		return "", false
	}
	if _, err := hex.DecodeString(rest[len(rest)-12:]); err != nil {
		return "", false
	}
	return rest[:len(rest)-13], true
}

// checkName refuses a name that is not a single plain component.
func (d *Dir) checkName(name string) error {
	if name == "" || name == "." || name == ".." || strings.ContainsAny(name, "/\x00") {
		return &fs.PathError{Op: "open", Path: d.path + "/" + name, Err: fs.ErrInvalid}
	}
	return nil
}

// ErrNotRegular is the error (in an *fs.PathError) of ReadRegular for a
// FIFO, a device or a socket, and of every reader of taskctl's for a file
// that must be regular and is not.
var ErrNotRegular = errors.New("not a regular file")

// A TooLargeError is a file over the size cap of ReadRegular.
type TooLargeError struct {
	Path  string
	Size  int64 // what fstat said, or Limit+1 when the file grew past Limit while read
	Limit int64
	Grew  bool // fstat said it fitted, and it grew past Limit while read
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%s is %d bytes, over the %d-byte limit", e.Path, e.Size, e.Limit)
}

// ReadRegular reads the open file f to its end if it is a regular file
// (fstat says so: a FIFO, device or socket is an *fs.PathError holding
// ErrNotRegular, a directory one holding EISDIR) of at most max bytes, as
// fstat says and as read: a larger file, or one that grows past max while
// it is read, is a *TooLargeError, and no more than max+1 bytes are ever
// read. It is the one capped reader of taskctl's own files and of the
// template and configuration files it is given.
func ReadRegular(f fs.File, max int64) ([]byte, error) {
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	name := st.Name()
	if n, ok := f.(interface{ Name() string }); ok {
		name = n.Name()
	}
	switch {
	case st.IsDir():
		return nil, &fs.PathError{Op: "read", Path: name, Err: syscall.EISDIR}
	case !st.Mode().IsRegular():
		return nil, &fs.PathError{Op: "read", Path: name, Err: ErrNotRegular}
	case st.Size() > max:
		return nil, &TooLargeError{Path: name, Size: st.Size(), Limit: max}
	}
	data, err := ReadCapped(f, st.Size(), max)
	if errors.Is(err, ErrTooLarge) {
		return nil, &TooLargeError{Path: name, Size: max + 1, Limit: max, Grew: true}
	}
	return data, err
}

// ErrTooLarge is ReadCapped's error for content past its cap.
var ErrTooLarge = errors.New("file too large")

// ReadCapped reads r to the end, failing with ErrTooLarge past max bytes;
// hint (the stat size) only sizes the first buffer.
func ReadCapped(r io.Reader, hint, max int64) ([]byte, error) {
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
			return nil, ErrTooLarge
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
