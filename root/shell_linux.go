package root

import (
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// noLinks: below the root, no symbolic link anywhere on the way, the
// last component included.
const noLinks = unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS

// openNoLinks opens the root-relative path rel if it holds no symbolic
// link (errLink if it does) and is a regular file or a directory
// (ErrNotRegular otherwise). It first opens an O_PATH descriptor, which
// opens nothing, and fstats it, so a FIFO, device or socket is refused
// before it is opened; then it opens the path for reading and checks that
// the second descriptor is the file the first one was.
func (s *Shell) openNoLinks(rel string) (*os.File, error) {
	rfd := s.d.fd
	if rfd < 0 {
		return s.openNoLinksPortable(rel)
	}
	pfd, err := openat2(rfd, rel, unix.O_PATH|unix.O_NOFOLLOW|unix.O_CLOEXEC)
	if err == unix.ENOSYS || err == unix.EPERM {
		return s.openNoLinksPortable(rel)
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
		return nil, ErrNotRegular
	}
	fd, err := openat2(rfd, rel, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_NOCTTY|unix.O_CLOEXEC)
	if err != nil {
		return nil, linkErr(err)
	}
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil || st.Dev != pst.Dev || st.Ino != pst.Ino {
		unix.Close(fd)
		return nil, ErrSwapped
	}
	// Named by its absolute path: a directory's DirEntry.Info lstats
	// entries by the file's name joined with theirs.
	return os.NewFile(uintptr(fd), filepath.Join(s.d.path, rel)), nil
}

// linkErr maps openat2's refusals: ELOOP is a symbolic link on the way,
// EXDEV a way out of the root.
func linkErr(err error) error {
	switch err {
	case unix.ELOOP:
		return errLink
	case unix.EXDEV:
		return ErrOutside
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

// dirHasLinks reports whether the root-relative directory dir holds a
// symbolic link (or cannot be told not to): one openat2 of it with
// RESOLVE_NO_SYMLINKS.
func (s *Shell) dirHasLinks(dir string) bool {
	if s.d.fd < 0 {
		return true
	}
	fd, err := openat2(s.d.fd, dir, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC)
	if err != nil {
		return err != unix.ENOENT && err != unix.ENOTDIR
	}
	unix.Close(fd)
	return false
}
