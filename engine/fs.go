package engine

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/taskctl/taskctl/content/secrets"
	"github.com/taskctl/taskctl/internal/diag"
	"github.com/taskctl/taskctl/project"
	"github.com/taskctl/taskctl/root"
)

// The file operations of seed 001, for agents (the MCP server) and scripts
// (taskctl fs). A relative path resolves against one dir whether it is
// read or written: the working dir on the command line, the project dir
// for an MCP client (ResolveFromProject). Reads reach the project and the
// workspace; writes go only to the workspace and the configured write
// roots (see project.FS). Every write, copy, move, delete, mkdir and edit
// is appended to .taskctl/audit.jsonl, whatever the <audit> setting says,
// refused ones too.

// FS returns the project's file operations with the workspace and write
// roots of the settings. A write root that cannot be one is left out with
// a CONFIG_IGNORED warning, which every file operation reports.
func (e *Engine) FS() (*project.FS, error) {
	var ws warnings
	return e.openFS(&ws)
}

// openFS is FS, what opening the file operations said given to ws.
func (e *Engine) openFS(ws *warnings) (*project.FS, error) {
	// Opened once for the engine's settings (a session's every call
	// reopened them); each call still reports what opening them said.
	if e.fs != nil {
		ws.addAll(e.fsWarns)
		return e.fs, nil
	}
	cfg, err := e.Settings()
	if err != nil {
		return nil, err
	}
	p, err := e.Project()
	if err != nil {
		return nil, err
	}
	wsDir := cfg.Workspace
	if wsDir != "" && !filepath.IsAbs(wsDir) {
		wsDir = e.ArgPath(wsDir) // --workspace, relative to where taskctl started
	}
	base := e.workingDir
	if e.fromProject {
		base = p.Dir()
	}
	f, warns, err := p.OpenFS(project.FSOptions{Workspace: wsDir, WriteRoots: cfg.WriteRoots, Base: base})
	if err != nil {
		return nil, UsageError("%v", err)
	}
	ws.addAll(warns)
	e.fs, e.fsWarns = f, warns
	return f, nil
}

// Fork returns an engine for the file operations (ReadFile, ListDirectory,
// FileInfo, WriteFile, CreateDirectory, CopyFile, MoveFile, DeleteFile,
// EditFile) of one request that may run beside the engine's other work:
// it shares the settings, the project (safe for concurrent use) and the
// path rule. The settings and the project
// must have been loaded, and the file operations (FS) opened if they can
// be (a fork of an engine whose FS failed fails the same way); none is
// reopened while forks run; nothing else of e is read, so a fork never races with
// a search or an assemble on e.
func (e *Engine) Fork() (*Engine, error) {
	if e.settings == nil || e.proj == nil {
		return nil, fmt.Errorf("engine: Fork before the settings and the project are loaded")
	}
	return &Engine{opts: e.opts, getenv: e.getenv, workingDir: e.workingDir, argDir: e.argDir,
		projectDir: e.projectDir, fromProject: e.fromProject, settings: e.settings, proj: e.proj,
		fs: e.fs, fsWarns: e.fsWarns}, nil
}

// AllowedDirs are the directories the file operations reach.
type AllowedDirs struct {
	Project    string   `json:"project"`     // read
	ReadRoots  []string `json:"read_roots"`  // the allowed roots besides the project dir: read
	Workspace  string   `json:"workspace"`   // read and written
	WriteRoots []string `json:"write_roots"` // read and written
	// Over MCP, when the client declares roots: those roots, and what of
	// the directories above lies in them (or of them in the directories),
	// the directories a file tool then reaches.
	ClientRoots []string `json:"client_roots,omitempty"`
	Applies     []string `json:"applies,omitempty"`
	Report
}

// AllowedDirectories says which directories the file operations read
// and write.
func (e *Engine) AllowedDirectories() (*AllowedDirs, error) {
	var ws warnings
	res, err := e.allowedDirectories(&ws)
	return done(res, err, ws)
}

func (e *Engine) allowedDirectories(ws *warnings) (*AllowedDirs, error) {
	f, err := e.openFS(ws)
	if err != nil {
		return nil, err
	}
	cfg, err := e.Settings()
	if err != nil {
		return nil, err
	}
	p, err := e.Project()
	if err != nil {
		return nil, err
	}
	return &AllowedDirs{Project: p.Dir(), ReadRoots: append([]string{}, cfg.AllowedRoots...), Workspace: f.Workspace(),
		WriteRoots: append([]string{}, f.WriteRoots()...)}, nil
}

// fsError is the failure of a file operation, from the warning that
// refused it.
func fsError(w *diag.Warning) error {
	class := ClassError
	if w.Code == diag.ConfirmRequired {
		class = ClassUsage
	}
	msg := w.Message
	if w.Path != "" {
		msg = w.Path + ": " + msg
	}
	return &Error{Code: w.Code, Class: class, Message: msg}
}

// ReadFileRequest is what ReadFile reads.
type ReadFileRequest struct {
	Path      string
	Encoding  string // "" or "utf-8": text (decoded from what it is); "base64": the bytes
	MaxLines  int    // at most this many lines (0: all)
	SkipLines int    // lines skipped from the start
	MaxBytes  int64  // at most this many bytes of content (0: all)
	// A range, read on files over the whole-file cap too (at most the
	// cap's worth returned): Head lines from line FromLine (1-based; 0:
	// the first), the last Tail lines, or Length bytes from Offset
	// (Length 0: to the end). At most one.
	Head     int
	FromLine int
	Tail     int
	Offset   int64
	Length   int64
}

// ranged says whether req asks for a range, and which.
func (req ReadFileRequest) ranged() (*root.Window, error) {
	if req.Head < 0 || req.Tail < 0 || req.Offset < 0 || req.Length < 0 || req.FromLine < 0 {
		return nil, UsageError("head, from_line, tail, offset and length must not be negative")
	}
	if req.FromLine > 0 && req.Head == 0 {
		return nil, UsageError("from_line goes with head (how many lines from it)")
	}
	kinds := 0
	for _, set := range []bool{req.Head > 0, req.Tail > 0, req.Offset > 0 || req.Length > 0} {
		if set {
			kinds++
		}
	}
	switch {
	case kinds == 0:
		return nil, nil
	case kinds > 1:
		return nil, UsageError("give one of head, tail, or offset/length")
	}
	return &root.Window{Head: req.Head, FromLine: req.FromLine, Tail: req.Tail, Offset: req.Offset, Length: req.Length}, nil
}

// FileRange says which part of a file a ranged read returned.
type FileRange struct {
	Offset int64 `json:"offset"` // the byte of the file the content starts at
	Length int64 `json:"length"` // bytes of the file returned
	Cut    bool  `json:"cut"`    // the range was longer than the cap and was cut to it
}

// FileContent is a file read (seed 001's FileContentResult).
type FileContent struct {
	Path      string    `json:"path"`
	Content   string    `json:"content"`
	Encoding  string    `json:"encoding"` // what the file was read as: utf-8, utf-16le, windows-1252, base64, binary...
	Size      int64     `json:"size"`
	Modified  time.Time `json:"modified"`
	SHA256    string    `json:"sha256"`
	Lines     int       `json:"lines"` // of the whole file
	Truncated bool      `json:"truncated"`
	Binary    bool      `json:"binary"`
	// Of a ranged read: the part returned; then Lines counts its lines,
	// Size is the whole file's and SHA256 is of the bytes returned.
	Range *FileRange `json:"range,omitempty"`
	Report
}

// ReadFile reads a file: a binary one is described without its content
// (FILE_BINARY) unless asked for as base64.
func (e *Engine) ReadFile(ctx context.Context, req ReadFileRequest) (*FileContent, error) {
	var ws warnings
	f, err := e.openFS(&ws)
	if err != nil {
		return nil, withWarnings(err, ws)
	}
	res, err := readFile(f, req, &ws)
	return done(res, err, ws)
}

// readFile is ReadFile on the file operations f, its warnings given to ws.
func readFile(f *project.FS, req ReadFileRequest, ws *warnings) (*FileContent, error) {
	switch req.Encoding {
	case "", "utf-8", "utf8", "base64":
	default:
		return nil, UsageError("encoding must be utf-8 or base64, not %q", req.Encoding)
	}
	if req.MaxLines < 0 || req.SkipLines < 0 || req.MaxBytes < 0 {
		return nil, UsageError("max_lines, skip_lines and max_bytes must not be negative")
	}
	win, err := req.ranged()
	if err != nil {
		return nil, err
	}
	var file *root.File
	var w *diag.Warning
	if win != nil {
		file, w = f.ReadRange(req.Path, *win)
	} else {
		file, w = f.ReadFile(req.Path)
	}
	if w != nil {
		return nil, fsError(workspaceHint(f, req.Path, w))
	}
	// project.FS.ReadFile judged the content: a file holding a secret
	// reaches here only where the settings redact secrets (never as
	// base64, which would show it).
	jc := *file.Judged
	redact := jc.HoldsSecret()
	if redact && req.Encoding == "base64" {
		return nil, &Error{Code: diag.SecretDetected, Class: ClassError,
			Message: file.Path + ": " + jc.SecretReason() + " (base64 cannot be redacted)"}
	}
	sum := sha256.Sum256(file.Content)
	res := &FileContent{Path: file.Path, Size: file.Size, Modified: file.ModTime.UTC(),
		SHA256: hex.EncodeToString(sum[:]), Binary: file.Binary}
	if win != nil {
		res.Size = file.FileSize
		res.Range = &FileRange{Offset: file.Offset, Length: file.Size, Cut: file.Cut}
		if file.Cut {
			res.Truncated = true
			ws.add(diag.Warning{Code: diag.FileTooLarge, Path: file.Path,
				Message: fmt.Sprintf("range cut to %d bytes (the cap)", file.Size)})
		}
	}
	if req.Encoding == "base64" {
		data := file.Content
		if req.MaxBytes > 0 && int64(len(data)) > req.MaxBytes {
			data, res.Truncated = data[:req.MaxBytes], true
		}
		res.Content, res.Encoding = base64.StdEncoding.EncodeToString(data), "base64"
		return res, nil
	}
	text, dec := jc.Text, jc.Encoding
	res.Encoding = dec.Encoding
	if jc.Binary {
		res.Binary = true
		ws.add(diag.Warning{Code: diag.FileBinary, Path: file.Path, Message: fmt.Sprintf("binary file of %d bytes: content omitted (read it as base64)", file.Size)})
		return res, nil
	}
	if dec.Converted || dec.InvalidBytes > 0 {
		ws.add(diag.Warning{Code: diag.EncodingConverted, Path: file.Path, Message: "decoded from " + dec.Encoding})
	}
	res.Lines = countLines(text)
	if redact {
		text = secrets.Redact(text, jc.Secrets)
		ws.addAll(jc.SecretWarnings(file.Path, true))
	}
	var cut bool
	res.Content, cut = cutText(string(text), req.SkipLines, req.MaxLines, req.MaxBytes)
	res.Truncated = res.Truncated || cut
	return res, nil
}

// FileRead is one file of ReadFiles: its content, or why it could not
// be read.
type FileRead struct {
	Requested string       `json:"requested"` // the path as given
	File      *FileContent `json:"file,omitempty"`
	Error     *FileError   `json:"error,omitempty"`
}

// FileError is a file's failure in a result that goes on without it.
type FileError struct {
	Code    diag.Code `json:"code"`
	Message string    `json:"message"`
}

// MultiRead is what ReadFiles read.
type MultiRead struct {
	Files []FileRead `json:"files"`
	Read  int        `json:"read"`   // files read
	Fails int        `json:"failed"` // files refused or missing
	Report
}

// ReadFiles reads several files, each as ReadFile reads it with the
// options of req (its Path unused); a file that cannot be read is an
// error in its entry, not the call's failure.
func (e *Engine) ReadFiles(ctx context.Context, paths []string, req ReadFileRequest) (*MultiRead, error) {
	if len(paths) == 0 {
		return nil, UsageError("read_multiple_files needs at least one path")
	}
	var ws warnings
	f, err := e.openFS(&ws)
	if err != nil {
		return nil, withWarnings(err, ws)
	}
	res, err := readFiles(ctx, f, paths, req, &ws)
	return done(res, err, ws)
}

func readFiles(ctx context.Context, f *project.FS, paths []string, req ReadFileRequest, ws *warnings) (*MultiRead, error) {
	res := &MultiRead{Files: make([]FileRead, 0, len(paths))}
	for _, p := range paths {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		r := req
		r.Path = p
		fc, err := readFile(f, r, ws)
		if err != nil {
			ce := Classify(err)
			if ce.Class == ClassUsage && ce.Code == diag.ArgInvalid {
				return nil, err // the options, not the file
			}
			res.Files = append(res.Files, FileRead{Requested: p, Error: &FileError{Code: ce.Code, Message: ce.Message}})
			res.Fails++
			continue
		}
		res.Files = append(res.Files, FileRead{Requested: p, File: fc})
		res.Read++
	}
	return res, nil
}

// countLines counts lines as an editor numbers them: a last line without
// a newline counts.
func countLines(b []byte) int {
	n := strings.Count(string(b), "\n")
	if len(b) > 0 && b[len(b)-1] != '\n' {
		n++
	}
	return n
}

// cutText keeps the lines of text after skip, at most max of them, at most
// maxBytes bytes (cut at a rune boundary); truncated says something after
// what is kept was left out.
func cutText(text string, skip, max int, maxBytes int64) (string, bool) {
	truncated := false
	for ; skip > 0 && text != ""; skip-- {
		i := strings.IndexByte(text, '\n')
		if i < 0 {
			text = ""
			break
		}
		text = text[i+1:]
	}
	if max > 0 {
		end := 0
		for n := 0; n < max && end < len(text); n++ {
			i := strings.IndexByte(text[end:], '\n')
			if i < 0 {
				end = len(text)
				break
			}
			end += i + 1
		}
		truncated = end < len(text)
		text = text[:end]
	}
	if maxBytes > 0 && int64(len(text)) > maxBytes {
		cut := int(maxBytes)
		for cut > 0 && !isRuneStart(text[cut]) {
			cut--
		}
		text, truncated = text[:cut], true
	}
	return text, truncated
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }

// ListRequest is what ListDirectory lists.
type ListRequest struct {
	Path          string
	Pattern       string
	Recursive     bool
	IncludeHidden bool
	MaxDepth      int
	Limit         int
}

// FSItem is one entry of a listing (seed 001's FileSystemItem).
type FSItem struct {
	Name      string    `json:"name"`
	Path      string    `json:"path"`
	Type      string    `json:"type"` // file, directory, symlink, fifo, socket, device
	Size      int64     `json:"size"`
	Modified  time.Time `json:"modified"`
	Extension string    `json:"extension,omitempty"`
	Hidden    bool      `json:"hidden"`
}

// DirListing is a directory listed (seed 001's DirectoryListingResult).
type DirListing struct {
	Path             string   `json:"path"`
	Items            []FSItem `json:"items"`
	TotalFiles       int      `json:"total_files"`
	TotalDirectories int      `json:"total_directories"`
	TotalBytes       int64    `json:"total_bytes"`
	Truncated        bool     `json:"truncated"`
	Report
}

// ListDirectory lists a directory (see project.FS.List).
func (e *Engine) ListDirectory(ctx context.Context, req ListRequest) (*DirListing, error) {
	var ws warnings
	res, err := e.listDirectory(req, &ws)
	return done(res, err, ws)
}

func (e *Engine) listDirectory(req ListRequest, ws *warnings) (*DirListing, error) {
	if req.MaxDepth < 0 || req.Limit < 0 {
		return nil, UsageError("max_depth and limit must not be negative")
	}
	f, err := e.openFS(ws)
	if err != nil {
		return nil, err
	}
	l, w := f.List(req.Path, project.ListOptions{Pattern: req.Pattern, Recursive: req.Recursive,
		IncludeHidden: req.IncludeHidden, MaxDepth: req.MaxDepth, Limit: req.Limit})
	if w != nil {
		return nil, fsError(workspaceHint(f, req.Path, w))
	}
	ws.addAll(l.Warnings)
	res := &DirListing{Path: l.Path, Items: make([]FSItem, 0, len(l.Entries)), Truncated: l.Truncated}
	for _, en := range l.Entries {
		it := FSItem{Name: en.Name, Path: en.Path, Type: en.Type, Size: en.Size, Modified: en.ModTime.UTC(), Hidden: en.Hidden}
		switch en.Type {
		case "file":
			it.Extension = strings.TrimPrefix(filepath.Ext(en.Name), ".")
			res.TotalFiles++
			res.TotalBytes += en.Size
		case "directory":
			it.Size = 0
			res.TotalDirectories++
		}
		res.Items = append(res.Items, it)
	}
	if l.Truncated {
		ws.add(diag.Warning{Code: diag.TooManyFiles, Path: l.Path, Message: fmt.Sprintf("listing cut at %d entries", len(l.Entries))})
	}
	return res, nil
}

// TreeNode is one entry of a directory tree.
type TreeNode struct {
	Name     string      `json:"name"`
	Type     string      `json:"type"` // file, directory, symlink...
	Size     int64       `json:"size,omitempty"`
	Children []*TreeNode `json:"children,omitempty"` // a directory's entries
}

// DirTree is a directory as a tree.
type DirTree struct {
	Path      string      `json:"path"`
	Entries   []*TreeNode `json:"entries"`
	Truncated bool        `json:"truncated"`
	Report
}

// DirectoryTree lists a directory and those below it (at most maxDepth
// levels; 0: all) as a tree, with the rules of ListDirectory.
func (e *Engine) DirectoryTree(ctx context.Context, path string, maxDepth int, includeHidden bool) (*DirTree, error) {
	l, err := e.ListDirectory(ctx, ListRequest{Path: path, Recursive: true, MaxDepth: maxDepth, IncludeHidden: includeHidden})
	if err != nil {
		return nil, err
	}
	res := &DirTree{Path: l.Path, Entries: []*TreeNode{}, Truncated: l.Truncated, Report: l.Report}
	dirs := map[string]*TreeNode{} // by path
	for _, it := range l.Items {
		n := &TreeNode{Name: it.Name, Type: it.Type, Size: it.Size}
		if it.Type == "directory" {
			n.Children = []*TreeNode{}
			dirs[it.Path] = n
		}
		if parent, ok := dirs[filepath.Dir(it.Path)]; ok {
			parent.Children = append(parent.Children, n)
		} else {
			res.Entries = append(res.Entries, n)
		}
	}
	return res, nil
}

// FileInfo is what FileInfo says of a path.
type FileInfo struct {
	Path     string     `json:"path"`
	Exists   bool       `json:"exists"`
	Type     string     `json:"type,omitempty"`
	Size     int64      `json:"size"`
	Modified *time.Time `json:"modified,omitempty"`
	Mode     string     `json:"mode,omitempty"` // "0644"
	Report
}

// FileInfo describes a path; one that does not exist is Exists false, not
// an error.
func (e *Engine) FileInfo(ctx context.Context, path string) (*FileInfo, error) {
	var ws warnings
	res, err := e.fileInfo(path, &ws)
	return done(res, err, ws)
}

func (e *Engine) fileInfo(path string, ws *warnings) (*FileInfo, error) {
	f, err := e.openFS(ws)
	if err != nil {
		return nil, err
	}
	en, w := f.Stat(path)
	if project.IsNotFound(w) && w.Path != "" {
		return &FileInfo{Path: w.Path}, nil
	}
	if w != nil {
		return nil, fsError(w)
	}
	mod := en.ModTime.UTC()
	return &FileInfo{Path: en.Path, Exists: true, Type: en.Type, Size: en.Size, Modified: &mod,
		Mode: fmt.Sprintf("%04o", uint32(en.Mode.Perm()))}, nil
}

// workspaceHint adds to a PATH_NOT_FOUND of a relative path read what
// the caller most likely meant: a file of that name in the workspace.
func workspaceHint(f *project.FS, path string, w *diag.Warning) *diag.Warning {
	if w.Code != diag.PathNotFound || path == "" || filepath.IsAbs(path) {
		return w
	}
	in := filepath.Join(f.Workspace(), path)
	if _, sw := f.Stat(in); sw != nil {
		return w
	}
	hint := *w
	shown := in
	if rel, err := filepath.Rel(f.Base(), in); err == nil && !strings.HasPrefix(rel, "..") {
		shown = rel
	}
	hint.Message += fmt.Sprintf(" (the workspace has %s)", shown)
	return &hint
}

// ProjectFile says whether arg, a path of a request (relative to the
// project dir over MCP, see ResolveFromProject), names an existing file, and refuses one whose real path lies outside
// the project dir and the allowed roots (PATH_OUTSIDE_PROJECT) or inside
// .git/ (PATH_IGNORED). It is the MCP server's rule for the template and
// config files a client names (validate, assemble): the CLI reads any file
// its user names, but a client must not make taskctl read files elsewhere,
// even only to report their problems. .taskctl/ is allowed: the task
// library and config.xml live there.
func (e *Engine) ProjectFile(arg string) (bool, error) {
	if arg == "" || strings.ContainsRune(arg, 0) {
		return false, nil
	}
	abs, err := e.requestPath(arg)
	if err != nil {
		return false, err
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return false, nil // not a file: a task name, or not found later
	}
	cfg, err := e.Settings()
	if err != nil {
		return false, err
	}
	p, err := e.Project()
	if err != nil {
		return false, err
	}
	for _, root := range append([]string{p.Dir()}, cfg.AllowedRoots...) {
		if !within(real, root) {
			continue
		}
		rel, _ := filepath.Rel(root, real)
		for _, c := range strings.Split(filepath.ToSlash(rel), "/") {
			if strings.EqualFold(c, ".git") {
				return true, &Error{Code: diag.PathIgnored, Class: ClassError, Message: real + ": inside .git/, which is never read"}
			}
		}
		return true, nil
	}
	// (The path as given: where a symbolic link leads outside is never
	// named.)
	return true, &Error{Code: diag.PathOutsideProject, Class: ClassError,
		Message: fmt.Sprintf("%s: outside the project dir %s: the MCP server reads no template or config file there", abs, p.Dir())}
}
