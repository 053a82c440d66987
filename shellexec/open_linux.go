//go:build linux

package shellexec

import (
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// rootFD returns a descriptor of the project directory for openat2 (a
// duplicate of the os.Root's own, so the same directory), or -1 when it
// cannot be had.
func (f *projectFS) rootFD() int {
	f.fdOnce.Do(func() {
		f.fd = -1
		fh, err := f.root.Open(".")
		if err != nil {
			return
		}
		defer fh.Close()
		sc, err := fh.SyscallConn()
		if err != nil {
			return
		}
		sc.Control(func(s uintptr) {
			if fd, err := unix.FcntlInt(s, unix.F_DUPFD_CLOEXEC, 0); err == nil {
				f.fd = fd
			}
		})
	})
	return f.fd
}

// close releases the descriptor rootFD opened.
func (f *projectFS) close() {
	f.fdOnce.Do(func() { f.fd = -1 })
	if f.fd >= 0 {
		unix.Close(f.fd)
		f.fd = -1
	}
}

// noLinks: below the root, no symbolic link anywhere on the way, the
// last component included.
const noLinks = unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS

// openNoLinks opens the root-relative path rel if it holds no symbolic
// link (errLink if it does) and is a regular file or a directory
// (errNotRegular otherwise). It first opens an O_PATH descriptor, which
// opens nothing, and fstats it, so a FIFO, device or socket is refused
// before it is opened; then it opens the path for reading and checks that
// the second descriptor is the file the first one was.
func (f *projectFS) openNoLinks(rel string) (*os.File, error) {
	rfd := f.rootFD()
	if rfd < 0 {
		return f.openNoLinksRoot(rel)
	}
	pfd, err := openat2(rfd, rel, unix.O_PATH|unix.O_NOFOLLOW|unix.O_CLOEXEC)
	if err == unix.ENOSYS || err == unix.EPERM {
		return f.openNoLinksRoot(rel)
	}
	if err != nil {
		return nil, linkErr(err)
	}
	var pst unix.Stat_t
	err = unix.Fstat(pfd, &pst)
	unix.Close(pfd)
	if err != nil {
		return nil, err
	}
	switch pst.Mode & unix.S_IFMT {
	case unix.S_IFREG, unix.S_IFDIR:
	case unix.S_IFLNK:
		return nil, errLink
	default:
		return nil, errNotRegular
	}
	fd, err := openat2(rfd, rel, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_NOCTTY|unix.O_CLOEXEC)
	if err != nil {
		return nil, linkErr(err)
	}
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil || st.Dev != pst.Dev || st.Ino != pst.Ino {
		unix.Close(fd)
		return nil, errSwapped
	}
	// Named by its absolute path: a directory's DirEntry.Info lstats
	// entries by the file's name joined with theirs.
	return os.NewFile(uintptr(fd), filepath.Join(f.rootDir, rel)), nil
}

// linkErr maps openat2's refusals: ELOOP is a symbolic link on the way,
// EXDEV a way out of the root.
func linkErr(err error) error {
	switch err {
	case unix.ELOOP:
		return errLink
	case unix.EXDEV:
		return errOutside
	}
	return err
}

func openat2(dirfd int, rel string, flags int) (int, error) {
	how := unix.OpenHow{Flags: uint64(flags), Resolve: noLinks}
	for {
		fd, err := unix.Openat2(dirfd, rel, &how)
		if err != unix.EINTR {
			return fd, err
		}
	}
}

// openNoLinksRoot is openNoLinks without openat2 (a kernel before 5.6, or
// a seccomp filter refusing it): each component is lstat'ed through the
// os.Root and the last one opened with O_NOFOLLOW. A link swapped into a
// directory component between the two is followed (inside the root).
func (f *projectFS) openNoLinksRoot(rel string) (*os.File, error) {
	return openNoLinksPortable(f.root, rel)
}

// dirHasLinks reports whether the root-relative directory dir holds a
// symbolic link (or cannot be told not to): one openat2 of it with
// RESOLVE_NO_SYMLINKS.
func (f *projectFS) dirHasLinks(dir string) bool {
	rfd := f.rootFD()
	if rfd < 0 {
		return true
	}
	fd, err := openat2(rfd, dir, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC)
	if err != nil {
		return err != unix.ENOENT && err != unix.ENOTDIR
	}
	unix.Close(fd)
	return false
}
