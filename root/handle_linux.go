package root

import (
	"bytes"
	"errors"
	"io/fs"
	"syscall"
)

// A Handle is a directory open during a command's walk (find, grep -r),
// held as a bare descriptor. The first comes from Shell.OpenHandle (so it
// lies inside the project and was reached without a symbolic link); every
// other is opened from its parent's descriptor by one name that getdents
// returned, never ".", ".." or a name with a "/", with
// O_NOFOLLOW|O_DIRECTORY (OpenDirAt). So no step can follow a symlink or
// leave the tree the walk started in, at under half the system calls of
// an os.Root per directory (no second descriptor for getdents, no fstat,
// no poller registration, no finalizer). Like an os.Root, a Handle
// follows its directory if it is renamed meanwhile.
type Handle struct {
	fd  int
	buf *[]byte // getdents64 buffer, shared by the walk (List is not reentrant)
}

// OpenHandle opens the directory rel (root-relative) for a walk, as every
// path of a command is opened (Open): no symbolic link on the way,
// nothing inside .git/ or .taskctl/.
func (s *Shell) OpenHandle(rel string) (*Handle, error) {
	fh, _, err := s.Open(rel, 0)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	st, err := fh.Stat()
	if err != nil {
		return nil, err
	}
	if !st.IsDir() {
		return nil, syscall.ENOTDIR
	}
	sc, err := fh.SyscallConn()
	if err != nil {
		return nil, err
	}
	fd := -1
	var derr error
	if err := sc.Control(func(s uintptr) {
		r, _, e := syscall.Syscall(syscall.SYS_FCNTL, s, syscall.F_DUPFD_CLOEXEC, 0)
		if e != 0 {
			derr = e
			return
		}
		fd = int(r)
	}); err != nil {
		derr = err
	}
	if derr != nil {
		return nil, derr
	}
	buf := make([]byte, 32<<10)
	return &Handle{fd: fd, buf: &buf}, nil
}

// plainName reports whether name is one path component that names an
// entry of a directory (not "." or "..").
func plainName(name string) bool {
	return name != "" && name != "." && name != ".." && !bytes.ContainsAny([]byte(name), "/\x00")
}

// Sub opens the subdirectory name, as List returned it; shown names it in
// errors. .git and .taskctl are never entered.
func (h *Handle) Sub(name, shown string) (*Handle, error) {
	if !plainName(name) {
		return nil, &fs.PathError{Op: "open", Path: shown, Err: ErrOutside}
	}
	if AlwaysExcluded(name) {
		return nil, &fs.PathError{Op: "open", Path: shown, Err: &StateError{Dir: name}}
	}
	fd, err := OpenDirAt(h.fd, name, shown)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: shown, Err: err.(*fs.PathError).Err}
	}
	return &Handle{fd: fd, buf: h.buf}, nil
}

// Close closes h.
func (h *Handle) Close() {
	if h.fd >= 0 {
		syscall.Close(h.fd)
		h.fd = -1
	}
}

// List returns the entries of h in readdir order with the types
// getdents64 reports (ListFD); the type of an entry getdents64 does not
// know (DT_UNKNOWN, on some file systems) comes from lstat, called with
// the entry's name, which should look it up through the Shell; an entry
// it fails for has vanished and is left out.
func (h *Handle) List(shown string, lstat func(name string) (fs.FileMode, error)) ([]Dirent, error) {
	var out []Dirent
	err := ListFD(h.fd, h.buf, func(name []byte, typ fs.FileMode) {
		e := Dirent{name: string(name), typ: typ}
		if typ == fs.ModeIrregular {
			m, err := lstat(e.name)
			if err != nil {
				return
			}
			e.typ = m.Type()
		}
		out = append(out, e)
	})
	if err != nil {
		return out, &fs.PathError{Op: "readdir", Path: shown, Err: err}
	}
	return out, nil
}

// openIn opens the regular file name (one component, as getdents gave it)
// of h with openFileAt; a file larger than MaxCommandFile is an error. ok
// is false when the fast path does not apply (a symlink, an odd name): the
// caller then reads through the Shell.
func (h *Handle) openIn(name, shown string) (fd int, size int64, ok bool, err error) {
	if !plainName(name) {
		return -1, 0, false, nil
	}
	fd, size, err = openFileAt(h.fd, name)
	switch {
	case err == syscall.ELOOP:
		return -1, 0, false, nil
	case err == syscall.EISDIR:
		return -1, 0, true, &fs.PathError{Op: "read", Path: shown, Err: syscall.EISDIR}
	case err == ErrNotRegular:
		return -1, 0, true, &fs.PathError{Op: "open", Path: shown, Err: ErrNotRegular}
	case err != nil:
		return -1, 0, true, &fs.PathError{Op: "open", Path: shown, Err: err}
	}
	if size > MaxCommandFile {
		syscall.Close(fd)
		return -1, 0, true, &fs.PathError{Op: "read", Path: shown, Err: errors.New("file too large")}
	}
	return fd, size, true, nil
}

// ReadFile reads the regular file name (one component, as getdents gave
// it) of h into buf (grown as needed), with raw system calls: openat with
// O_NOFOLLOW relative to h, fstat, read. It skips what an *os.File costs
// per file (poller registration, finalizer). ok is false when the fast
// path does not apply (see openIn). charge is asked for a buffer larger
// than buf before it is allocated.
func (h *Handle) ReadFile(name, shown string, buf []byte, charge func(int64) error) (data []byte, ok bool, err error) {
	fd, size, ok, err := h.openIn(name, shown)
	if !ok || err != nil {
		return nil, ok, err
	}
	defer syscall.Close(fd)
	if int64(cap(buf)) < size+1 {
		if err := charge(size + 1); err != nil {
			return nil, true, &fs.PathError{Op: "read", Path: shown, Err: err}
		}
		buf = make([]byte, size+1, max(size+1, 64<<10))
	}
	buf = buf[:cap(buf)]
	n := 0
	for {
		m, err := syscall.Read(fd, buf[n:])
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, true, &fs.PathError{Op: "read", Path: shown, Err: err}
		}
		n += m
		// Stop at the size fstat reported instead of spending a read on
		// EOF, as ReadOpened does.
		if m == 0 || int64(n) == size && size > 0 {
			break
		}
		if n == len(buf) {
			if int64(n) >= MaxCommandFile {
				return nil, true, &fs.PathError{Op: "read", Path: shown, Err: errors.New("file too large")}
			}
			buf = append(buf, make([]byte, len(buf))...)[:2*len(buf)]
		}
	}
	return buf[:n], true, nil
}
