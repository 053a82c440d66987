package root

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"strings"
	"syscall"
)

// MaxCommandFile bounds one file a command reads into memory whole,
// whatever the policy's cap (which the content policy applies to what a
// command is shown).
const MaxCommandFile = 256 << 20

// A Dirent is a directory entry as a Handle lists it: its name and type
// bits (as lstat gives).
type Dirent struct {
	name string
	typ  fs.FileMode
}

// Name returns the entry's name.
func (e Dirent) Name() string { return e.name }

// Type returns the entry's type bits.
func (e Dirent) Type() fs.FileMode { return e.typ }

// ReadOpened reads the whole regular file fh, which a command opened, in
// as few reads as its size allows, at most MaxCommandFile bytes, into buf
// when it fits; shown names it in errors.
func ReadOpened(fh *os.File, shown string, buf []byte) ([]byte, error) {
	fi, err := fh.Stat()
	if err != nil {
		return nil, CommandPathError("read", shown, err)
	}
	if fi.IsDir() {
		return nil, &fs.PathError{Op: "read", Path: shown, Err: syscall.EISDIR}
	}
	if !fi.Mode().IsRegular() {
		return nil, &fs.PathError{Op: "open", Path: shown, Err: ErrNotRegular}
	}
	size := fi.Size()
	if size > MaxCommandFile {
		return nil, &fs.PathError{Op: "read", Path: shown, Err: errors.New("file too large")}
	}
	if int64(cap(buf)) < size+1 {
		buf = make([]byte, size+1, max(size+1, 64<<10))
	}
	buf = buf[:cap(buf)]
	n := 0
	for {
		m, err := fh.Read(buf[n:])
		n += m
		if err == io.EOF || m == 0 && err == nil {
			break
		}
		// Stop at the size fstat reported instead of spending a read on
		// EOF, as a file that grows meanwhile is read as of the fstat.
		if err == nil && int64(n) == size && size > 0 {
			break
		}
		if err != nil {
			return nil, CommandPathError("read", shown, err)
		}
		if n == len(buf) {
			if int64(n) > MaxCommandFile {
				return nil, &fs.PathError{Op: "read", Path: shown, Err: errors.New("file too large")}
			}
			buf = append(buf, make([]byte, len(buf))...)
			buf = buf[:cap(buf)]
		}
	}
	return buf[:n], nil
}

// CommandPathError is err as a command reports it: an *fs.PathError of op
// on name holding the innermost cause, and os.Root's "path escapes from
// parent" as ErrOutside.
func CommandPathError(op, name string, err error) error {
	if pe, ok := errors.AsType[*fs.PathError](err); ok {
		err = pe.Err
	}
	if strings.Contains(err.Error(), "escapes") {
		err = ErrOutside
	}
	return &fs.PathError{Op: op, Path: name, Err: err}
}
