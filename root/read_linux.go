package root

import (
	"errors"
	"io/fs"
	"slices"
	"time"

	"github.com/taskctl/taskctl/internal/diag"
	"github.com/taskctl/taskctl/state"
	"golang.org/x/sys/unix"
)

// readBeneath is Read's way on Linux: openFile (vetStat: an fstatat, so
// special files are never opened; openat2 below the root's descriptor;
// fstat), and reads into one buffer sized from the fstat, all on a raw
// descriptor (no *os.File, no poller). ok is false when it declines: no
// descriptor, or the path is not a regular file reached without a
// symlink, or the open failed; Read then takes the os.Root way, which says
// what the path is. Once the file is open, what happens is reported as
// readRoot would report it.
func (r *Root) readBeneath(d *Dir, path, rel, given string, buf []byte) (f *File, w *diag.Warning, ok bool) {
	fd, st, err := d.openFile(rel, vetStat)
	if err != nil {
		return nil, nil, false
	}
	defer unix.Close(fd)
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
// whole, at most max bytes, with openFile (vetPath: one openat2 for a
// missing file, the most common case), where the *os.Root opens a path one
// component at a time, an openat and a close for each directory on the
// way (which adds up for the many small files of a walk: deep .gitignore
// files). declined is true when that way does not apply (no descriptor, a
// symbolic link on the way, an odd name) and the caller reads another way.
// A file over max is ErrTooLarge, one that is not regular ErrNotRegular.
func (d *Dir) ReadSmall(name string, max int64) (data []byte, declined bool, err error) {
	if d.fd < 0 || !fs.ValidPath(name) {
		return nil, true, nil
	}
	fd, st, err := d.openFile(name, vetPath)
	switch err {
	case nil:
	case errNoBeneath, errLink, ErrOutside, ErrSwapped:
		return nil, true, nil
	case ErrNotRegular:
		return nil, false, ErrNotRegular
	default:
		return nil, false, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	defer unix.Close(fd)
	if st.Mode&unix.S_IFMT != unix.S_IFREG {
		return nil, false, ErrNotRegular
	}
	data, err = readFD(fd, st.Size, max, nil)
	return data, false, err
}
