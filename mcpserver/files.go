package mcpserver

import (
	"context"
	"encoding/base64"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/taskctl/taskctl/engine"
	"github.com/taskctl/taskctl/internal/diag"
)

// ReadFileIn is the input of read_file.
type ReadFileIn struct {
	Path      string `json:"path" jsonschema:"the file: relative to the project dir, or absolute"`
	Encoding  string `json:"encoding,omitempty" jsonschema:"utf-8 (default: text, decoded from what the file is) or base64 (the bytes, for binary files)"`
	MaxLines  int    `json:"max_lines,omitempty" jsonschema:"at most this many lines (0: all)"`
	SkipLines int    `json:"skip_lines,omitempty" jsonschema:"lines skipped from the start"`
	MaxBytes  int64  `json:"max_bytes,omitempty" jsonschema:"at most this many bytes of content (0: all)"`
	Head      int    `json:"head,omitempty" jsonschema:"only the first N lines; works on files over the 10 MiB cap (at most 10 MiB returned)"`
	FromLine  int    `json:"from_line,omitempty" jsonschema:"with head: the first line of the range (1-based), on files over the cap too"`
	Tail      int    `json:"tail,omitempty" jsonschema:"only the last N lines; works on files over the 10 MiB cap (at most 10 MiB returned)"`
	Offset    int64  `json:"offset,omitempty" jsonschema:"start at this byte; works on files over the 10 MiB cap"`
	Length    int64  `json:"length,omitempty" jsonschema:"with offset: at most this many bytes (0: to the end, at most 10 MiB)"`
}

// ReadFilesIn is the input of read_multiple_files.
type ReadFilesIn struct {
	Paths    []string `json:"paths" jsonschema:"the files: each relative to the project dir, or absolute"`
	Encoding string   `json:"encoding,omitempty" jsonschema:"utf-8 (default) or base64, for every file"`
	MaxLines int      `json:"max_lines,omitempty" jsonschema:"at most this many lines of each file (0: all)"`
	MaxBytes int64    `json:"max_bytes,omitempty" jsonschema:"at most this many bytes of each file (0: all)"`
}

// GrepIn is the input of grep.
type GrepIn struct {
	Pattern    string   `json:"pattern" jsonschema:"an RE2 regular expression (or a plain string with literal)"`
	Path       string   `json:"path,omitempty" jsonschema:"a file or directory to search: relative to the project dir, or absolute (default: the whole project)"`
	Include    []string `json:"include,omitempty" jsonschema:"only files whose path relative to the project matches one of these globs (a glob without / matches the name)"`
	IgnoreCase bool     `json:"ignore_case,omitempty" jsonschema:"match letters of either case"`
	Literal    bool     `json:"literal,omitempty" jsonschema:"the pattern is a plain string, not a regular expression"`
	Context    int      `json:"context,omitempty" jsonschema:"lines shown before and after each match"`
	MaxMatches int      `json:"max_matches,omitempty" jsonschema:"at most this many matching lines (default 1000)"`
}

// ListDirectoryIn is the input of list_directory.
type ListDirectoryIn struct {
	Path          string `json:"path" jsonschema:"the directory: relative to the project dir, or absolute (default: the project dir)"`
	Pattern       string `json:"pattern,omitempty" jsonschema:"only names matching this glob (a path below the directory when it holds /)"`
	Recursive     bool   `json:"recursive,omitempty" jsonschema:"list subdirectories too"`
	IncludeHidden bool   `json:"include_hidden,omitempty" jsonschema:"include names starting with a dot"`
	MaxDepth      int    `json:"max_depth,omitempty" jsonschema:"with recursive, at most this many levels (0: no limit)"`
}

// TreeIn is the input of directory_tree.
type TreeIn struct {
	Path          string `json:"path,omitempty" jsonschema:"the directory: relative to the project dir, or absolute (default: the project dir)"`
	MaxDepth      int    `json:"max_depth,omitempty" jsonschema:"at most this many levels (0: no limit)"`
	IncludeHidden bool   `json:"include_hidden,omitempty" jsonschema:"include names starting with a dot"`
}

// mediaTypes are the MIME types read_media_file sends, by extension.
var mediaTypes = map[string]string{
	".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif", ".webp": "image/webp",
	".bmp": "image/bmp", ".svg": "image/svg+xml", ".ico": "image/x-icon",
	".mp3": "audio/mpeg", ".wav": "audio/wav", ".ogg": "audio/ogg", ".flac": "audio/flac", ".m4a": "audio/mp4",
	".aac": "audio/aac", ".opus": "audio/opus",
}

// RestoreIn is the input of restore_backup.
type RestoreIn struct {
	Path   string `json:"path" jsonschema:"the file to restore, in the workspace or a write root: relative to the project dir, or absolute"`
	Backup string `json:"backup" jsonschema:"the name of one of its backups, as list_backups gives it"`
}

// PathIn is the input of a tool that takes one path.
type PathIn struct {
	Path string `json:"path" jsonschema:"relative to the project dir, or absolute"`
}

// WriteFileIn is the input of write_file.
type WriteFileIn struct {
	Path         string `json:"path" jsonschema:"the file to write, in the workspace or a write root: relative to the project dir (.taskctl/workspace/notes.md), or absolute"`
	Content      string `json:"content" jsonschema:"the text to write"`
	Overwrite    bool   `json:"overwrite,omitempty" jsonschema:"replace an existing file (refused otherwise)"`
	CreateBackup *bool  `json:"create_backup,omitempty" jsonschema:"keep the replaced content under .taskctl/backups/ (default true)"`
	SHA256       string `json:"sha256,omitempty" jsonschema:"the sha256 read_file gave: replace the file only if it still holds that content (FILE_CHANGED otherwise)"`
}

// CopyIn is the input of copy_file and move_file.
type CopyIn struct {
	Source       string `json:"source" jsonschema:"the file to copy (any readable path) or move (in the write area): relative to the project dir, or absolute"`
	Destination  string `json:"destination" jsonschema:"where to, in the workspace or a write root: relative to the project dir, or absolute"`
	Overwrite    bool   `json:"overwrite,omitempty" jsonschema:"replace an existing destination (refused otherwise)"`
	CreateBackup *bool  `json:"create_backup,omitempty" jsonschema:"keep a replaced destination under .taskctl/backups/ (default true)"`
}

// DeleteIn is the input of delete_file.
type DeleteIn struct {
	Path    string `json:"path" jsonschema:"the file (or empty directory) to remove, in the workspace or a write root: relative to the project dir, or absolute"`
	Confirm bool   `json:"confirm,omitempty" jsonschema:"must be true: the removal is confirmed (the file is kept under .taskctl/backups/)"`
}

// EditFileIn is the input of edit_file.
type EditFileIn struct {
	Path         string        `json:"path" jsonschema:"the text file to edit, in the workspace or a write root: relative to the project dir, or absolute"`
	Edits        []engine.Edit `json:"edits" jsonschema:"replacements applied in order; each old_text must occur exactly once"`
	DryRun       bool          `json:"dry_run,omitempty" jsonschema:"return the diff, write nothing"`
	CreateBackup *bool         `json:"create_backup,omitempty" jsonschema:"keep the previous content under .taskctl/backups/ (default true)"`
	SHA256       string        `json:"sha256,omitempty" jsonschema:"the sha256 read_file (or the last edit) gave: edit only that content (FILE_CHANGED otherwise)"`
}

// pathRule is the path rule of every tool, in the one sentence a client
// shows its model (DESIGN §2).
const pathRule = "A relative path is relative to the project dir, for reads and writes alike; absolute paths and every path a tool returns work as they are."

func orTrue(b *bool) bool { return b == nil || *b }

func (s *Server) addFileTools() {
	addTool(s, &mcp.Tool{Name: "read_file", Title: "Read a file", Annotations: readOnly,
		Description: "Read a file of the project or the workspace: content, size, modified, encoding, sha256, line count, truncated. .git/, the rest of .taskctl/ and sensitive files are refused. " + pathRule},
		s.readFile)
	addTool(s, &mcp.Tool{Name: "read_multiple_files", Title: "Read several files", Annotations: readOnly,
		Description: "Read several files of the project or the workspace in one call, each as read_file reads it; a file that cannot be read is an error in its entry, not the call's failure. " + pathRule},
		s.readFiles)
	addTool(s, &mcp.Tool{Name: "grep", Title: "Search file contents", Annotations: readOnly,
		Description: "Search the content of the project's files for a regular expression (RE2), line by line, with context lines: what .gitignore excludes, .git/, .taskctl/, binary files and files holding secrets are left out. Matches come in path order. " + pathRule},
		s.grep)
	addTool(s, &mcp.Tool{Name: "list_allowed_directories", Title: "List the allowed directories", Annotations: readOnly,
		Description: "The directories this server reads (the project dir and any allowed roots) and writes (the workspace and the write roots), absolute."},
		s.listAllowed)
	addTool(s, &mcp.Tool{Name: "directory_tree", Title: "A directory as a tree", Annotations: readOnly,
		Description: "A directory and those below it as a tree of {name, type, size, children}, with list_directory's rules (.gitignore applied, capped). " + pathRule},
		s.directoryTree)
	addTool(s, &mcp.Tool{Name: "list_backups", Title: "List a file's backups", Annotations: readOnly,
		Description: "The backups .taskctl/backups/ keeps of a file of the workspace or a write root (made when it was overwritten, edited, moved over or deleted), oldest first; the newest five are kept. " + pathRule},
		s.listBackups)
	addTool(s, &mcp.Tool{Name: "restore_backup", Title: "Restore a backup", Annotations: destructive,
		Description: "Write one of a file's backups (a name list_backups gave) back over it; what the file held is backed up in turn. " + pathRule},
		s.restoreBackup)
	addTool(s, &mcp.Tool{Name: "read_media_file", Title: "Read an image or audio file", Annotations: readOnly,
		Description: "Read an image (png, jpeg, gif, webp, bmp, svg, ico) or audio file (mp3, wav, ogg, flac, m4a, aac, opus) of the project or the workspace as an MCP image or audio content block, under read_file's rules. " + pathRule},
		s.readMedia)
	addTool(s, &mcp.Tool{Name: "list_directory", Title: "List a directory", Annotations: readOnly,
		Description: "List a directory of the project or the workspace: items with type, size, modified, hidden; totals; truncated when capped. What .gitignore excludes is left out. " + pathRule},
		s.listDirectory)
	addTool(s, &mcp.Tool{Name: "file_info", Title: "Describe a path", Annotations: readOnly,
		Description: "Whether a path exists, and its type, size, modified time and mode. " + pathRule},
		s.fileInfo)
	addTool(s, &mcp.Tool{Name: "write_file", Title: "Write a file", Annotations: destructive,
		Description: "Write a file in the workspace (.taskctl/workspace/ unless configured) or a configured write root. Overwrite must be asked; the replaced content is backed up. " + pathRule},
		s.writeFile)
	addTool(s, &mcp.Tool{Name: "create_directory", Title: "Create a directory", Annotations: additive,
		Description: "Create a directory (and those above it) in the workspace or a write root. " + pathRule},
		s.createDirectory)
	addTool(s, &mcp.Tool{Name: "copy_file", Title: "Copy a file", Annotations: destructive,
		Description: "Copy a readable file (of the project or the workspace) into the workspace or a write root. " + pathRule},
		s.copyFile)
	addTool(s, &mcp.Tool{Name: "move_file", Title: "Move a file", Annotations: destructive,
		Description: "Rename a file within the workspace and the write roots. " + pathRule},
		s.moveFile)
	addTool(s, &mcp.Tool{Name: "delete_file", Title: "Delete a file", Annotations: destructive,
		Description: "Remove a file (kept under .taskctl/backups/) or an empty directory of the workspace or a write root; confirm must be true. " + pathRule},
		s.deleteFile)
	addTool(s, &mcp.Tool{Name: "edit_file", Title: "Edit a file", Annotations: destructive,
		Description: "Replace text in a file of the workspace or a write root: each old_text must occur exactly once. Returns a unified diff; dry_run writes nothing. " + pathRule},
		s.editFile)
}

func ptr[T any](v T) *T { return &v }

// The annotations of the tools: every tool works on the project alone
// (a closed world). The reads change nothing; a write may replace or
// remove what was there (kept under .taskctl/backups/), except
// create_directory, which only adds and can be repeated.
var (
	readOnly    = &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: ptr(false)}
	destructive = &mcp.ToolAnnotations{DestructiveHint: ptr(true), OpenWorldHint: ptr(false)}
	additive    = &mcp.ToolAnnotations{DestructiveHint: ptr(false), IdempotentHint: true, OpenWorldHint: ptr(false)}
)

func (s *Server) readFile(ctx context.Context, _ *mcp.CallToolRequest, in ReadFileIn) (*mcp.CallToolResult, *engine.FileContent, error) {
	return fileCall(ctx, s, func(e *engine.Engine) (*engine.FileContent, string, []diag.Warning, error) {
		res, err := e.ReadFile(ctx, engine.ReadFileRequest{Path: in.Path, Encoding: in.Encoding,
			MaxLines: in.MaxLines, SkipLines: in.SkipLines, MaxBytes: in.MaxBytes,
			Head: in.Head, FromLine: in.FromLine, Tail: in.Tail, Offset: in.Offset, Length: in.Length})
		if err != nil {
			return nil, "", nil, err
		}
		return res, res.Content, res.Warnings, nil
	})
}

func (s *Server) readFiles(ctx context.Context, _ *mcp.CallToolRequest, in ReadFilesIn) (*mcp.CallToolResult, *engine.MultiRead, error) {
	return fileCall(ctx, s, func(e *engine.Engine) (*engine.MultiRead, string, []diag.Warning, error) {
		res, err := e.ReadFiles(ctx, in.Paths, engine.ReadFileRequest{Encoding: in.Encoding, MaxLines: in.MaxLines, MaxBytes: in.MaxBytes})
		if err != nil {
			return nil, "", nil, err
		}
		var b strings.Builder
		for _, f := range res.Files {
			if f.Error != nil {
				fmt.Fprintf(&b, "==> %s <==\n%s: %s\n\n", f.Requested, f.Error.Code, f.Error.Message)
				continue
			}
			fmt.Fprintf(&b, "==> %s <==\n%s", f.File.Path, f.File.Content)
			if !strings.HasSuffix(f.File.Content, "\n") {
				b.WriteString("\n")
			}
			b.WriteString("\n")
		}
		return res, b.String(), res.Warnings, nil
	})
}

func (s *Server) grep(ctx context.Context, req *mcp.CallToolRequest, in GrepIn) (*mcp.CallToolResult, *engine.GrepResult, error) {
	defer progress(ctx, req, "grep")()
	return fileCall(ctx, s, func(e *engine.Engine) (*engine.GrepResult, string, []diag.Warning, error) {
		res, err := e.Grep(ctx, engine.GrepRequest{Pattern: in.Pattern, Literal: in.Literal, IgnoreCase: in.IgnoreCase,
			Path: in.Path, Include: in.Include, Context: in.Context, MaxMatches: in.MaxMatches})
		if err != nil {
			return nil, "", nil, err
		}
		return res, grepText(res), res.Warnings, nil
	})
}

// grepText is a grep result as rg prints it, then how many lines and
// files matched.
func grepText(res *engine.GrepResult) string {
	var b strings.Builder
	res.WriteLines(&b)
	fmt.Fprintf(&b, "%d matching lines in %d of %d files", len(res.Matches), res.FilesMatched, res.FilesSearched)
	if res.Truncated {
		b.WriteString(" (truncated)")
	}
	return b.String() + "\n"
}

func (s *Server) listAllowed(ctx context.Context, req *mcp.CallToolRequest, _ NoInput) (*mcp.CallToolResult, *engine.AllowedDirs, error) {
	return fileCall(ctx, s, func(e *engine.Engine) (*engine.AllowedDirs, string, []diag.Warning, error) {
		res, err := e.AllowedDirectories()
		if err != nil {
			return nil, "", nil, err
		}
		s.narrowAllowed(ctx, req.Session, res)
		var b strings.Builder
		fmt.Fprintf(&b, "project (read): %s\n", res.Project)
		for _, r := range res.ReadRoots {
			fmt.Fprintf(&b, "allowed root (read): %s\n", r)
		}
		fmt.Fprintf(&b, "workspace (read, write): %s\n", res.Workspace)
		for _, r := range res.WriteRoots {
			fmt.Fprintf(&b, "write root (read, write): %s\n", r)
		}
		for _, r := range res.ClientRoots {
			fmt.Fprintf(&b, "client root: %s\n", r)
		}
		if res.ClientRoots != nil {
			fmt.Fprintf(&b, "reached (the client's roots applied): %s\n", strings.Join(res.Applies, ", "))
		}
		return res, b.String(), res.Warnings, nil
	})
}

func (s *Server) directoryTree(ctx context.Context, _ *mcp.CallToolRequest, in TreeIn) (*mcp.CallToolResult, any, error) {
	res, out, err := fileCall(ctx, s, func(e *engine.Engine) (any, string, []diag.Warning, error) {
		path := in.Path
		if path == "" {
			path = "."
		}
		t, err := e.DirectoryTree(ctx, path, in.MaxDepth, in.IncludeHidden)
		if err != nil {
			return nil, "", nil, err
		}
		var b strings.Builder
		b.WriteString(t.Path + "\n")
		var show func(ns []*engine.TreeNode, indent string)
		show = func(ns []*engine.TreeNode, indent string) {
			for _, n := range ns {
				if n.Type == "directory" {
					fmt.Fprintf(&b, "%s%s/\n", indent, n.Name)
					show(n.Children, indent+"  ")
				} else {
					fmt.Fprintf(&b, "%s%s\n", indent, n.Name)
				}
			}
		}
		show(t.Entries, "  ")
		if t.Truncated {
			b.WriteString("(truncated)\n")
		}
		return t, b.String(), t.Warnings, nil
	})
	if err != nil {
		return nil, nil, err
	}
	// A recursive shape: the structured content is set here, with no
	// output schema.
	if err := structured(res, out); err != nil {
		return nil, nil, err
	}
	return res, nil, nil
}

func (s *Server) readMedia(ctx context.Context, _ *mcp.CallToolRequest, in PathIn) (*mcp.CallToolResult, any, error) {
	mt := mediaTypes[strings.ToLower(filepath.Ext(in.Path))]
	if mt == "" {
		return nil, nil, &ToolError{Code: diag.ArgInvalid, Message: fmt.Sprintf("%s: not an image or audio file by its extension: read it with read_file", in.Path)}
	}
	res, fc, err := fileCall(ctx, s, func(e *engine.Engine) (*engine.FileContent, string, []diag.Warning, error) {
		fc, err := e.ReadFile(ctx, engine.ReadFileRequest{Path: in.Path, Encoding: "base64"})
		if err != nil {
			return nil, "", nil, err
		}
		return fc, "", fc.Warnings, nil
	})
	if err != nil {
		return nil, nil, err
	}
	data, err := base64.StdEncoding.DecodeString(fc.Content)
	if err != nil {
		return nil, nil, err
	}
	var block mcp.Content = &mcp.ImageContent{Data: data, MIMEType: mt}
	if strings.HasPrefix(mt, "audio/") {
		block = &mcp.AudioContent{Data: data, MIMEType: mt}
	}
	res.Content[0] = block // the empty text; the warnings, if any, follow
	return res, nil, nil
}

func (s *Server) listBackups(ctx context.Context, _ *mcp.CallToolRequest, in PathIn) (*mcp.CallToolResult, *engine.BackupList, error) {
	return fileCall(ctx, s, func(e *engine.Engine) (*engine.BackupList, string, []diag.Warning, error) {
		res, err := e.ListBackups(ctx, in.Path)
		if err != nil {
			return nil, "", nil, err
		}
		var b strings.Builder
		for _, bk := range res.Backups {
			fmt.Fprintf(&b, "%s  (%d bytes, %s)\n", bk.Name, bk.Size, bk.Modified.Format("2006-01-02T15:04:05Z07:00"))
		}
		fmt.Fprintf(&b, "%d backups of %s (the newest %d are kept)\n", len(res.Backups), res.Path, res.Kept)
		return res, b.String(), res.Warnings, nil
	})
}

func (s *Server) restoreBackup(ctx context.Context, _ *mcp.CallToolRequest, in RestoreIn) (*mcp.CallToolResult, *engine.FileOpResult, error) {
	return s.fileOp(ctx, func(e *engine.Engine) (*engine.FileOpResult, error) { return e.RestoreBackup(ctx, in.Path, in.Backup) })
}

func (s *Server) listDirectory(ctx context.Context, _ *mcp.CallToolRequest, in ListDirectoryIn) (*mcp.CallToolResult, *engine.DirListing, error) {
	return fileCall(ctx, s, func(e *engine.Engine) (*engine.DirListing, string, []diag.Warning, error) {
		res, err := e.ListDirectory(ctx, engine.ListRequest{Path: in.Path, Pattern: in.Pattern, Recursive: in.Recursive,
			IncludeHidden: in.IncludeHidden, MaxDepth: in.MaxDepth})
		if err != nil {
			return nil, "", nil, err
		}
		var b strings.Builder
		for _, it := range res.Items {
			if it.Type == "directory" {
				fmt.Fprintf(&b, "%s/\n", it.Path)
			} else {
				fmt.Fprintf(&b, "%s  (%s, %d bytes)\n", it.Path, it.Type, it.Size)
			}
		}
		fmt.Fprintf(&b, "%d files, %d directories, %d bytes", res.TotalFiles, res.TotalDirectories, res.TotalBytes)
		if res.Truncated {
			b.WriteString(" (truncated)")
		}
		return res, b.String() + "\n", res.Warnings, nil
	})
}

func (s *Server) fileInfo(ctx context.Context, _ *mcp.CallToolRequest, in PathIn) (*mcp.CallToolResult, *engine.FileInfo, error) {
	return fileCall(ctx, s, func(e *engine.Engine) (*engine.FileInfo, string, []diag.Warning, error) {
		res, err := e.FileInfo(ctx, in.Path)
		if err != nil {
			return nil, "", nil, err
		}
		if !res.Exists {
			return res, res.Path + ": does not exist\n", res.Warnings, nil
		}
		return res, fmt.Sprintf("%s: %s, %d bytes, mode %s, modified %s\n", res.Path, res.Type, res.Size, res.Mode,
			res.Modified.Format("2006-01-02T15:04:05Z07:00")), res.Warnings, nil
	})
}

// opText is the text of a write operation's result.
func opText(r *engine.FileOpResult) string {
	t := fmt.Sprintf("%s %s", r.Operation, r.Path)
	if r.Source != "" {
		t = fmt.Sprintf("%s %s -> %s", r.Operation, r.Source, r.Path)
	}
	if r.Operation != "create_directory" {
		t += fmt.Sprintf(" (%d bytes)", r.Bytes)
	}
	if r.Backup != "" {
		t += "; the previous content is kept in " + r.Backup
	}
	return t + "\n"
}

func (s *Server) fileOp(ctx context.Context, op func(e *engine.Engine) (*engine.FileOpResult, error)) (*mcp.CallToolResult, *engine.FileOpResult, error) {
	return fileCall(ctx, s, func(e *engine.Engine) (*engine.FileOpResult, string, []diag.Warning, error) {
		res, err := op(e)
		if err != nil {
			return nil, "", nil, err
		}
		return res, opText(res), res.Warnings, nil
	})
}

func (s *Server) writeFile(ctx context.Context, _ *mcp.CallToolRequest, in WriteFileIn) (*mcp.CallToolResult, *engine.FileOpResult, error) {
	return s.fileOp(ctx, func(e *engine.Engine) (*engine.FileOpResult, error) {
		return e.WriteFile(ctx, engine.WriteRequest{Path: in.Path, Content: []byte(in.Content), Overwrite: in.Overwrite, Backup: orTrue(in.CreateBackup),
			ExpectSHA256: in.SHA256})
	})
}

func (s *Server) createDirectory(ctx context.Context, _ *mcp.CallToolRequest, in PathIn) (*mcp.CallToolResult, *engine.FileOpResult, error) {
	return s.fileOp(ctx, func(e *engine.Engine) (*engine.FileOpResult, error) { return e.CreateDirectory(ctx, in.Path) })
}

func (s *Server) copyFile(ctx context.Context, _ *mcp.CallToolRequest, in CopyIn) (*mcp.CallToolResult, *engine.FileOpResult, error) {
	return s.fileOp(ctx, func(e *engine.Engine) (*engine.FileOpResult, error) {
		return e.CopyFile(ctx, engine.CopyRequest{Source: in.Source, Destination: in.Destination, Overwrite: in.Overwrite, Backup: orTrue(in.CreateBackup)})
	})
}

func (s *Server) moveFile(ctx context.Context, _ *mcp.CallToolRequest, in CopyIn) (*mcp.CallToolResult, *engine.FileOpResult, error) {
	return s.fileOp(ctx, func(e *engine.Engine) (*engine.FileOpResult, error) {
		return e.MoveFile(ctx, engine.CopyRequest{Source: in.Source, Destination: in.Destination, Overwrite: in.Overwrite, Backup: orTrue(in.CreateBackup)})
	})
}

func (s *Server) deleteFile(ctx context.Context, _ *mcp.CallToolRequest, in DeleteIn) (*mcp.CallToolResult, *engine.FileOpResult, error) {
	return s.fileOp(ctx, func(e *engine.Engine) (*engine.FileOpResult, error) {
		res, err := e.DeleteFile(ctx, in.Path, in.Confirm)
		return res, engine.ConfirmHint(err, "set confirm: true")
	})
}

func (s *Server) editFile(ctx context.Context, _ *mcp.CallToolRequest, in EditFileIn) (*mcp.CallToolResult, *engine.EditResult, error) {
	return fileCall(ctx, s, func(e *engine.Engine) (*engine.EditResult, string, []diag.Warning, error) {
		res, err := e.EditFile(ctx, engine.EditRequest{Path: in.Path, Edits: in.Edits, DryRun: in.DryRun, Backup: orTrue(in.CreateBackup),
			ExpectSHA256: in.SHA256})
		if err != nil {
			return nil, "", nil, err
		}
		text := res.Diff
		if text == "" {
			text = "no change\n"
		}
		return res, text, res.Warnings, nil
	})
}
