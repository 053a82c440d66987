//go:build !linux

package root

import (
	"io/fs"
	"os"
	"syscall"
)

// A Handle is a directory open during a command's walk (find, grep -r):
// an *os.Root, so opening an entry costs one lookup and stays inside.
type Handle struct{ root *os.Root }

// OpenHandle opens the directory rel (root-relative) for a walk, as every
// path of a command is opened (Open), as an *os.Root.
func (s *Shell) OpenHandle(rel string) (*Handle, error) {
	fh, real, err := s.Open(rel, 0)
	if err != nil {
		return nil, err
	}
	fh.Close()
	d, err := s.d.os.OpenRoot(real)
	if err != nil {
		return nil, err
	}
	return &Handle{root: d}, nil
}

// Sub opens the subdirectory name, as List returned it.
func (h *Handle) Sub(name, shown string) (*Handle, error) {
	if AlwaysExcluded(name) {
		return nil, &fs.PathError{Op: "open", Path: shown, Err: &StateError{Dir: name}}
	}
	r, err := h.root.OpenRoot(name)
	if err != nil {
		return nil, CommandPathError("open", shown, err)
	}
	return &Handle{root: r}, nil
}

// Close closes h.
func (h *Handle) Close() { h.root.Close() }

// List returns the entries of h in readdir order.
func (h *Handle) List(shown string, _ func(string) (fs.FileMode, error)) ([]Dirent, error) {
	fh, err := h.root.Open(".")
	if err != nil {
		return nil, CommandPathError("open", shown, err)
	}
	defer fh.Close()
	ents, err := fh.ReadDir(-1)
	out := make([]Dirent, 0, len(ents))
	for _, e := range ents {
		out = append(out, Dirent{name: e.Name(), typ: e.Type()})
	}
	if err != nil {
		return out, CommandPathError("readdir", shown, err)
	}
	return out, nil
}

// ReadFile reads the regular file name of h into buf (grown as needed).
// charge is asked for the file's size before it is read.
func (h *Handle) ReadFile(name, shown string, buf []byte, charge func(int64) error) ([]byte, bool, error) {
	fh, err := h.root.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOCTTY, 0)
	if err != nil {
		return nil, true, CommandPathError("open", shown, err)
	}
	defer fh.Close()
	if fi, err := fh.Stat(); err == nil && int64(cap(buf)) <= fi.Size() {
		if err := charge(fi.Size() + 1); err != nil {
			return nil, true, &fs.PathError{Op: "read", Path: shown, Err: err}
		}
	}
	data, err := ReadOpened(fh, shown, buf)
	return data, true, err
}
