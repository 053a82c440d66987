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

// readFileIn reads the regular file name (one component, as getdents gave
// it) of the directory open as dir, with raw system calls: openat with
// O_NOFOLLOW relative to the directory's descriptor, fstat, read. It skips
// what an *os.File costs per file (poller registration, finalizer). ok is
// false when the fast path does not apply (a symlink, an odd name, no dir):
// the caller then reads through the os.Root.
//
// If early is not nil, it is called once with the first part of a file
// larger than earlyBytes, cut after its last newline; when it returns true
// the rest is not read and stopped is true.
func readFileIn(dir *os.File, name, shown string, buf []byte, early func([]byte) bool) (data []byte, ok, stopped bool, err error) {
	if dir == nil || name == "" || name == "." || name == ".." || strings.ContainsRune(name, '/') {
		return nil, false, false, nil
	}
	fd, err := openat(int(dir.Fd()), name, syscall.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK|syscall.O_NOCTTY|syscall.O_CLOEXEC)
	if err == syscall.ELOOP {
		return nil, false, false, nil
	}
	if err != nil {
		return nil, true, false, pathErr("open", shown, &fs.PathError{Op: "openat", Path: name, Err: err})
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		return nil, true, false, pathErr("read", shown, err)
	}
	switch st.Mode & syscall.S_IFMT {
	case syscall.S_IFREG:
	case syscall.S_IFDIR:
		return nil, true, false, &fs.PathError{Op: "read", Path: shown, Err: syscall.EISDIR}
	default:
		return nil, true, false, &fs.PathError{Op: "open", Path: shown, Err: errNotRegular}
	}
	size := st.Size
	if size > maxFileBytes {
		return nil, true, false, &fs.PathError{Op: "read", Path: shown, Err: errors.New("file too large")}
	}
	if int64(cap(buf)) < size+1 {
		buf = make([]byte, size+1, max(size+1, 64<<10))
	}
	buf = buf[:cap(buf)]
	n := 0
	limit := len(buf)
	if early != nil && size > earlyBytes {
		limit = earlyBytes
	}
	for {
		m, err := syscall.Read(fd, buf[n:limit])
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, true, false, pathErr("read", shown, err)
		}
		n += m
		if n == limit && limit < len(buf) {
			if nl := bytes.LastIndexByte(buf[:n], '\n'); nl >= 0 && early(buf[:nl+1]) {
				return buf[:nl+1], true, true, nil
			}
			early, limit = nil, len(buf)
			continue
		}
		if m == 0 || int64(n) == size && size > 0 {
			break
		}
		if n == len(buf) {
			if int64(n) >= maxFileBytes {
				return nil, true, false, &fs.PathError{Op: "read", Path: shown, Err: errors.New("file too large")}
			}
			buf = append(buf, make([]byte, len(buf))...)[:2*len(buf)]
			limit = len(buf)
		}
	}
	return buf[:n], true, false, nil
}

// earlyBytes is how much of a large file grep -l, -L or -q reads before
// looking for a match that makes the rest unnecessary.
const earlyBytes = 64 << 10

func openat(dirfd int, name string, flags int) (int, error) {
	for {
		fd, err := syscall.Openat(dirfd, name, flags, 0)
		if err != syscall.EINTR {
			return fd, err
		}
	}
}
