package root

import (
	"encoding/binary"
	"io/fs"
	"syscall"
)

// Directory reading: the one getdents64 walker of taskctl. The project's
// walk (globs, the index) and the shell builtins' walks (find, grep -r)
// hold a directory as a bare descriptor, open the next one from it by one
// name getdents returned, with O_NOFOLLOW|O_DIRECTORY, and list it with
// getdents64, so that no step can follow a symbolic link or leave the tree
// the walk started in, and no entry costs more than its name (os.Root's
// files lstat every entry eagerly; os.File's allocate a DirEntry each).

// atFdcwd is AT_FDCWD: OpenDirAt takes an absolute name as it is.
const atFdcwd = -100

// DirFlags are the flags every directory of a walk is opened with.
const DirFlags = syscall.O_RDONLY | syscall.O_DIRECTORY | syscall.O_NOFOLLOW | syscall.O_CLOEXEC |
	syscall.O_NOCTTY | syscall.O_NONBLOCK

// OpenDirAt opens the directory name of the directory parent (a
// descriptor; ListTypes passes atFdcwd for an absolute name) with
// openat(O_NOFOLLOW|O_DIRECTORY): one system call, no symlink followed, so
// the child is a real directory inside parent. display names it in the
// error.
func OpenDirAt(parent int, name, display string) (int, error) {
	for {
		fd, err := syscall.Openat(parent, name, DirFlags, 0)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return -1, &fs.PathError{Op: "openat", Path: display, Err: err}
		}
		return fd, nil
	}
}

// ListFD calls fn for each entry of the open directory fd but "." and
// "..", with its type from the directory entry; fs.ModeIrregular when the
// file system does not say (DT_UNKNOWN). buf is the getdents64 buffer,
// allocated on first use and kept for the next call; name is valid only
// during fn.
func ListFD(fd int, buf *[]byte, fn func(name []byte, typ fs.FileMode)) error {
	if len(*buf) == 0 {
		*buf = make([]byte, 32<<10)
	}
	b := *buf
	for {
		n, err := syscall.ReadDirent(fd, b)
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
			// struct linux_dirent64 { u64 ino; s64 off; u16 reclen; u8 type; char name[]; }
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

// openFileAt opens the regular file name (one component, as getdents gave
// it) of the directory dirfd with openat(O_NOFOLLOW|O_NONBLOCK|O_NOCTTY)
// and fstats it: a symbolic link is syscall.ELOOP (never followed), a
// directory syscall.EISDIR, anything else not regular ErrNotRegular, each
// closed before it is returned. It returns the descriptor and the size.
func openFileAt(dirfd int, name string) (int, int64, error) {
	var fd int
	var err error
	for {
		fd, err = syscall.Openat(dirfd, name, syscall.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK|syscall.O_NOCTTY|syscall.O_CLOEXEC, 0)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return -1, 0, err
	}
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		syscall.Close(fd)
		return -1, 0, err
	}
	switch st.Mode & syscall.S_IFMT {
	case syscall.S_IFREG:
		return fd, st.Size, nil
	case syscall.S_IFDIR:
		syscall.Close(fd)
		return -1, 0, syscall.EISDIR
	}
	syscall.Close(fd)
	return -1, 0, ErrNotRegular
}

// LstatType returns the type bits of an lstat of path, without the
// allocations of os.Lstat.
func LstatType(path string) (fs.FileMode, error) {
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

// ListTypes returns the names and types of the entries of the real
// directory dir (an absolute path whose last element is no symlink) from
// openat and getdents64 into buf: four system calls for a small directory,
// where os.Open and ReadDir make eight (they toggle O_NONBLOCK for the
// poller), and one string for all the names. An entry whose type the file
// system does not say is fs.ModeIrregular.
func ListTypes(dir string, buf *[]byte) (map[string]fs.FileMode, error) {
	fd, err := OpenDirAt(atFdcwd, dir, dir)
	if err != nil {
		return nil, err
	}
	defer syscall.Close(fd)
	var names []byte
	var ends []int
	var types []fs.FileMode
	err = ListFD(fd, buf, func(name []byte, typ fs.FileMode) {
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
