//go:build unix

package state

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/sys/unix"
)

// openDir opens path from the root directory down, each component
// with openat(O_DIRECTORY|O_NOFOLLOW) relative to the one before, so that
// no symbolic link is followed and what is opened is what was checked;
// with create, a missing directory is made (mkdirat) with a .gitignore.
func openDir(path string, create bool) (*Dir, error) {
	if !filepath.IsAbs(path) {
		return nil, fmt.Errorf("state directory %s: not an absolute path", path)
	}
	path = filepath.Clean(path)
	fd, err := openDirAt(unix.AT_FDCWD, "/")
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: "/", Err: err}
	}
	d := &Dir{path: "/", fd: fd}
	for _, c := range strings.Split(path, "/") {
		if c == "" {
			continue
		}
		next, err := d.subdir(c, create, 0o755)
		d.Close()
		if err != nil {
			return nil, err
		}
		d = next
	}
	return d, nil
}

// openDirAt opens the directory name relative to dirfd, without following
// a symbolic link, with a descriptor good for *at calls.
func openDirAt(dirfd int, name string) (int, error) {
	for {
		fd, err := unix.Openat(dirfd, name, unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC|dirOpenFlag, 0)
		if err != unix.EINTR {
			return fd, err
		}
	}
}

// subdir opens the directory name in d (made, with a .gitignore, if it is
// missing and create is set).
func (d *Dir) subdir(name string, create bool, perm fs.FileMode) (*Dir, error) {
	made := false
	fd, err := openDirAt(d.fd, name)
	if err == unix.ENOENT && create {
		if err = unix.Mkdirat(d.fd, name, uint32(perm.Perm())); err == nil || err == unix.EEXIST {
			made = err == nil
			fd, err = openDirAt(d.fd, name)
		}
	}
	p := filepath.Join(d.path, name)
	if err != nil {
		return nil, d.refusal("open", name, err, true)
	}
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil || st.Mode&unix.S_IFMT != unix.S_IFDIR {
		unix.Close(fd)
		return nil, &UnsafeError{Path: p, Reason: "not a directory"}
	}
	sub := &Dir{path: p, fd: fd}
	if made {
		if err := sub.WriteNew(".gitignore", []byte("*\n"), 0o644); err != nil && !errors.Is(err, fs.ErrExist) {
			sub.Close()
			return nil, err
		}
	}
	return sub, nil
}

// Dir opens the directory name in d.
func (d *Dir) Dir(name string) (*Dir, error) {
	if err := d.checkName(name); err != nil {
		return nil, err
	}
	return d.subdir(name, false, 0)
}

// Mkdir makes the directory name in d with perm (an *fs.PathError holding
// fs.ErrExist if the name is taken).
func (d *Dir) Mkdir(name string, perm fs.FileMode) error {
	if err := d.checkName(name); err != nil {
		return err
	}
	if err := unix.Mkdirat(d.fd, name, uint32(perm.Perm())); err != nil {
		return &fs.PathError{Op: "mkdir", Path: filepath.Join(d.path, name), Err: err}
	}
	return nil
}

// Close closes the directory.
func (d *Dir) Close() error {
	if d.fd < 0 {
		return nil
	}
	err := unix.Close(d.fd)
	d.fd = -1
	return err
}

// refusal turns the error of opening name in d into an *UnsafeError when a
// symbolic link or a file of the wrong kind is in its way (told by an
// lstat of the name, which opens nothing), else into an *fs.PathError.
func (d *Dir) refusal(op, name string, err error, wantDir bool) error {
	p := filepath.Join(d.path, name)
	var st unix.Stat_t
	if err != unix.ENOENT && unix.Fstatat(d.fd, name, &st, unix.AT_SYMLINK_NOFOLLOW) == nil {
		if r := unsafeReason(&st, wantDir); r != "" {
			return &UnsafeError{Path: p, Reason: r}
		}
	}
	return &fs.PathError{Op: op, Path: p, Err: err}
}

// unsafeReason says why st, what lstat or fstat says of a name in a state
// directory, is not what taskctl may use there ("" if it may): a
// directory for wantDir, else a regular file of one link.
func unsafeReason(st *unix.Stat_t, wantDir bool) string {
	kind := ""
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFDIR:
		if wantDir {
			return ""
		}
		kind = "a directory"
	case unix.S_IFREG:
		if wantDir {
			kind = "a file"
		} else if st.Nlink > 1 {
			return fmt.Sprintf("a file with %d links (a hard link)", st.Nlink)
		} else {
			return ""
		}
	case unix.S_IFLNK:
		kind = "a symlink"
	case unix.S_IFIFO:
		kind = "a FIFO"
	case unix.S_IFSOCK:
		kind = "a socket"
	default:
		kind = "a device"
	}
	if wantDir {
		return "not a directory (" + kind + ")"
	}
	return "not a regular file (" + kind + ")"
}

// openFile opens name in d with flag (O_NOFOLLOW, O_NONBLOCK, O_NOCTTY and
// O_CLOEXEC added): an lstat first refuses what is there and is no regular
// file of one link without opening it, and an fstat of what was opened
// refuses it too (a name swapped in between). The file is blocking.
func (d *Dir) openFile(name string, flag int, perm fs.FileMode) (*os.File, error) {
	if err := d.checkName(name); err != nil {
		return nil, err
	}
	var st unix.Stat_t
	if err := unix.Fstatat(d.fd, name, &st, unix.AT_SYMLINK_NOFOLLOW); err == nil {
		if r := unsafeReason(&st, false); r != "" {
			return nil, &UnsafeError{Path: filepath.Join(d.path, name), Reason: r}
		}
	}
	var fd int
	var err error
	for {
		fd, err = unix.Openat(d.fd, name, flag|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_NOCTTY|unix.O_CLOEXEC, uint32(perm.Perm()))
		if err != unix.EINTR {
			break
		}
	}
	if err != nil {
		return nil, d.refusal("open", name, err, false)
	}
	if err := unix.Fstat(fd, &st); err != nil {
		unix.Close(fd)
		return nil, &fs.PathError{Op: "stat", Path: filepath.Join(d.path, name), Err: err}
	}
	if r := unsafeReason(&st, false); r != "" {
		unix.Close(fd)
		return nil, &UnsafeError{Path: filepath.Join(d.path, name), Reason: r}
	}
	if err := unix.SetNonblock(fd, false); err != nil {
		unix.Close(fd)
		return nil, err
	}
	return os.NewFile(uintptr(fd), filepath.Join(d.path, name)), nil
}

// Open opens name for reading.
func (d *Dir) Open(name string) (*os.File, error) {
	return d.openFile(name, unix.O_RDONLY, 0)
}

// OpenAppend opens name for appending, creating it with perm if it is
// missing.
func (d *Dir) OpenAppend(name string, perm fs.FileMode) (*os.File, error) {
	return d.openFile(name, unix.O_WRONLY|unix.O_APPEND|unix.O_CREAT, perm)
}

// Lock takes an exclusive advisory lock (flock) on name, creating it if it
// is missing, and waits for it. The kernel drops the lock when the process
// dies, so a killed holder never leaves a stale lock behind.
func (d *Dir) Lock(name string) (unlock func(), err error) {
	f, err := d.openFile(name, unix.O_RDWR|unix.O_CREAT, 0o644)
	if err != nil {
		return nil, err
	}
	for {
		err = unix.Flock(int(f.Fd()), unix.LOCK_EX)
		if err != unix.EINTR {
			break
		}
	}
	if err != nil {
		f.Close()
		return nil, &fs.PathError{Op: "flock", Path: f.Name(), Err: err}
	}
	return func() {
		unix.Flock(int(f.Fd()), unix.LOCK_UN)
		f.Close()
	}, nil
}

// WriteNew creates name with data (O_EXCL, which follows no symbolic
// link). A regular file already there is left as it is (it is not
// written, whatever its links): an *fs.PathError holding fs.ErrExist;
// anything else there is an *UnsafeError.
func (d *Dir) WriteNew(name string, data []byte, perm fs.FileMode) error {
	if err := d.checkName(name); err != nil {
		return err
	}
	fd, err := unix.Openat(d.fd, name, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, uint32(perm.Perm()))
	if err == unix.EEXIST {
		var st unix.Stat_t
		if unix.Fstatat(d.fd, name, &st, unix.AT_SYMLINK_NOFOLLOW) == nil && st.Mode&unix.S_IFMT != unix.S_IFREG {
			return &UnsafeError{Path: filepath.Join(d.path, name), Reason: unsafeReason(&st, false)}
		}
	}
	if err != nil {
		return &fs.PathError{Op: "create", Path: filepath.Join(d.path, name), Err: err}
	}
	f := os.NewFile(uintptr(fd), filepath.Join(d.path, name))
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// A PendingFile is a new version of a file of a Dir being written: a
// temporary file in the same directory, which Commit renames over the
// file's name, so that a reader sees the old file or the whole new one, and
// a writer killed midway leaves the old one (and a temporary file, which
// PendingOf recognises).
type PendingFile struct {
	*os.File
	d         *Dir
	tmp, name string
}

// Create starts a new version of name, made with perm. The name must hold
// a regular file or nothing (a symbolic link or a special file there is a
// *UnsafeError, checked again by Commit); a regular file with other links
// is replaced, not written.
func (d *Dir) Create(name string, perm fs.FileMode) (*PendingFile, error) {
	if err := d.checkReplaceable(name); err != nil {
		return nil, err
	}
	for range 16 {
		tmp := pendingName(name)
		fd, err := unix.Openat(d.fd, tmp, unix.O_RDWR|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, uint32(perm.Perm()))
		if err == unix.EEXIST || err == unix.EINTR {
			continue
		}
		if err != nil {
			return nil, &fs.PathError{Op: "create", Path: filepath.Join(d.path, tmp), Err: err}
		}
		return &PendingFile{File: os.NewFile(uintptr(fd), filepath.Join(d.path, tmp)), d: d, tmp: tmp, name: name}, nil
	}
	return nil, &fs.PathError{Op: "create", Path: filepath.Join(d.path, name), Err: fs.ErrExist}
}

// checkReplaceable refuses name unless it holds a regular file or nothing.
func (d *Dir) checkReplaceable(name string) error {
	if err := d.checkName(name); err != nil {
		return err
	}
	var st unix.Stat_t
	if unix.Fstatat(d.fd, name, &st, unix.AT_SYMLINK_NOFOLLOW) == nil && st.Mode&unix.S_IFMT != unix.S_IFREG {
		return &UnsafeError{Path: filepath.Join(d.path, name), Reason: unsafeReason(&st, false)}
	}
	return nil
}

// Commit closes the file (syncing it first when sync is set) and renames
// it over its name. On failure the temporary file is removed.
func (p *PendingFile) Commit(sync bool) error {
	var err error
	if sync {
		err = p.Sync()
	}
	if cerr := p.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = p.d.checkReplaceable(p.name)
	}
	if err == nil {
		if rerr := unix.Renameat(p.d.fd, p.tmp, p.d.fd, p.name); rerr != nil {
			err = &fs.PathError{Op: "rename", Path: filepath.Join(p.d.path, p.name), Err: rerr}
		}
	}
	if err != nil {
		unix.Unlinkat(p.d.fd, p.tmp, 0)
	}
	return err
}

// Abort closes and removes the temporary file.
func (p *PendingFile) Abort() {
	p.Close()
	unix.Unlinkat(p.d.fd, p.tmp, 0)
}

// Exists reports whether anything is at name (not following a symbolic
// link).
func (d *Dir) Exists(name string) bool {
	var st unix.Stat_t
	return d.checkName(name) == nil && unix.Fstatat(d.fd, name, &st, unix.AT_SYMLINK_NOFOLLOW) == nil
}

// RemoveFile removes name if it is a regular file (a symbolic link, a
// directory or a special file there is left as it is, and an error).
func (d *Dir) RemoveFile(name string) error {
	if err := d.checkName(name); err != nil {
		return err
	}
	var st unix.Stat_t
	if err := unix.Fstatat(d.fd, name, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		return &fs.PathError{Op: "remove", Path: filepath.Join(d.path, name), Err: err}
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG {
		return &fs.PathError{Op: "remove", Path: filepath.Join(d.path, name), Err: ErrNotRegular}
	}
	if err := unix.Unlinkat(d.fd, name, 0); err != nil {
		return &fs.PathError{Op: "remove", Path: filepath.Join(d.path, name), Err: err}
	}
	return nil
}

// ReadDir returns the entries of the directory sorted by name, as
// os.ReadDir does.
func (d *Dir) ReadDir() ([]fs.DirEntry, error) {
	fd, err := unix.Openat(d.fd, ".", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: d.path, Err: err}
	}
	f := os.NewFile(uintptr(fd), d.path)
	defer f.Close()
	ents, err := f.ReadDir(-1)
	slices.SortFunc(ents, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return ents, err
}
