package engine

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"time"

	"github.com/rogpeppe/go-internal/diff"

	"github.com/taskctl/taskctl/internal/diag"
	"github.com/taskctl/taskctl/project"
	"github.com/taskctl/taskctl/root"
)

// FileOpResult is what a write, copy, move, delete or mkdir did (seed
// 001's FileOperationResult).
type FileOpResult struct {
	Operation string    `json:"operation"` // write, create_directory, copy, move, delete, edit
	Path      string    `json:"path"`      // the file written, made or removed (absolute)
	Source    string    `json:"source,omitempty"`
	Bytes     int64     `json:"bytes"`
	Backup    string    `json:"backup,omitempty"` // where the previous content was kept
	Created   bool      `json:"created"`          // nothing was at path before
	SHA256    string    `json:"sha256,omitempty"` // of the content written (write)
	Timestamp time.Time `json:"timestamp"`
	Report
}

// WriteRequest is what WriteFile writes.
type WriteRequest struct {
	Path      string
	Content   []byte
	Overwrite bool // replace an existing file (refused otherwise)
	Backup    bool // keep the replaced content under .taskctl/backups/
	// ExpectSHA256, when set, is the sha256 (hex) of the content the
	// caller read: the file is replaced only if it still holds it
	// (FILE_CHANGED otherwise), checked under the write lock.
	ExpectSHA256 string
}

// WriteFile writes a file of the write area.
func (e *Engine) WriteFile(ctx context.Context, req WriteRequest) (*FileOpResult, error) {
	res, err := e.fsWrite("write", req.Path, "", func(f *project.FS) (*project.WriteResult, *diag.Warning) {
		if req.ExpectSHA256 != "" {
			cur, w := f.ReadWritable(req.Path)
			if w == nil {
				w = expectSHA(cur, req.ExpectSHA256)
			}
			if w != nil {
				return nil, w
			}
		}
		return f.WriteFile(req.Path, req.Content, req.Overwrite, req.Backup)
	})
	if err == nil {
		res.SHA256 = sha256Hex(req.Content)
	}
	return res, err
}

// CreateDirectory makes a directory of the write area and those above it.
func (e *Engine) CreateDirectory(ctx context.Context, path string) (*FileOpResult, error) {
	return e.fsWrite("create_directory", path, "", func(f *project.FS) (*project.WriteResult, *diag.Warning) {
		return f.Mkdir(path)
	})
}

// CopyRequest is what CopyFile and MoveFile do.
type CopyRequest struct {
	Source, Destination string
	Overwrite           bool
	Backup              bool
}

// CopyFile copies a file that can be read (from the project or the
// workspace) into the write area.
func (e *Engine) CopyFile(ctx context.Context, req CopyRequest) (*FileOpResult, error) {
	return e.fsWrite("copy", req.Destination, req.Source, func(f *project.FS) (*project.WriteResult, *diag.Warning) {
		return f.Copy(req.Source, req.Destination, req.Overwrite, req.Backup)
	})
}

// MoveFile renames a file of the write area within it.
func (e *Engine) MoveFile(ctx context.Context, req CopyRequest) (*FileOpResult, error) {
	return e.fsWrite("move", req.Destination, req.Source, func(f *project.FS) (*project.WriteResult, *diag.Warning) {
		return f.Move(req.Source, req.Destination, req.Overwrite, req.Backup)
	})
}

// DeleteFile removes a file of the write area, keeping it under
// .taskctl/backups/, or an empty directory. Without confirm nothing is
// done (CONFIRM_REQUIRED).
func (e *Engine) DeleteFile(ctx context.Context, path string, confirm bool) (*FileOpResult, error) {
	return e.fsWrite("delete", path, "", func(f *project.FS) (*project.WriteResult, *diag.Warning) {
		if !confirm {
			return nil, &diag.Warning{Code: diag.ConfirmRequired, Path: "",
				Message: fmt.Sprintf("deleting %q needs confirmation", path)}
		}
		return f.Delete(path)
	})
}

// BackupInfo is one kept copy of a file.
type BackupInfo struct {
	Name     string    `json:"name"` // what RestoreBackup takes
	Path     string    `json:"path"`
	Size     int64     `json:"size"`
	Modified time.Time `json:"modified"`
}

// BackupList is the backups of one file, oldest first.
type BackupList struct {
	Path    string       `json:"path"`
	Backups []BackupInfo `json:"backups"`
	Kept    int          `json:"kept"` // how many backups of a file are kept
	Report
}

// ListBackups lists the backups .taskctl/backups/ keeps of a file of the
// write area (at most project.BackupsKept: the oldest go when a new one
// is made).
func (e *Engine) ListBackups(ctx context.Context, path string) (*BackupList, error) {
	var ws warnings
	f, err := e.openFS(&ws)
	if err != nil {
		return nil, withWarnings(err, ws)
	}
	abs, all, w := f.ListBackups(path)
	if w != nil {
		return nil, withWarnings(fsError(w), ws)
	}
	res := &BackupList{Path: abs, Backups: []BackupInfo{}, Kept: project.BackupsKept}
	for _, b := range all {
		res.Backups = append(res.Backups, BackupInfo{Name: b.Name, Path: b.Path, Size: b.Size, Modified: b.ModTime.UTC()})
	}
	res.Warnings = ws
	return res, nil
}

// RestoreBackup writes a backup of a file (a name ListBackups gave) back
// over it; what the file held is backed up in turn.
func (e *Engine) RestoreBackup(ctx context.Context, path, name string) (*FileOpResult, error) {
	return e.fsWrite("restore", path, name, func(f *project.FS) (*project.WriteResult, *diag.Warning) {
		return f.RestoreBackup(path, name)
	})
}

// ConfirmHint adds to a CONFIRM_REQUIRED error how the door asking
// confirms ("--yes" on the command line, "confirm: true" over MCP); other
// errors are returned as they are.
func ConfirmHint(err error, how string) error {
	var ee *Error
	if !errors.As(err, &ee) || ee.Code != diag.ConfirmRequired {
		return err
	}
	hinted := *ee
	hinted.Message += " (" + how + ")"
	return withWarnings(&hinted, WarningsOf(err))
}

// fsWrite runs one write operation, under the project's write lock, and
// records it in the audit log.
func (e *Engine) fsWrite(op, path, source string, do func(*project.FS) (*project.WriteResult, *diag.Warning)) (*FileOpResult, error) {
	var ws warnings
	res, err := e.fsWriteLocked(op, path, source, do, &ws)
	return done(res, err, ws)
}

func (e *Engine) fsWriteLocked(op, path, source string, do func(*project.FS) (*project.WriteResult, *diag.Warning), ws *warnings) (*FileOpResult, error) {
	f, err := e.openFS(ws)
	if err != nil {
		return nil, err
	}
	unlock, err := e.lockWrites(true)
	if err != nil {
		return nil, err
	}
	defer unlock()
	r, w := do(f)
	e.auditWrite(ws, op, path, source, r, w)
	if w != nil {
		return nil, fsError(w)
	}
	return &FileOpResult{Operation: op, Path: r.Path, Source: source, Bytes: r.Bytes, Backup: r.Backup,
		Created: r.Created, Timestamp: time.Now().UTC()}, nil
}

// lockWrites takes the project's lock of file operations,
// .taskctl/fs.lock (flock, dropped by the kernel if the process dies):
// every write, edit, copy, move, mkdir and delete of every taskctl
// process on the project holds it from its read to its write, so two
// servers editing one file never lose an edit. Without take it does
// nothing (a dry run).
func (e *Engine) lockWrites(take bool) (func(), error) {
	if !take {
		return func() {}, nil
	}
	p, err := e.Project()
	if err != nil {
		return nil, err
	}
	d, err := p.OpenWorkspace()
	if err != nil {
		return nil, err
	}
	defer d.Close()
	return d.Lock("fs.lock")
}

// expectSHA refuses a file whose content is not the one whose sha256
// (hex) a caller read, when it gives one (FILE_CHANGED).
func expectSHA(file *root.File, want string) *diag.Warning {
	if want == "" {
		return nil
	}
	if got := sha256Hex(file.Content); !strings.EqualFold(got, want) {
		return &diag.Warning{Code: diag.FileChanged, Path: file.Path,
			Message: fmt.Sprintf("changed since it was read: its sha256 is %s, not %s; nothing was written (read it again)", got, want)}
	}
	return nil
}

func sha256Hex(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// auditWrite appends one line to .taskctl/audit.jsonl for a write
// operation, done (r) or refused (w). A log that cannot be written is an
// AUDIT_UNAVAILABLE warning.
func (e *Engine) auditWrite(ws *warnings, op, path, source string, r *project.WriteResult, w *diag.Warning) {
	rec := map[string]any{"time": time.Now().UTC().Format(time.RFC3339Nano), "command": e.opts.Command,
		"op": op, "path": path, "ok": w == nil}
	if source != "" {
		rec["source"] = source
	}
	if r != nil {
		rec["path"], rec["bytes"] = r.Path, r.Bytes
		if r.Backup != "" {
			rec["backup"] = r.Backup
		}
	}
	if w != nil {
		rec["code"] = w.Code
		if w.Path != "" {
			rec["path"] = w.Path
		}
	}
	line, _ := json.Marshal(rec)
	if err := e.appendAudit(append(line, '\n')); err != nil {
		ws.add(diag.Warning{Code: diag.AuditUnavailable, Message: err.Error()})
	}
}

// appendAudit appends line to .taskctl/audit.jsonl through the state
// directory (no symbolic link followed, one link).
func (e *Engine) appendAudit(line []byte) error {
	p, err := e.Project()
	if err != nil {
		return err
	}
	dir, err := p.OpenWorkspace()
	if err != nil {
		return err
	}
	defer dir.Close()
	if err := dir.WriteNew(".gitignore", []byte(WorkspaceGitignore), 0o644); err != nil && !errors.Is(err, fs.ErrExist) {
		return err
	}
	f, err := dir.OpenAppend("audit.jsonl", 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(line)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// Edit is one replacement of an EditRequest.
type Edit struct {
	OldText string `json:"old_text"`
	NewText string `json:"new_text"`
}

// EditRequest is what EditFile changes.
type EditRequest struct {
	Path   string
	Edits  []Edit
	DryRun bool // compute the diff, write nothing
	Backup bool
	// ExpectSHA256, when set, is the sha256 (hex) of the content the
	// caller read: the edit is applied only to that content (FILE_CHANGED
	// otherwise).
	ExpectSHA256 string
}

// EditResult is an edit's unified diff, and what was written.
type EditResult struct {
	Path      string    `json:"path"`
	Diff      string    `json:"diff"`
	DryRun    bool      `json:"dry_run"`
	Bytes     int64     `json:"bytes"`
	Backup    string    `json:"backup,omitempty"`
	SHA256    string    `json:"sha256"` // of the content after the edit (to give the next edit)
	Timestamp time.Time `json:"timestamp"`
	Report
}

// EditFile applies edits to a text file of the write area, in order: each
// old text must occur exactly once in the text the edits before it left
// (EDIT_NO_MATCH, EDIT_AMBIGUOUS), or nothing is written.
func (e *Engine) EditFile(ctx context.Context, req EditRequest) (*EditResult, error) {
	var ws warnings
	res, err := e.editFile(ctx, req, &ws)
	return done(res, err, ws)
}

func (e *Engine) editFile(ctx context.Context, req EditRequest, ws *warnings) (*EditResult, error) {
	if len(req.Edits) == 0 {
		return nil, UsageError("edit_file needs at least one edit")
	}
	f, err := e.openFS(ws)
	if err != nil {
		return nil, err
	}
	unlock, err := e.lockWrites(!req.DryRun)
	if err != nil {
		return nil, err
	}
	defer unlock()
	var text string
	file, w := f.ReadWritable(req.Path)
	if w == nil && file.Binary {
		w = &diag.Warning{Code: diag.FileBinary, Path: file.Path, Message: "binary file: not edited"}
	}
	if w != nil {
		if !req.DryRun {
			e.auditWrite(ws, "edit", req.Path, "", nil, w)
		}
		return nil, fsError(w)
	}
	if w = expectSHA(file, req.ExpectSHA256); w == nil {
		text, w = applyEdits(file.Path, string(file.Content), req.Edits)
	}
	if w != nil {
		if !req.DryRun {
			e.auditWrite(ws, "edit", req.Path, "", nil, w)
		}
		return nil, fsError(w)
	}
	res := &EditResult{Path: file.Path, DryRun: req.DryRun, Bytes: int64(len(text)), Timestamp: time.Now().UTC(),
		SHA256: sha256Hex([]byte(text)),
		Diff:   string(diff.Diff(file.Path, file.Content, file.Path, []byte(text)))}
	if req.DryRun {
		return res, nil
	}
	if err := ctx.Err(); err != nil {
		return nil, err // cancelled: nothing is written
	}
	r, w := f.WriteFile(req.Path, []byte(text), true, req.Backup)
	e.auditWrite(ws, "edit", req.Path, "", r, w)
	if w != nil {
		return nil, fsError(w)
	}
	res.Backup = r.Backup
	return res, nil
}
