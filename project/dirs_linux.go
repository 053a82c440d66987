package project

import (
	"encoding/binary"
	"io/fs"
	"os"
	"sync/atomic"
	"syscall"
)

// dirHandle is an open directory: a raw descriptor, listed with getdents64
// so that no entry costs more than its path string (os.Root's files lstat
// every entry eagerly; os.File's allocate a DirEntry each).
type dirHandle struct {
	fd   int
	refs atomic.Int32
}

func (h *dirHandle) close() { syscall.Close(h.fd) }

const dirFlags = syscall.O_RDONLY | syscall.O_DIRECTORY | syscall.O_NOFOLLOW | syscall.O_CLOEXEC | syscall.O_NOCTTY

// openDir opens directory name of parent with openat(O_NOFOLLOW|O_DIRECTORY):
// one system call, no symlink followed, so the child is a real directory
// inside parent. A start directory (parent nil) is opened through the root
// and re-opened with openat(".").
func openDir(r *rootDir, parent *dirHandle, name, display string) (*dirHandle, error) {
	if parent == nil {
		f, err := r.root.Open(name)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		sc, err := f.SyscallConn()
		if err != nil {
			return nil, err
		}
		var h *dirHandle
		var oerr error
		if cerr := sc.Control(func(fd uintptr) { h, oerr = openDirAt(int(fd), ".", display) }); cerr != nil {
			return nil, cerr
		}
		return h, oerr
	}
	return openDirAt(parent.fd, name, display)
}

func openDirAt(parent int, name, display string) (*dirHandle, error) {
	for {
		fd, err := syscall.Openat(parent, name, dirFlags, 0)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, &os.PathError{Op: "openat", Path: display, Err: err}
		}
		return &dirHandle{fd: fd}, nil
	}
}

// list calls fn for each entry but "." and "..", with its type from the
// directory entry; fs.ModeIrregular when the file system does not say.
func (h *dirHandle) list(buf *[]byte, fn func(name []byte, typ fs.FileMode)) error {
	if len(*buf) == 0 {
		*buf = make([]byte, 32<<10)
	}
	b := *buf
	for {
		n, err := syscall.ReadDirent(h.fd, b)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return err
		}
		if n <= 0 {
			return nil
		}
		for rec := b[:n]; len(rec) >= 19; {
			reclen := int(binary.NativeEndian.Uint16(rec[16:18]))
			if reclen < 19 || reclen > len(rec) {
				break
			}
			dtype := rec[18]
			name := rec[19:reclen]
			for i, c := range name {
				if c == 0 {
					name = name[:i]
					break
				}
			}
			rec = rec[reclen:]
			if len(name) == 0 || name[0] == '.' && (len(name) == 1 || len(name) == 2 && name[1] == '.') {
				continue
			}
			fn(name, direntType(dtype))
		}
	}
}

func direntType(t uint8) fs.FileMode {
	switch t {
	case syscall.DT_REG:
		return 0
	case syscall.DT_DIR:
		return fs.ModeDir
	case syscall.DT_LNK:
		return fs.ModeSymlink
	case syscall.DT_FIFO:
		return fs.ModeNamedPipe
	case syscall.DT_SOCK:
		return fs.ModeSocket
	case syscall.DT_CHR:
		return fs.ModeDevice | fs.ModeCharDevice
	case syscall.DT_BLK:
		return fs.ModeDevice
	}
	return fs.ModeIrregular
}

// lstatType returns the type bits of an lstat of path, without the
// allocations of os.Lstat.
func lstatType(path string) (fs.FileMode, error) {
	var st syscall.Stat_t
	for {
		err := syscall.Lstat(path, &st)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return 0, &fs.PathError{Op: "lstat", Path: path, Err: err}
		}
		break
	}
	switch st.Mode & syscall.S_IFMT {
	case syscall.S_IFREG:
		return 0, nil
	case syscall.S_IFDIR:
		return fs.ModeDir, nil
	case syscall.S_IFLNK:
		return fs.ModeSymlink, nil
	case syscall.S_IFIFO:
		return fs.ModeNamedPipe, nil
	case syscall.S_IFSOCK:
		return fs.ModeSocket, nil
	case syscall.S_IFCHR:
		return fs.ModeDevice | fs.ModeCharDevice, nil
	case syscall.S_IFBLK:
		return fs.ModeDevice, nil
	}
	return fs.ModeIrregular, nil
}

// listTypes returns the names and types of the entries of the real
// directory dir (an absolute path whose last element is no symlink) from
// openat and getdents64 into buf: four system calls for a small directory,
// where os.Open and ReadDir make eight (they toggle O_NONBLOCK for the
// poller), and one string for all the names. An entry whose type the file
// system does not say is fs.ModeIrregular.
func listTypes(dir string, buf *[]byte) (map[string]fs.FileMode, error) {
	h, err := openDirAt(atFdcwd, dir, dir)
	if err != nil {
		return nil, err
	}
	defer h.close()
	var names []byte
	var ends []int
	var types []fs.FileMode
	err = h.list(buf, func(name []byte, typ fs.FileMode) {
		names = append(names, name...)
		ends = append(ends, len(names))
		types = append(types, typ)
	})
	if err != nil {
		return nil, err
	}
	all := string(names)
	m := make(map[string]fs.FileMode, len(ends))
	start := 0
	for i, end := range ends {
		m[all[start:end]] = types[i]
		start = end
	}
	return m, nil
}

// atFdcwd is AT_FDCWD: openat takes an absolute name as it is.
const atFdcwd = -100
