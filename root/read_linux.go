package root

import (
	"errors"
	"io/fs"
	"os"
	"slices"
	"time"

	"github.com/taskctl/taskctl/internal/diag"
	"github.com/taskctl/taskctl/state"
	"golang.org/x/sys/unix"
)

// beneathHow opens a file below a root's descriptor: the kernel refuses to
// leave the root (RESOLVE_BENEATH: no "..", absolute symlink or magic link
// out of it) and to follow any symlink at all (RESOLVE_NO_SYMLINKS, and
// O_NOFOLLOW for the last component), so what it opens is the file at that
// real path now, or nothing. O_NONBLOCK: a FIFO swapped in cannot block the
// open; O_NOCTTY: a terminal cannot become the controlling one;
// O_LARGEFILE: as os.Open, for 32-bit systems.
var beneathHow = unix.OpenHow{
	Flags:   unix.O_RDONLY | unix.O_CLOEXEC | unix.O_NONBLOCK | unix.O_NOCTTY | unix.O_NOFOLLOW | unix.O_LARGEFILE,
	Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS,
}

// openBeneathDir returns a descriptor (O_PATH) of the directory root is open
// at, got with openat2 from the root's own descriptor, so that it is the
// same directory; -1 when openat2 is missing (Linux before 5.6) or refused
// (a seccomp filter answering ENOSYS or EPERM), and Read then goes through
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
	how := unix.OpenHow{
		Flags:   unix.O_PATH | unix.O_DIRECTORY | unix.O_CLOEXEC,
		Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS,
	}
	sc.Control(func(rfd uintptr) {
		for {
			d, err := unix.Openat2(int(rfd), ".", &how)
			if err == unix.EINTR {
				continue
			}
			if err == nil {
				fd = d
			}
			return
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

// readBeneath is Read's way on Linux: an fstatat (special files are never
// opened), openat2 below the root's descriptor, fstat, and reads into one
// buffer sized from the fstat, all on a raw descriptor (no *os.File, no
// poller). ok is false when it declines: no descriptor, or the path is not
// a regular file reached without a symlink, or the open failed; Read then
// takes the os.Root way, which says what the path is. Once the file is
// open, what happens is reported as readRoot would report it.
func (r *Root) readBeneath(d *Dir, path, rel, given string, buf []byte) (f *File, w *diag.Warning, ok bool) {
	if d.fd < 0 {
		return nil, nil, false
	}
	var st unix.Stat_t
	if err := retryEINTR(func() error { return unix.Fstatat(d.fd, rel, &st, unix.AT_SYMLINK_NOFOLLOW) }); err != nil ||
		st.Mode&unix.S_IFMT != unix.S_IFREG {
		return nil, nil, false
	}
	fd, err := d.openBeneath(rel)
	if err != nil {
		return nil, nil, false
	}
	defer unix.Close(fd)
	if err := retryEINTR(func() error { return unix.Fstat(fd, &st) }); err != nil || st.Mode&unix.S_IFMT != unix.S_IFREG {
		return nil, nil, false
	}
	if _, w := r.CheckName(path, rel, given); w != nil {
		return nil, w, true
	}
	max := r.policy.MaxFileBytes
	if st.Size > max {
		return nil, warnf(diag.FileTooLarge, path, "%d bytes, over the %d-byte cap", st.Size, max), true
	}
	data, err := readFD(fd, st.Size, max, buf)
	if err != nil {
		if errors.Is(err, ErrTooLarge) {
			return nil, warnf(diag.FileTooLarge, path, "grew past the %d-byte cap while read", max), true
		}
		code, msg := ClassifyErr(&fs.PathError{Op: "read", Path: path, Err: err})
		return nil, warnf(code, path, "%s", msg), true
	}
	return &File{Path: path, Rel: r.Rel(path), Size: int64(len(data)), ModTime: time.Unix(st.Mtim.Unix()),
		Mode: state.UnixMode(st.Mode), Content: data, Binary: IsBinary(data)}, nil, true
}

// openBeneath opens rel (relative to the root, slash-separated) with
// openat2 and beneathHow from the root's descriptor.
func (d *Dir) openBeneath(rel string) (int, error) {
	for {
		fd, err := unix.Openat2(d.fd, rel, &beneathHow)
		if err != unix.EINTR {
			return fd, err
		}
	}
}

// openNoFollow opens rel in d with no symbolic link anywhere on the way
// (openat2 RESOLVE_NO_SYMLINKS from the root's descriptor), so a directory
// swapped for a link since rel was resolved fails the open (ELOOP) instead
// of being followed; without a descriptor, through the os.Root with
// O_NOFOLLOW on the last component.
func (d *Dir) openNoFollow(rel string) (*os.File, error) {
	if d.fd >= 0 {
		fd, err := d.openBeneath(rel)
		switch err {
		case nil:
			return os.NewFile(uintptr(fd), rel), nil
		case unix.ENOSYS, unix.EPERM:
		default:
			return nil, &fs.PathError{Op: "open", Path: rel, Err: err}
		}
	}
	return d.os.OpenFile(rel, OpenFlags|unix.O_NOFOLLOW, 0)
}

// readFD reads the regular file fd, which fstat said holds size bytes, into
// one buffer of size+1: one read when the size still holds. A read that
// returns size bytes is taken as the end (the file is as fstat said); one
// that fills the buffer means the file grew, and reading goes on to the end
// or past max (ErrTooLarge); a short one means it shrank, and reading goes
// on to the end. At most max+1 bytes are ever read.
func readFD(fd int, size, max int64, buf []byte) ([]byte, error) {
	hint := size
	if hint < 0 || hint > max {
		hint = max
	}
	if int64(cap(buf)) > hint {
		buf = buf[:hint+1]
	} else {
		buf = make([]byte, hint+1)
	}
	n := 0
	for {
		if n == len(buf) {
			if int64(n) > max {
				return nil, ErrTooLarge
			}
			grow := int(min(int64(n)+512, max+1-int64(n)))
			buf = slices.Grow(buf, grow)
			buf = buf[:cap(buf)]
			if int64(len(buf)) > max+1 {
				buf = buf[:max+1]
			}
		}
		m, err := unix.Read(fd, buf[n:])
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return nil, err
		}
		if m == 0 {
			return buf[:n], nil
		}
		n += m
		if int64(n) > max {
			return nil, ErrTooLarge
		}
		if int64(n) == size {
			return buf[:n], nil
		}
	}
}

func retryEINTR(f func() error) error {
	for {
		if err := f(); err != unix.EINTR {
			return err
		}
	}
}

// ReadSmall reads the regular file name (slash-separated, relative to d)
// whole, at most max bytes, with one openat2 beneath d that follows no
// symbolic link, where the *os.Root opens a path one component at a time,
// an openat and a close for each directory on the way (which adds up for
// the many small files of a walk: deep .gitignore files). declined is true
// when that way does not apply (no descriptor, a symbolic link on the way,
// an odd name) and the caller reads another way. A file over max is
// ErrTooLarge, one that is not regular ErrNotRegular.
func (d *Dir) ReadSmall(name string, max int64) (data []byte, declined bool, err error) {
	if d.fd < 0 || !fs.ValidPath(name) {
		return nil, true, nil
	}
	fd, err := d.openBeneath(name)
	switch err {
	case nil:
	case unix.ELOOP, unix.EXDEV, unix.ENOSYS, unix.EAGAIN:
		return nil, true, nil
	default:
		return nil, false, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := retryEINTR(func() error { return unix.Fstat(fd, &st) }); err != nil {
		return nil, false, &fs.PathError{Op: "stat", Path: name, Err: err}
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG {
		return nil, false, ErrNotRegular
	}
	data, err = readFD(fd, st.Size, max, nil)
	return data, false, err
}
