//go:build linux

package shellexec

import (
	"bytes"
	"errors"
	"io/fs"
	"strings"
	"syscall"
	"unsafe"
)

// A walkDir is a directory open during a walk (find, grep -r), held as a
// bare descriptor. The first comes from the project's os.Root (so it lies
// inside the project); every other is opened from its parent's descriptor
// by one name that getdents returned, never ".", ".." or a name with a
// "/", with O_NOFOLLOW|O_DIRECTORY. So no step can follow a symlink or
// leave the tree the walk started in, which is what opening each directory
// as an os.Root guaranteed, at under half the system calls (no second
// descriptor for getdents, no fstat, no poller registration, no
// finalizer). Like an os.Root, a walkDir follows its directory if it is
// renamed meanwhile.
type walkDir struct {
	fd  int
	buf *[]byte // getdents64 buffer, shared by the walk (list is not reentrant)
}

// openWalk opens the directory name (relative to dir) for a walk, as
// every path of a command is opened (see open.go): no symbolic link on the
// way, nothing inside .git/ or .taskctl/.
func (f *projectFS) openWalk(dir, name string) (*walkDir, error) {
	fh, _, err := f.open(dir, name, openOpts{})
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	st, err := fh.Stat()
	if err != nil {
		return nil, pathErr("open", name, err)
	}
	if !st.IsDir() {
		return nil, &fs.PathError{Op: "open", Path: name, Err: syscall.ENOTDIR}
	}
	sc, err := fh.SyscallConn()
	if err != nil {
		return nil, pathErr("open", name, err)
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
		return nil, pathErr("open", name, derr)
	}
	buf := make([]byte, 32<<10)
	return &walkDir{fd: fd, buf: &buf}, nil
}

// plainName reports whether name is one path component that names an
// entry of a directory (not "." or "..").
func plainName(name string) bool {
	return name != "" && name != "." && name != ".." && strings.IndexByte(name, '/') < 0 && strings.IndexByte(name, 0) < 0
}

// sub opens the subdirectory name, as list returned it.
func (d *walkDir) sub(name, shown string) (*walkDir, error) {
	if !plainName(name) {
		return nil, &fs.PathError{Op: "open", Path: shown, Err: errOutside}
	}
	if isStateName(name) {
		return nil, &fs.PathError{Op: "open", Path: shown, Err: &stateError{dir: name}}
	}
	fd, err := openat(d.fd, name, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK|syscall.O_CLOEXEC)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: shown, Err: err}
	}
	return &walkDir{fd: fd, buf: d.buf}, nil
}

func (d *walkDir) close() {
	if d.fd >= 0 {
		syscall.Close(d.fd)
		d.fd = -1
	}
}

// list returns the entries of d in readdir order with the types
// getdents64 reports; the type of an entry getdents64 does not know
// (DT_UNKNOWN, on some file systems) comes from lstat, called with the
// entry's name, which should look it up through the project's os.Root; an
// entry it fails for has vanished and is left out.
func (d *walkDir) list(shown string, lstat func(name string) (fs.FileMode, error)) ([]dent, error) {
	var out []dent
	buf := *d.buf
	for {
		n, err := syscall.Getdents(d.fd, buf)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return out, &fs.PathError{Op: "readdir", Path: shown, Err: err}
		}
		if n <= 0 {
			return out, nil
		}
		for off := 0; off < n; {
			// struct linux_dirent64 { u64 ino; s64 off; u16 reclen; u8 type; char name[]; }
			reclen := int(*(*uint16)(unsafe.Pointer(&buf[off+16])))
			typ := buf[off+18]
			nameBytes := buf[off+19 : off+reclen]
			if i := bytes.IndexByte(nameBytes, 0); i >= 0 {
				nameBytes = nameBytes[:i]
			}
			off += reclen
			if len(nameBytes) <= 2 && (string(nameBytes) == "." || string(nameBytes) == "..") {
				continue
			}
			name := string(nameBytes)
			var mode fs.FileMode
			switch typ {
			case syscall.DT_REG:
				mode = 0
			case syscall.DT_DIR:
				mode = fs.ModeDir
			case syscall.DT_LNK:
				mode = fs.ModeSymlink
			case syscall.DT_FIFO:
				mode = fs.ModeNamedPipe
			case syscall.DT_SOCK:
				mode = fs.ModeSocket
			case syscall.DT_CHR:
				mode = fs.ModeDevice | fs.ModeCharDevice
			case syscall.DT_BLK:
				mode = fs.ModeDevice
			default:
				m, err := lstat(name)
				if err != nil {
					continue
				}
				mode = m.Type()
			}
			out = append(out, dent{name: name, typ: mode})
		}
	}
}

// openIn opens the regular file name (one component, as getdents gave it)
// of d with openat and O_NOFOLLOW, and fstats it; with capped, a file
// larger than maxFileBytes is an error. ok is false when the fast path does
// not apply (a symlink, an odd name): the caller then reads through the
// project's os.Root.
func (d *walkDir) openIn(name, shown string, capped bool) (fd int, size int64, ok bool, err error) {
	if !plainName(name) {
		return -1, 0, false, nil
	}
	fd, err = openat(d.fd, name, syscall.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK|syscall.O_NOCTTY|syscall.O_CLOEXEC)
	if err == syscall.ELOOP {
		return -1, 0, false, nil
	}
	if err != nil {
		return -1, 0, true, pathErr("open", shown, &fs.PathError{Op: "openat", Path: name, Err: err})
	}
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		syscall.Close(fd)
		return -1, 0, true, pathErr("read", shown, err)
	}
	switch st.Mode & syscall.S_IFMT {
	case syscall.S_IFREG:
	case syscall.S_IFDIR:
		syscall.Close(fd)
		return -1, 0, true, &fs.PathError{Op: "read", Path: shown, Err: syscall.EISDIR}
	default:
		syscall.Close(fd)
		return -1, 0, true, &fs.PathError{Op: "open", Path: shown, Err: errNotRegular}
	}
	if capped && st.Size > maxFileBytes {
		syscall.Close(fd)
		return -1, 0, true, &fs.PathError{Op: "read", Path: shown, Err: errors.New("file too large")}
	}
	return fd, st.Size, true, nil
}

// readFile reads the regular file name (one component, as getdents gave
// it) of d into buf (grown as needed), with raw system calls: openat with
// O_NOFOLLOW relative to d, fstat, read. It skips what an *os.File costs
// per file (poller registration, finalizer). ok is false when the fast
// path does not apply (see openIn).
// charge is asked for a buffer larger than buf before it is allocated.
func (d *walkDir) readFile(name, shown string, buf []byte, charge func(int64) error) (data []byte, ok bool, err error) {
	fd, size, ok, err := d.openIn(name, shown, true)
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
			return nil, true, pathErr("read", shown, err)
		}
		n += m
		// Stop at the size fstat reported instead of spending a read on
		// EOF, as readOpened does.
		if m == 0 || int64(n) == size && size > 0 {
			break
		}
		if n == len(buf) {
			if int64(n) >= maxFileBytes {
				return nil, true, &fs.PathError{Op: "read", Path: shown, Err: errors.New("file too large")}
			}
			buf = append(buf, make([]byte, len(buf))...)[:2*len(buf)]
		}
	}
	return buf[:n], true, nil
}

// scanFile is readFile for grep -l, -L and -q, where one selected line
// decides: it reads the file in chunks of scanChunk bytes and calls scan
// with each run of whole records (ending in sep; the last run, at the end
// of the file, may lack it). When scan returns true the rest of the file is
// not read and found is true. It holds one chunk or the longest record,
// whichever is larger, instead of the whole file, so the file may be
// larger than maxFileBytes; a record may not. buf is returned for reuse.
func (d *walkDir) scanFile(name, shown string, buf []byte, sep byte, scan func([]byte) bool) (found bool, reuse []byte, ok bool, err error) {
	fd, size, ok, err := d.openIn(name, shown, false)
	if !ok || err != nil {
		return false, buf, ok, err
	}
	defer syscall.Close(fd)
	if cap(buf) < scanChunk {
		buf = make([]byte, scanChunk)
	}
	buf = buf[:cap(buf)]
	n := 0         // bytes held in buf: the start of a record not yet scanned
	var read int64 // bytes read from the file
	for {
		if n == len(buf) { // one record longer than the buffer
			if n >= maxFileBytes {
				return false, buf, true, &fs.PathError{Op: "read", Path: shown, Err: errors.New("file too large (a line longer than 256 MiB)")}
			}
			buf = append(buf, make([]byte, len(buf))...)[:2*len(buf)]
		}
		m, err := syscall.Read(fd, buf[n:min(len(buf), n+scanChunk)])
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return false, buf, true, pathErr("read", shown, err)
		}
		n += m
		read += int64(m)
		if m == 0 || read == size && size > 0 {
			return n > 0 && scan(buf[:n]), buf, true, nil
		}
		end := bytes.LastIndexByte(buf[:n], sep)
		if end < 0 {
			continue
		}
		if scan(buf[:end+1]) {
			return true, buf, true, nil
		}
		n = copy(buf, buf[end+1:n])
	}
}

// scanChunk is the size of scanFile's reads (GNU grep reads 96 KiB).
const scanChunk = 128 << 10

func openat(dirfd int, name string, flags int) (int, error) {
	for {
		fd, err := syscall.Openat(dirfd, name, flags, 0)
		if err != syscall.EINTR {
			return fd, err
		}
	}
}
