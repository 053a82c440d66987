//go:build !linux

package shellexec

import (
	"io/fs"
	"os"
	"syscall"
)

// A walkDir is a directory open during a walk (find, grep -r): an
// *os.Root, so opening an entry costs one lookup and stays inside.
type walkDir struct{ root *os.Root }

// openWalk opens the directory name (relative to dir) through the
// project's os.Root for a walk.
func (f *projectFS) openWalk(dir, name string) (*walkDir, error) {
	r, err := f.openDir(dir, name)
	if err != nil {
		return nil, err
	}
	return &walkDir{root: r}, nil
}

// sub opens the subdirectory name, as list returned it.
func (d *walkDir) sub(name, shown string) (*walkDir, error) {
	if isStateName(name) {
		return nil, &fs.PathError{Op: "open", Path: shown, Err: &stateError{dir: name}}
	}
	r, err := d.root.OpenRoot(name)
	if err != nil {
		return nil, pathErr("open", shown, err)
	}
	return &walkDir{root: r}, nil
}

func (d *walkDir) close() { d.root.Close() }

// list returns the entries of d in readdir order.
func (d *walkDir) list(shown string, _ func(string) (fs.FileMode, error)) ([]dent, error) {
	fh, err := d.root.Open(".")
	if err != nil {
		return nil, pathErr("open", shown, err)
	}
	defer fh.Close()
	ents, err := fh.ReadDir(-1)
	out := make([]dent, 0, len(ents))
	for _, e := range ents {
		out = append(out, dent{name: e.Name(), typ: e.Type()})
	}
	if err != nil {
		return out, pathErr("readdir", shown, err)
	}
	return out, nil
}

// readFile reads the regular file name of d into buf (grown as needed).
// charge is asked for the file's size before it is read.
func (d *walkDir) readFile(name, shown string, buf []byte, charge func(int64) error) ([]byte, bool, error) {
	fh, err := d.root.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOCTTY, 0)
	if err != nil {
		return nil, true, pathErr("open", shown, err)
	}
	defer fh.Close()
	if fi, err := fh.Stat(); err == nil && int64(cap(buf)) <= fi.Size() {
		if err := charge(fi.Size() + 1); err != nil {
			return nil, true, &fs.PathError{Op: "read", Path: shown, Err: err}
		}
	}
	data, err := readOpened(fh, shown, buf)
	return data, true, err
}

// scanFile does not apply here: callers read the whole file.
func (d *walkDir) scanFile(_, _ string, buf []byte, _ byte, _ func([]byte) bool) (bool, []byte, bool, error) {
	return false, buf, false, nil
}

// openDir opens the directory name (relative to dir) as a Root.
func (f *projectFS) openDir(dir, name string) (*os.Root, error) {
	fh, real, err := f.open(dir, name, openOpts{})
	if err != nil {
		return nil, err
	}
	fh.Close()
	d, err := f.root.OpenRoot(real)
	if err != nil {
		return nil, f.pathErr("open", dir, name, err)
	}
	return d, nil
}
