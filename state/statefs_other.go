//go:build !unix

package state

import (
	"io/fs"
	"os"
	"time"
)

// NameInfo is what lstat says of a name in a Dir (see the Unix build).
type NameInfo struct {
	Name    string
	Mode    fs.FileMode
	Size    int64
	ModTime time.Time
	Links   uint64
}

func (d *Dir) Lstat(name string) (NameInfo, error) {
	if err := d.checkName(name); err != nil {
		return NameInfo{}, err
	}
	st, err := os.Lstat(d.join(name))
	if err != nil {
		return NameInfo{}, err
	}
	return NameInfo{Name: name, Mode: st.Mode(), Size: st.Size(), ModTime: st.ModTime(), Links: 1}, nil
}

func (d *Dir) Rename(name string, to *Dir, toName string, replace bool) error {
	if err := d.checkName(name); err != nil {
		return err
	}
	if err := to.checkName(toName); err != nil {
		return err
	}
	if !replace && to.Exists(toName) {
		return &fs.PathError{Op: "rename", Path: to.join(toName), Err: fs.ErrExist}
	}
	return os.Rename(d.join(name), to.join(toName))
}

func (d *Dir) RemoveDir(name string) error {
	if err := d.checkName(name); err != nil {
		return err
	}
	return os.Remove(d.join(name))
}

func (d *Dir) SubDir(name string, create bool) (*Dir, bool, error) {
	if err := d.checkName(name); err != nil {
		return nil, false, err
	}
	made := false
	if create {
		if err := os.Mkdir(d.join(name), 0o755); err == nil {
			made = true
		}
	}
	sub, err := openDir(d.join(name), false)
	return sub, made, err
}

func (p *PendingFile) CommitNew() error {
	err := p.Close()
	if err == nil && p.d.Exists(p.name) {
		err = &fs.PathError{Op: "rename", Path: p.d.join(p.name), Err: fs.ErrExist}
	}
	if err == nil {
		err = os.Rename(p.d.join(p.tmp), p.d.join(p.name))
	}
	if err != nil {
		os.Remove(p.d.join(p.tmp))
	}
	return err
}
