package walk

import (
	"io/fs"
	"os"
	"sync/atomic"
	"syscall"

	"github.com/taskctl/taskctl/root"
)

// dirHandle is an open directory of a walk: a raw descriptor, listed with
// the root's getdents64 reader (root.ListFD).
type dirHandle struct {
	fd   int
	refs atomic.Int32
}

func (h *dirHandle) close() { syscall.Close(h.fd) }

// openDir opens directory name of parent with openat(O_NOFOLLOW|O_DIRECTORY)
// (root.OpenDirAt): one system call, no symlink followed, so the child is a
// real directory inside parent. A start directory (parent nil) is opened
// through the root and re-opened with openat(".").
func openDir(r *Tree, parent *dirHandle, name, display string) (*dirHandle, error) {
	if parent == nil {
		f, err := r.d.OS().Open(name)
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
	fd, err := root.OpenDirAt(parent, name, display)
	if err != nil {
		if pe, ok := err.(*fs.PathError); ok {
			return nil, &os.PathError{Op: pe.Op, Path: pe.Path, Err: pe.Err}
		}
		return nil, err
	}
	return &dirHandle{fd: fd}, nil
}

// list calls fn for each entry but "." and "..", with its type from the
// directory entry; fs.ModeIrregular when the file system does not say.
func (h *dirHandle) list(buf *[]byte, fn func(name []byte, typ fs.FileMode)) error {
	return root.ListFD(h.fd, buf, fn)
}

const dirFlags = root.DirFlags
