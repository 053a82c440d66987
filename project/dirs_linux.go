package project

import (
	"os"
	"syscall"
)

// openChild opens the subdirectory name of the open directory parent with
// openat(O_NOFOLLOW|O_DIRECTORY): one system call, no symlink followed, so
// the child is a real directory inside parent. Unlike a directory opened
// through os.Root, a file made by os.NewFile lists entries without an lstat
// each (os.Root's files must stat every entry eagerly).
func openChild(_ *rootDir, parent *os.File, name, display string) (*os.File, error) {
	fd, err := openat(parent, name)
	if err != nil {
		return nil, &os.PathError{Op: "openat", Path: display, Err: err}
	}
	return os.NewFile(uintptr(fd), display), nil
}

// openStart opens a start directory through the root, then re-opens it with
// openat(".") to get a plain, lazily listed file.
func openStart(r *rootDir, rel, display string) (*os.File, error) {
	f, err := r.root.Open(rel)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return openChild(r, f, ".", display)
}

func openat(parent *os.File, name string) (int, error) {
	sc, err := parent.SyscallConn()
	if err != nil {
		return -1, err
	}
	fd := -1
	var oerr error
	cerr := sc.Control(func(pfd uintptr) {
		for {
			fd, oerr = syscall.Openat(int(pfd), name, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_NOFOLLOW|syscall.O_CLOEXEC|syscall.O_NOCTTY, 0)
			if oerr != syscall.EINTR {
				return
			}
		}
	})
	if cerr != nil {
		return -1, cerr
	}
	return fd, oerr
}
