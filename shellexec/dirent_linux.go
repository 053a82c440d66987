//go:build linux

package shellexec

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"strings"
	"syscall"
	"unsafe"
)

// readDirents lists the open directory f in readdir order with the
// types getdents64 reports. os.File.ReadDir on a file opened through an
// os.Root lstats every entry; that doubles the syscalls of a walk, so the
// entries are read from f's descriptor directly. The descriptor still
// came from the Root. Entries of unknown type are lstat-ed through d.
func readDirents(d *os.Root, f *os.File) ([]dent, error) {
	var out []dent
	buf := make([]byte, 32<<10)
	fd := int(f.Fd())
	for {
		n, err := syscall.Getdents(fd, buf)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return out, err
		}
		if n <= 0 {
			return out, nil
		}
		for off := 0; off < n; {
			// struct linux_dirent64 { u64 ino; s64 off; u16 reclen; u8 type; char name[]; }
			reclen := int(*(*uint16)(unsafe.Pointer(&buf[off+16])))
			typ := buf[off+18]
			nameBytes := buf[off+19 : off+reclen]
			for i, b := range nameBytes {
				if b == 0 {
					nameBytes = nameBytes[:i]
					break
				}
			}
			off += reclen
			name := string(nameBytes)
			if name == "." || name == ".." {
				continue
			}
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
				fi, err := d.Lstat(name)
				if err != nil {
					continue // vanished
				}
				mode = fi.Mode().Type()
			}
			out = append(out, dent{name: name, typ: mode})
		}
	}
}

// dirFile opens d's directory for readFileIn, or returns nil.
func dirFile(d *os.Root) *os.File {
	f, err := d.Open(".")
	if err != nil {
		return nil
	}
	return f
}

// openIn opens the regular file name (one component, as getdents gave it)
// of the directory open as dir with openat and O_NOFOLLOW, and fstats it.
// ok is false when the fast path does not apply (a symlink, an odd name,
// no dir): the caller then reads through the os.Root.
func openIn(dir *os.File, name, shown string) (fd int, size int64, ok bool, err error) {
	if dir == nil || name == "" || name == "." || name == ".." || strings.ContainsRune(name, '/') {
		return -1, 0, false, nil
	}
	fd, err = openat(int(dir.Fd()), name, syscall.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK|syscall.O_NOCTTY|syscall.O_CLOEXEC)
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
	if st.Size > maxFileBytes {
		syscall.Close(fd)
		return -1, 0, true, &fs.PathError{Op: "read", Path: shown, Err: errors.New("file too large")}
	}
	return fd, st.Size, true, nil
}

// readFileIn reads the regular file name (one component, as getdents gave
// it) of the directory open as dir, with raw system calls: openat with
// O_NOFOLLOW relative to the directory's descriptor, fstat, read. It skips
// what an *os.File costs per file (poller registration, finalizer). ok is
// false when the fast path does not apply (see openIn).
func readFileIn(dir *os.File, name, shown string, buf []byte) (data []byte, ok bool, err error) {
	fd, size, ok, err := openIn(dir, name, shown)
	if !ok || err != nil {
		return nil, ok, err
	}
	defer syscall.Close(fd)
	if int64(cap(buf)) < size+1 {
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

// scanFileIn is readFileIn for grep -l, -L and -q, where one selected line
// decides: it reads the file in chunks of scanChunk bytes and calls scan
// with each run of whole records (ending in sep; the last run, at the end
// of the file, may lack it). When scan returns true the rest of the file is
// not read and found is true. It holds one chunk or the longest record,
// whichever is larger, instead of the whole file. buf is returned for
// reuse.
func scanFileIn(dir *os.File, name, shown string, buf []byte, sep byte, scan func([]byte) bool) (found bool, reuse []byte, ok bool, err error) {
	fd, size, ok, err := openIn(dir, name, shown)
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
		if read > maxFileBytes {
			return false, buf, true, &fs.PathError{Op: "read", Path: shown, Err: errors.New("file too large")}
		}
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

// scanChunk is the size of scanFileIn's reads (GNU grep reads 96 KiB).
const scanChunk = 128 << 10

func openat(dirfd int, name string, flags int) (int, error) {
	for {
		fd, err := syscall.Openat(dirfd, name, flags, 0)
		if err != syscall.EINTR {
			return fd, err
		}
	}
}
