package walk

import (
	"io/fs"
	"os"
	"path"
	"time"

	"golang.org/x/sys/unix"

	"github.com/taskctl/taskctl/state"
)

// canStampDirs reports whether directories of r can be stat'ed relative to
// a descriptor of it, which the walk cache needs.
func canStampDirs(r *Tree) bool { return r.fd() >= 0 }

// stampAt returns the stamp of directory rel of r ("" for r itself),
// without following a symlink in its last component; ok is false if it
// is not a directory or cannot be stat'ed. buf is lstatAt's.
func stampAt(r *Tree, rel string, buf *[]byte) (dirStamp, bool) {
	if r.fd() < 0 {
		return dirStamp{}, false
	}
	if rel == "" {
		rel = "."
	}
	var st unix.Stat_t
	if err := lstatAt(r.fd(), rel, &st, buf); err != nil || st.Mode&unix.S_IFMT != unix.S_IFDIR {
		return dirStamp{}, false
	}
	return stampOf(&st), true
}

// stamp returns the stamp of an open directory.
func (h *dirHandle) stamp() (dirStamp, bool) {
	var st unix.Stat_t
	err := unix.Fstat(h.fd, &st)
	for err == unix.EINTR {
		err = unix.Fstat(h.fd, &st)
	}
	if err != nil {
		return dirStamp{}, false
	}
	return stampOf(&st), true
}

func stampOf(st *unix.Stat_t) dirStamp {
	return dirStamp{ino: st.Ino, ctime: st.Ctim.Nano(), mtime: st.Mtim.Nano()}
}

// openDirBeneath opens directory rel of r with openat2 from r's descriptor,
// following no symlink on the way (RESOLVE_BENEATH|RESOLVE_NO_SYMLINKS and
// O_NOFOLLOW), for a directory whose parent was not opened (its listing
// came from the walk cache). Where openat2 is refused it opens rel through
// the root, as a start directory is opened.
func openDirBeneath(r *Tree, rel, display string) (*dirHandle, error) {
	if r.fd() >= 0 {
		how := unix.OpenHow{
			Flags:   uint64(dirFlags),
			Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS,
		}
		for {
			fd, err := unix.Openat2(r.fd(), rel, &how)
			if err == unix.EINTR || err == unix.EAGAIN {
				continue
			}
			if err == nil {
				return &dirHandle{fd: fd}, nil
			}
			if err != unix.ENOSYS && err != unix.EPERM {
				return nil, &fs.PathError{Op: "openat2", Path: display, Err: err}
			}
			break
		}
	}
	return openDir(r, nil, rel, display)
}

// Lstat is os.Lstat(full) for the entry rel of r, stat'ed relative to r's
// descriptor (a shorter lookup than the absolute path's, and no
// *os.fileStat): what a walk does for every file. The result is into,
// filled in. buf is lstatAt's.
func (r *Tree) Lstat(full, rel string, into *StatInfo, buf *[]byte) (fs.FileInfo, error) {
	if r.fd() < 0 {
		return os.Lstat(full)
	}
	var st unix.Stat_t
	if err := lstatAt(r.fd(), rel, &st, buf); err != nil {
		return nil, &fs.PathError{Op: "lstat", Path: full, Err: err}
	}
	*into = StatInfo{name: path.Base(rel), size: st.Size, mtime: time.Unix(st.Mtim.Unix()), nlink: uint64(st.Nlink), ino: st.Ino}
	fi := into
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFREG:
		fi.mode = state.UnixMode(st.Mode)
	case unix.S_IFDIR:
		fi.mode = fs.ModeDir | fs.FileMode(st.Mode&0o777)
	case unix.S_IFLNK:
		fi.mode = fs.ModeSymlink | fs.FileMode(st.Mode&0o777)
	default:
		fi.mode = fs.ModeIrregular | fs.FileMode(st.Mode&0o777)
	}
	return fi, nil
}
