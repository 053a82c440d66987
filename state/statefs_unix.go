//go:build unix

package state

import (
	"io/fs"
	"path/filepath"
	"time"

	"golang.org/x/sys/unix"
)

// The operations of a Dir that the file operations of agents (FS)
// need besides those of taskctl's own state: what a name is without
// following it, renaming between two held directories, removing an empty
// directory.

// A NameInfo is what lstat says of a name in a Dir.
type NameInfo struct {
	Name    string
	Mode    fs.FileMode // the type bits as fs.FileMode has them, and the permissions
	Size    int64
	ModTime time.Time
	Links   uint64
}

// Lstat says what name is in d, without following a symbolic link.
func (d *Dir) Lstat(name string) (NameInfo, error) {
	if err := d.checkName(name); err != nil {
		return NameInfo{}, err
	}
	var st unix.Stat_t
	if err := eintr(func() error { return unix.Fstatat(d.fd, name, &st, unix.AT_SYMLINK_NOFOLLOW) }); err != nil {
		return NameInfo{}, &fs.PathError{Op: "lstat", Path: filepath.Join(d.path, name), Err: err}
	}
	return NameInfo{Name: name, Mode: UnixMode(uint32(st.Mode)), Size: st.Size,
		ModTime: time.Unix(st.Mtim.Unix()), Links: uint64(st.Nlink)}, nil
}

// UnixMode turns a stat mode into an fs.FileMode, as os.Lstat does.
func UnixMode(m uint32) fs.FileMode {
	mode := fs.FileMode(m & 0o777)
	if m&unix.S_ISGID != 0 {
		mode |= fs.ModeSetgid
	}
	if m&unix.S_ISUID != 0 {
		mode |= fs.ModeSetuid
	}
	if m&unix.S_ISVTX != 0 {
		mode |= fs.ModeSticky
	}
	switch m & unix.S_IFMT {
	case unix.S_IFDIR:
		mode |= fs.ModeDir
	case unix.S_IFLNK:
		mode |= fs.ModeSymlink
	case unix.S_IFIFO:
		mode |= fs.ModeNamedPipe
	case unix.S_IFSOCK:
		mode |= fs.ModeSocket
	case unix.S_IFCHR:
		mode |= fs.ModeDevice | fs.ModeCharDevice
	case unix.S_IFBLK:
		mode |= fs.ModeDevice
	}
	return mode
}

// Rename renames name in d to toName in to, which may be d. Without
// replace, an existing toName is left as it is and the rename fails with
// an *fs.PathError holding fs.ErrExist (atomically on Linux). Whatever
// stands at either name, a rename moves names, never follows a symbolic
// link nor writes through a hard link.
func (d *Dir) Rename(name string, to *Dir, toName string, replace bool) error {
	if err := d.checkName(name); err != nil {
		return err
	}
	if err := to.checkName(toName); err != nil {
		return err
	}
	var err error
	if replace {
		err = eintr(func() error { return unix.Renameat(d.fd, name, to.fd, toName) })
	} else {
		err = renameNoReplace(d.fd, name, to.fd, toName)
	}
	if err != nil {
		return &fs.PathError{Op: "rename", Path: filepath.Join(to.path, toName), Err: err}
	}
	return nil
}

// RemoveDir removes the empty directory name from d.
func (d *Dir) RemoveDir(name string) error {
	if err := d.checkName(name); err != nil {
		return err
	}
	if err := unix.Unlinkat(d.fd, name, unix.AT_REMOVEDIR); err != nil {
		return &fs.PathError{Op: "remove", Path: filepath.Join(d.path, name), Err: err}
	}
	return nil
}

// SubDir opens the directory name in d without following a symbolic link
// (an *UnsafeError if one, or anything but a directory, is there), making
// it (mode 0755, and nothing in it) when it is missing and create is set.
// Unlike Make it writes no .gitignore: the directories of agents'
// files are theirs.
func (d *Dir) SubDir(name string, create bool) (sub *Dir, made bool, err error) {
	if err := d.checkName(name); err != nil {
		return nil, false, err
	}
	fd, err := openDirAt(d.fd, name)
	if err == unix.ENOENT && create {
		if err = unix.Mkdirat(d.fd, name, 0o755); err == nil || err == unix.EEXIST {
			made = err == nil
			fd, err = openDirAt(d.fd, name)
		}
	}
	if err != nil {
		return nil, false, d.refusal("open", name, err, true)
	}
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil || st.Mode&unix.S_IFMT != unix.S_IFDIR {
		unix.Close(fd)
		return nil, false, &UnsafeError{Path: filepath.Join(d.path, name), Reason: "not a directory"}
	}
	return &Dir{path: filepath.Join(d.path, name), fd: fd}, made, nil
}

// CommitNew is Commit for a name that must not exist yet: an existing
// file there is left as it is and CommitNew fails with an *fs.PathError
// holding fs.ErrExist (atomically on Linux).
func (p *PendingFile) CommitNew() error {
	err := p.Close()
	if err == nil {
		if rerr := renameNoReplace(p.d.fd, p.tmp, p.d.fd, p.name); rerr != nil {
			err = &fs.PathError{Op: "rename", Path: filepath.Join(p.d.path, p.name), Err: rerr}
		}
	}
	if err != nil {
		unix.Unlinkat(p.d.fd, p.tmp, 0)
	}
	return err
}

// eintr calls f again while it is interrupted by a signal.
func eintr(f func() error) error {
	for {
		if err := f(); err != unix.EINTR {
			return err
		}
	}
}
