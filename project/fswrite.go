package project

import (
	"errors"
	"io/fs"
	"path/filepath"
	"syscall"

	"github.com/taskctl/taskctl/internal/diag"
	"github.com/taskctl/taskctl/root"
	"github.com/taskctl/taskctl/state"
)

// A WriteResult is what a write, copy, move, delete or mkdir did.
type WriteResult struct {
	Path    string // the file written, made, or removed (absolute)
	Bytes   int64  // its size
	Backup  string // the backup of what was replaced or removed (absolute), or ""
	Created bool   // nothing was at Path before
}

// WriteFile writes data to s (see FS for where and how). Without
// overwrite, an existing file is left as it is (FILE_EXISTS); with it and
// backup, the old content is copied to .taskctl/backups/ first.
func (f *FS) WriteFile(s string, data []byte, overwrite, backup bool) (*WriteResult, *diag.Warning) {
	t, w := f.writeTarget(s)
	if w != nil {
		return nil, w
	}
	return f.writeAt(t, data, overwrite, backup)
}

func (f *FS) writeAt(t *target, data []byte, overwrite, backup bool) (*WriteResult, *diag.Warning) {
	if max := f.p.Policy().MaxFileBytes; int64(len(data)) > max {
		return nil, warnf(diag.FileTooLarge, t.abs, "%d bytes, over the %d-byte cap", len(data), max)
	}
	d, err := f.openParent(t, true)
	if err != nil {
		return nil, refusal(t.abs, err)
	}
	defer d.Close()
	st, exists, w := checkWritable(d, t.name(), t.abs)
	if w != nil {
		return nil, w
	}
	if exists && !overwrite {
		return nil, warnf(diag.FileExists, t.abs, "already exists (ask to overwrite it)")
	}
	res := &WriteResult{Path: t.abs, Bytes: int64(len(data)), Created: !exists}
	perm := fs.FileMode(0o644)
	if exists {
		perm = st.Mode.Perm()
		if backup {
			if res.Backup, w = f.backupCopy(d, t.name(), t.abs); w != nil {
				return nil, w
			}
		}
	}
	pf, err := d.Create(t.name(), perm)
	if err != nil {
		return nil, refusal(t.abs, err)
	}
	if _, err := pf.Write(data); err != nil {
		pf.Abort()
		return nil, refusal(t.abs, err)
	}
	if overwrite {
		err = pf.Commit(false)
	} else {
		err = pf.CommitNew()
	}
	if err != nil {
		return nil, refusal(t.abs, err)
	}
	return res, nil
}

// targetIn resolves s as a write target and opens the directory that
// holds it (made first, with create): the first steps of every operation
// on one file of the write area.
func (f *FS) targetIn(s string, create bool) (*target, *state.Dir, *diag.Warning) {
	t, w := f.writeTarget(s)
	if w != nil {
		return nil, nil, w
	}
	d, err := f.openParent(t, create)
	if err != nil {
		return nil, nil, refusal(t.abs, err)
	}
	return t, d, nil
}

// backupCopy copies name in d (abs) to a new file of .taskctl/backups/
// and returns the copy's path.
func (f *FS) backupCopy(d *state.Dir, name, abs string) (string, *diag.Warning) {
	data, err := d.ReadFile(name, f.p.Policy().MaxFileBytes)
	if err != nil {
		return "", refusal(abs, err)
	}
	bd, err := f.backups()
	if err != nil {
		return "", refusal(abs, err)
	}
	defer bd.Close()
	bn := backupName(abs)
	if err := bd.WriteNew(bn, data, 0o600); err != nil {
		return "", refusal(abs, err)
	}
	pruneBackups(bd, abs)
	return filepath.Join(bd.Path(), bn), nil
}

// Mkdir makes the directory s and the missing directories above it
// (Created false when it was there already).
func (f *FS) Mkdir(s string) (*WriteResult, *diag.Warning) {
	t, d, w := f.targetIn(s, true)
	if w != nil {
		return nil, w
	}
	defer d.Close()
	sub, made, err := d.SubDir(t.name(), true)
	if err != nil {
		return nil, refusal(t.abs, err)
	}
	sub.Close()
	return &WriteResult{Path: t.abs, Created: made}, nil
}

// Copy copies the file src, read as ReadFile reads (so from the project
// or the workspace), to dst, written as WriteFile writes.
func (f *FS) Copy(src, dst string, overwrite, backup bool) (*WriteResult, *diag.Warning) {
	t, w := f.writeTarget(dst)
	if w != nil {
		return nil, w
	}
	file, w := f.ReadFile(src)
	if w != nil {
		return nil, w
	}
	if file.Judged.HoldsSecret() {
		// Redaction shows a secret's place in a read; a copy is the bytes.
		return nil, warnf(diag.SecretDetected, file.Path, "%s: a copy would hold it", file.Judged.SecretReason())
	}
	return f.writeAt(t, file.Content, overwrite, backup)
}

// Move renames the file src to dst, both in the write area. Without
// overwrite an existing dst is left as it is (FILE_EXISTS); with it and
// backup, dst's content is copied to .taskctl/backups/ first.
func (f *FS) Move(src, dst string, overwrite, backup bool) (*WriteResult, *diag.Warning) {
	ts, w := f.writeTarget(src)
	if w != nil {
		return nil, w
	}
	td, w := f.writeTarget(dst)
	if w != nil {
		return nil, w
	}
	sd, err := f.openParent(ts, false)
	if err != nil {
		return nil, refusal(ts.abs, err)
	}
	defer sd.Close()
	st, exists, w := checkWritable(sd, ts.name(), ts.abs)
	if w != nil {
		return nil, w
	}
	if !exists {
		return nil, warnf(diag.PathNotFound, ts.abs, "no such file or directory")
	}
	dd, err := f.openParent(td, true)
	if err != nil {
		return nil, refusal(td.abs, err)
	}
	defer dd.Close()
	_, dexists, w := checkWritable(dd, td.name(), td.abs)
	if w != nil {
		return nil, w
	}
	if dexists && !overwrite {
		return nil, warnf(diag.FileExists, td.abs, "already exists (ask to overwrite it)")
	}
	res := &WriteResult{Path: td.abs, Bytes: st.Size, Created: !dexists}
	if dexists && backup {
		if res.Backup, w = f.backupCopy(dd, td.name(), td.abs); w != nil {
			return nil, w
		}
	}
	if err := sd.Rename(ts.name(), dd, td.name(), overwrite); err != nil {
		return nil, refusal(td.abs, err)
	}
	return res, nil
}

// Delete removes the file s, moving it to .taskctl/backups/ (copied
// there, then removed, across file systems), or the empty directory s.
func (f *FS) Delete(s string) (*WriteResult, *diag.Warning) {
	t, d, w := f.targetIn(s, false)
	if w != nil {
		return nil, w
	}
	defer d.Close()
	st, err := d.Lstat(t.name())
	if err != nil {
		return nil, refusal(t.abs, err)
	}
	if st.Mode.IsDir() {
		if err := d.RemoveDir(t.name()); err != nil {
			return nil, refusal(t.abs, err)
		}
		return &WriteResult{Path: t.abs}, nil
	}
	if _, _, w := checkWritable(d, t.name(), t.abs); w != nil {
		return nil, w
	}
	res := &WriteResult{Path: t.abs, Bytes: st.Size}
	bd, err := f.backups()
	if err != nil {
		return nil, refusal(t.abs, err)
	}
	defer bd.Close()
	bn := backupName(t.abs)
	err = d.Rename(t.name(), bd, bn, false)
	if errors.Is(err, syscall.EXDEV) {
		if res.Backup, w = f.backupCopy(d, t.name(), t.abs); w != nil {
			return nil, w
		}
		err = d.RemoveFile(t.name())
	} else {
		res.Backup = filepath.Join(bd.Path(), bn)
	}
	if err != nil {
		return nil, refusal(t.abs, err)
	}
	pruneBackups(bd, t.abs)
	return res, nil
}

// ReadWritable reads the file s of the write area as a write would find
// it: the path resolved as for a write, no symbolic link followed, a
// regular file of one link.
func (f *FS) ReadWritable(s string) (*root.File, *diag.Warning) {
	t, d, w := f.targetIn(s, false)
	if w != nil {
		return nil, w
	}
	defer d.Close()
	return f.readIn(d, t.name(), t.abs, false, nil)
}

// readIn reads name in d (abs) if it is a regular file of one link; the
// refusal of a symbolic link or a hard link says what was asked: a read
// (justRead), or the read of a write.
func (f *FS) readIn(d *state.Dir, name, abs string, justRead bool, win *root.Window) (*root.File, *diag.Warning) {
	st, exists, w := checkWritable(d, name, abs)
	if w != nil && justRead && w.Code == diag.WriteUnsafe {
		switch {
		case st.Mode&fs.ModeSymlink != 0:
			w = warnf(diag.WriteUnsafe, abs, "is a symbolic link: the workspace is read without following links")
		case st.Links > 1:
			w = warnf(diag.WriteUnsafe, abs, "a file with %d links (a hard link): not read from the workspace", st.Links)
		}
	}
	if w != nil {
		return nil, w
	}
	if !exists {
		return nil, warnf(diag.PathNotFound, abs, "no such file or directory")
	}
	if win != nil {
		return f.readInWindow(d, name, abs, win)
	}
	data, err := d.ReadFile(name, f.p.Policy().MaxFileBytes)
	if err != nil {
		return nil, refusal(abs, err)
	}
	return &root.File{Path: abs, Rel: f.p.fsys.Rel(abs), Size: int64(len(data)), ModTime: st.ModTime, Mode: st.Mode,
		Content: data, Binary: root.IsBinary(data)}, nil
}
