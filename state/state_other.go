//go:build !unix

package state

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// Elsewhere than Unix, a Dir checks names with lstat before it uses
// them, which a concurrent swap can race, and locks by creating a file
// exclusively: taskctl is built there, not hardened there (see the package
// documentation).

func openDir(path string, create bool) (*Dir, error) {
	if !filepath.IsAbs(path) {
		return nil, errors.New("state directory " + path + ": not an absolute path")
	}
	path = filepath.Clean(path)
	for p, prev := path, ""; p != prev; p, prev = filepath.Dir(p), p {
		if st, err := os.Lstat(p); err == nil && st.Mode()&fs.ModeSymlink != 0 {
			return nil, &UnsafeError{Path: p, Reason: "not a directory (a symlink)"}
		}
	}
	if create {
		if err := os.MkdirAll(path, 0o755); err != nil {
			return nil, err
		}
	}
	if st, err := os.Lstat(path); err != nil {
		return nil, err
	} else if !st.IsDir() {
		return nil, &UnsafeError{Path: path, Reason: "not a directory"}
	}
	return &Dir{path: path, fd: -1}, nil
}

func (d *Dir) join(name string) string { return filepath.Join(d.path, name) }

func (d *Dir) checkFile(name string) error {
	if err := d.checkName(name); err != nil {
		return err
	}
	if st, err := os.Lstat(d.join(name)); err == nil && !st.Mode().IsRegular() {
		return &UnsafeError{Path: d.join(name), Reason: "not a regular file (" + st.Mode().Type().String() + ")"}
	}
	return nil
}

func (d *Dir) Dir(name string) (*Dir, error) {
	if err := d.checkName(name); err != nil {
		return nil, err
	}
	return openDir(d.join(name), false)
}

func (d *Dir) Mkdir(name string, perm fs.FileMode) error {
	if err := d.checkName(name); err != nil {
		return err
	}
	return os.Mkdir(d.join(name), perm)
}

func (d *Dir) Close() error { return nil }

func (d *Dir) openFile(name string, flag int, perm fs.FileMode) (*os.File, error) {
	if err := d.checkFile(name); err != nil {
		return nil, err
	}
	return os.OpenFile(d.join(name), flag, perm)
}

func (d *Dir) Open(name string) (*os.File, error) { return d.openFile(name, os.O_RDONLY, 0) }

func (d *Dir) OpenAppend(name string, perm fs.FileMode) (*os.File, error) {
	return d.openFile(name, os.O_WRONLY|os.O_APPEND|os.O_CREATE, perm)
}

func (d *Dir) Lock(name string) (unlock func(), err error) {
	if err := d.checkFile(name); err != nil {
		return nil, err
	}
	excl := d.join(name + ".excl")
	deadline := time.Now().Add(time.Minute)
	for {
		f, err := os.OpenFile(excl, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
		if err == nil {
			f.Close()
			return func() { os.Remove(excl) }, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, err
		}
		if fi, serr := os.Stat(excl); serr == nil && time.Since(fi.ModTime()) > 10*time.Minute {
			os.Remove(excl)
			continue
		}
		if time.Now().After(deadline) {
			return nil, err
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func (d *Dir) WriteNew(name string, data []byte, perm fs.FileMode) error {
	if err := d.checkFile(name); err != nil {
		return err
	}
	f, err := os.OpenFile(d.join(name), os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

type PendingFile struct {
	*os.File
	d         *Dir
	tmp, name string
}

func (d *Dir) Create(name string, perm fs.FileMode) (*PendingFile, error) {
	if err := d.checkFile(name); err != nil {
		return nil, err
	}
	for range 16 {
		tmp := pendingName(name)
		f, err := os.OpenFile(d.join(tmp), os.O_RDWR|os.O_CREATE|os.O_EXCL, perm)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		return &PendingFile{File: f, d: d, tmp: tmp, name: name}, nil
	}
	return nil, &fs.PathError{Op: "create", Path: d.join(name), Err: fs.ErrExist}
}

func (p *PendingFile) Commit(sync bool) error {
	var err error
	if sync {
		err = p.Sync()
	}
	if cerr := p.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = p.d.checkFile(p.name)
	}
	if err == nil {
		err = os.Rename(p.d.join(p.tmp), p.d.join(p.name))
	}
	if err != nil {
		os.Remove(p.d.join(p.tmp))
	}
	return err
}

func (p *PendingFile) Abort() {
	p.Close()
	os.Remove(p.d.join(p.tmp))
}

func (d *Dir) Exists(name string) bool {
	_, err := os.Lstat(d.join(name))
	return d.checkName(name) == nil && err == nil
}

func (d *Dir) RemoveFile(name string) error {
	if err := d.checkName(name); err != nil {
		return err
	}
	st, err := os.Lstat(d.join(name))
	if err != nil {
		return err
	}
	if !st.Mode().IsRegular() {
		return &fs.PathError{Op: "remove", Path: d.join(name), Err: ErrNotRegular}
	}
	return os.Remove(d.join(name))
}

func (d *Dir) ReadDir() ([]fs.DirEntry, error) { return os.ReadDir(d.path) }
