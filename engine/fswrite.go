package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"time"

	"github.com/rogpeppe/go-internal/diff"

	"github.com/taskctl/taskctl/internal/diag"
	"github.com/taskctl/taskctl/project"
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
	Timestamp time.Time `json:"timestamp"`
}

// WriteRequest is what WriteFile writes.
type WriteRequest struct {
	Path      string
	Content   []byte
	Overwrite bool // replace an existing file (refused otherwise)
	Backup    bool // keep the replaced content under .taskctl/backups/
}

// WriteFile writes a file of the write area.
func (e *Engine) WriteFile(ctx context.Context, req WriteRequest) (*FileOpResult, error) {
	return e.fsWrite("write", req.Path, "", func(f *project.FS) (*project.WriteResult, *diag.Warning) {
		return f.WriteFile(req.Path, req.Content, req.Overwrite, req.Backup)
	})
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
	return &hinted
}

// fsWrite runs one write operation and records it in the audit log.
func (e *Engine) fsWrite(op, path, source string, do func(*project.FS) (*project.WriteResult, *diag.Warning)) (*FileOpResult, error) {
	f, err := e.FS()
	if err != nil {
		return nil, err
	}
	r, w := do(f)
	e.auditWrite(op, path, source, r, w)
	if w != nil {
		return nil, fsError(w)
	}
	return &FileOpResult{Operation: op, Path: r.Path, Source: source, Bytes: r.Bytes, Backup: r.Backup,
		Created: r.Created, Timestamp: time.Now().UTC()}, nil
}

// auditWrite appends one line to .taskctl/audit.jsonl for a write
// operation, done (r) or refused (w). A log that cannot be written is an
// AUDIT_UNAVAILABLE warning.
func (e *Engine) auditWrite(op, path, source string, r *project.WriteResult, w *diag.Warning) {
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
		e.Warn(diag.Warning{Code: diag.AuditUnavailable, Message: err.Error()})
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
}

// EditResult is an edit's unified diff, and what was written.
type EditResult struct {
	Path      string    `json:"path"`
	Diff      string    `json:"diff"`
	DryRun    bool      `json:"dry_run"`
	Bytes     int64     `json:"bytes"`
	Backup    string    `json:"backup,omitempty"`
	Timestamp time.Time `json:"timestamp"`
}

// EditFile applies edits to a text file of the write area, in order: each
// old text must occur exactly once in the text the edits before it left
// (EDIT_NO_MATCH, EDIT_AMBIGUOUS), or nothing is written.
func (e *Engine) EditFile(ctx context.Context, req EditRequest) (*EditResult, error) {
	if len(req.Edits) == 0 {
		return nil, UsageError("edit_file needs at least one edit")
	}
	f, err := e.FS()
	if err != nil {
		return nil, err
	}
	file, w := f.ReadWritable(req.Path)
	if w == nil && file.Binary {
		w = &diag.Warning{Code: diag.FileBinary, Path: file.Path, Message: "binary file: not edited"}
	}
	if w != nil {
		if !req.DryRun {
			e.auditWrite("edit", req.Path, "", nil, w)
		}
		return nil, fsError(w)
	}
	text := string(file.Content)
	for i, ed := range req.Edits {
		if text, w = applyEdit(file.Path, text, i, ed); w != nil {
			if !req.DryRun {
				e.auditWrite("edit", req.Path, "", nil, w)
			}
			return nil, fsError(w)
		}
	}
	res := &EditResult{Path: file.Path, DryRun: req.DryRun, Bytes: int64(len(text)), Timestamp: time.Now().UTC(),
		Diff: string(diff.Diff(file.Path, file.Content, file.Path, []byte(text)))}
	if req.DryRun {
		return res, nil
	}
	r, w := f.WriteFile(req.Path, []byte(text), true, req.Backup)
	e.auditWrite("edit", req.Path, "", r, w)
	if w != nil {
		return nil, fsError(w)
	}
	res.Backup = r.Backup
	return res, nil
}

// applyEdit replaces the one occurrence of ed.OldText in text.
func applyEdit(path, text string, i int, ed Edit) (string, *diag.Warning) {
	if ed.OldText == "" {
		return "", &diag.Warning{Code: diag.EditNoMatch, Path: path, Message: fmt.Sprintf("edit %d: old_text is empty", i+1)}
	}
	switch n := strings.Count(text, ed.OldText); n {
	case 0:
		return "", &diag.Warning{Code: diag.EditNoMatch, Path: path, Message: fmt.Sprintf("edit %d: old_text not found", i+1)}
	case 1:
		return strings.Replace(text, ed.OldText, ed.NewText, 1), nil
	default:
		return "", &diag.Warning{Code: diag.EditAmbiguous, Path: path,
			Message: fmt.Sprintf("edit %d: old_text occurs %d times; give more context to make it unique", i+1, n)}
	}
}
