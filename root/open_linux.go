package root

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// The one way root opens a file on Linux: openat2 from a descriptor of
// the allowed directory, resolved beneath it (RESOLVE_BENEATH: no "..",
// absolute symlink or magic link out of it) and following no symbolic
// link at all (RESOLVE_NO_SYMLINKS, and O_NOFOLLOW for the last
// component), so what it opens is the file at that real path now, or
// nothing. Every open of root goes through openat2 below and its errors
// through openErr: the reads of the document (readBeneath), the ignore
// files (ReadSmall), the commands' opens (Shell.openNoLinks) and the
// descriptor of a directory itself (openBeneathDir).

// beneath is the resolution of every openat2 of root. The callers differ
// only in the open flags.
const beneath = unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS

const (
	// readFlags open a file for reading. O_NONBLOCK: a FIFO swapped in
	// cannot block the open; O_NOCTTY: a terminal cannot become the
	// controlling one; O_LARGEFILE: as os.Open, for 32-bit systems.
	readFlags = unix.O_RDONLY | unix.O_CLOEXEC | unix.O_NONBLOCK | unix.O_NOCTTY | unix.O_NOFOLLOW | unix.O_LARGEFILE
	// pathFlags open a file without opening it (O_PATH): enough to fstat
	// it, nothing a device or FIFO would notice.
	pathFlags = unix.O_PATH | unix.O_NOFOLLOW | unix.O_CLOEXEC
	// dirPathFlags are pathFlags for a directory.
	dirPathFlags = unix.O_PATH | unix.O_DIRECTORY | unix.O_CLOEXEC
)

// errNoBeneath says openat2 cannot serve: the Dir has no descriptor, the
// kernel has no openat2 (before Linux 5.6) or a seccomp filter refuses it,
// or the kernel could not rule out a race (EAGAIN). The caller takes the
// *os.Root's way, which says what the path is.
var errNoBeneath = errors.New("openat2 beneath the root is not available")

// openat2 opens rel (relative to dirfd, slash-separated) with flags and
// the beneath resolution, its errors classified by openErr.
func openat2(dirfd int, rel string, flags uint64) (int, error) {
	how := unix.OpenHow{Flags: flags, Resolve: beneath}
	for {
		fd, err := unix.Openat2(dirfd, rel, &how)
		if err != unix.EINTR {
			return fd, openErr(err)
		}
	}
}

// openErr is the one classification of openat2's errors: ELOOP is a
// symbolic link on the way (errLink: resolve it and try again, or
// decline), EXDEV a way out of the root (ErrOutside), ENOSYS, EPERM and
// EAGAIN errNoBeneath; the rest (ENOENT, ENOTDIR, EACCES …) as they are.
func openErr(err error) error {
	switch err {
	case nil:
		return nil
	case unix.ELOOP:
		return errLink
	case unix.EXDEV:
		return ErrOutside
	case unix.ENOSYS, unix.EPERM, unix.EAGAIN:
		return errNoBeneath
	}
	return err
}

// openBeneathDir returns a descriptor (O_PATH) of the directory root is open
// at, got with openat2 from the root's own descriptor, so that it is the
// same directory; -1 when openat2 is missing (Linux before 5.6) or refused
// (a seccomp filter answering ENOSYS or EPERM), and reads then go through
// the root alone.
func openBeneathDir(root *os.Root) int {
	f, err := root.Open(".")
	if err != nil {
		return -1
	}
	defer f.Close()
	sc, err := f.SyscallConn()
	if err != nil {
		return -1
	}
	fd := -1
	sc.Control(func(rfd uintptr) {
		if d, err := openat2(int(rfd), ".", dirPathFlags); err == nil {
			fd = d
		}
	})
	return fd
}

// closeBeneath closes what openBeneathDir returned.
func closeBeneath(fd int) {
	if fd >= 0 {
		unix.Close(fd)
	}
}

// A vet says how openFile keeps a special file (FIFO, device, socket)
// from being opened, which would block or have effects a read must not
// have: the one place where the opens of root differ.
type vet uint8

const (
	// vetStat: one fstatat of rel before the open, and only a regular
	// file goes on. fstatat is not confined (it follows a symbolic link
	// in a directory component, wherever it leads), so its answer may
	// only make the caller decline (errNoBeneath) and go the *os.Root's
	// way, which gives the verdict, never be one itself: what readBeneath
	// does on every file of a pack, where the O_PATH open of vetPath
	// would cost two more system calls a file.
	vetStat vet = iota
	// vetPath: an O_PATH openat2 of rel and an fstat of it, as confined
	// as the open itself, so its answer (ErrNotRegular, errLink, a
	// missing file) is a verdict: the commands' opens, whose errors are
	// shown, and the ignore files, mostly missing (one system call then).
	vetPath
)

// openFile opens rel (slash-separated, relative to d) for reading with
// openat2 beneath d, if it is a regular file or (vetPath only) a
// directory: v says how anything else is refused before any open
// (ErrNotRegular with vetPath, errNoBeneath with vetStat). The file opened must be the one vetted
// (ErrSwapped otherwise). It returns the descriptor and its fstat.
func (d *Dir) openFile(rel string, v vet) (int, unix.Stat_t, error) {
	var pre, st unix.Stat_t
	if d.fd < 0 {
		return -1, st, errNoBeneath
	}
	if err := d.vet(rel, v, &pre); err != nil {
		return -1, st, err
	}
	fd, err := openat2(d.fd, rel, readFlags)
	if err != nil {
		return -1, st, err
	}
	if err := retryEINTR(func() error { return unix.Fstat(fd, &st) }); err != nil {
		unix.Close(fd)
		return -1, st, err
	}
	if st.Dev != pre.Dev || st.Ino != pre.Ino {
		unix.Close(fd)
		return -1, st, ErrSwapped
	}
	return fd, st, nil
}

// vet fills st with the type and identity of rel before it is opened
// (see vet) and refuses what is neither a regular file nor a directory.
func (d *Dir) vet(rel string, v vet, st *unix.Stat_t) error {
	if v == vetStat {
		err := retryEINTR(func() error { return unix.Fstatat(d.fd, rel, st, unix.AT_SYMLINK_NOFOLLOW) })
		if err != nil || st.Mode&unix.S_IFMT != unix.S_IFREG {
			return errNoBeneath
		}
		return nil
	}
	pfd, err := openat2(d.fd, rel, pathFlags)
	if err != nil {
		return err
	}
	err = retryEINTR(func() error { return unix.Fstat(pfd, st) })
	unix.Close(pfd)
	if err != nil {
		return err
	}
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFREG, unix.S_IFDIR:
		return nil
	case unix.S_IFLNK: // the last component, opened by O_PATH|O_NOFOLLOW
		return errLink
	}
	return ErrNotRegular
}

// openNoFollow opens rel in d, which readRoot has lstat'ed, with no
// symbolic link anywhere on the way (openat2), so a directory swapped for
// a link since rel was resolved fails the open (errLink) instead of being
// followed; where openat2 cannot serve, through the os.Root with
// O_NOFOLLOW on the last component (readRoot then holds the file to what
// it lstat'ed).
func (d *Dir) openNoFollow(rel string) (*os.File, error) {
	if d.fd >= 0 {
		fd, err := openat2(d.fd, rel, readFlags)
		if err == nil {
			return os.NewFile(uintptr(fd), rel), nil
		}
		if err != errNoBeneath {
			return nil, &fs.PathError{Op: "open", Path: rel, Err: err}
		}
	}
	return d.os.OpenFile(rel, OpenFlags|unix.O_NOFOLLOW, 0)
}

// openNoLinks opens the root-relative path rel if it holds no symbolic
// link (errLink if it does) and is a regular file or a directory
// (ErrNotRegular otherwise, before it is opened): openFile, vetPath.
func (s *Shell) openNoLinks(rel string) (*os.File, error) {
	fd, _, err := s.d.openFile(rel, vetPath)
	if err == errNoBeneath {
		return s.openNoLinksPortable(rel)
	}
	if err != nil {
		return nil, err
	}
	// Named by its absolute path: a directory's DirEntry.Info lstats
	// entries by the file's name joined with theirs.
	return os.NewFile(uintptr(fd), filepath.Join(s.d.path, rel)), nil
}

// dirHasLinks reports whether the directory dir (slash-separated,
// relative to d) holds a symbolic link (or cannot be told not to): one
// O_PATH openat2 of it.
func (d *Dir) dirHasLinks(dir string) bool {
	if d.fd < 0 {
		return true
	}
	fd, err := openat2(d.fd, dir, dirPathFlags)
	if err != nil {
		return err != unix.ENOENT && err != unix.ENOTDIR
	}
	unix.Close(fd)
	return false
}
