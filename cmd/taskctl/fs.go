package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/pflag"

	"github.com/taskctl/taskctl/engine"
	"github.com/taskctl/taskctl/internal/diag"
)

// fsFlags are the flags of taskctl fs, one set for all its operations.
type fsFlags struct {
	overwrite, noBackup, yes, recursive, hidden, dryRun bool
	pattern, encoding                                   string
	maxDepth, maxLines, skipLines                       int
	maxBytes                                            int64
	head, tail, fromLine                                int
	offset, length                                      int64
	old, new                                            []string
	ignoreCase, literal                                 bool
	context, maxMatches                                 int
	include                                             []string
}

func fsCmd() *command {
	f := &fsFlags{}
	return &command{
		name:  "fs",
		usage: "read|ls|tree|info|grep|write|edit|mkdir|cp|mv|rm|backups|restore PATH [DEST] [flags]",
		short: "file operations for scripts and executors: read anywhere allowed, write in the workspace",
		long: `The file operations of the MCP server's tools, for scripts and workflow
executors. A relative path is relative to the working dir, for reads and
writes alike: one string names one file. Reads reach the project and the
workspace; a path to write, make, move or remove must lie in the workspace
(.taskctl/workspace, or --workspace / <workspace> in config) or in a
<write_root> of config; .git/, the rest of .taskctl/ and sensitive names are
never written. Replaced and removed files are kept under .taskctl/backups/,
and every write is logged in .taskctl/audit.jsonl.

  read PATH...      print the file (--max-lines, --skip-lines, --max-bytes,
                    --encoding base64 for binary files); a range, also of
                    files over the 10 MiB cap: --head N or --tail N lines,
                    or --offset B [--length N] bytes; several: each under a
                    "==> PATH <==" line, one that cannot be read a warning
  grep PATTERN [PATH]  the lines of the project's files matching an RE2
                    PATTERN, as path:line:text (-C N context lines, -i, -F for a
                    plain string, --include GLOB, --max-matches N); ignored,
                    binary and secret-holding files are left out
  ls [DIR]          list a directory (--recursive, --max-depth, --pattern, --hidden)
  tree [DIR]        the directory as an indented tree (--max-depth, --hidden)
  info PATH         exists, type, size, modified, mode
  write PATH        write stdin to PATH (--overwrite; the old content is backed up)
  edit PATH         replace --old TEXT by --new TEXT (each once in the file; pairs
                    repeatable), print the unified diff (--dry-run writes nothing)
  mkdir DIR         make DIR and the directories above it
  cp SRC DST        copy a readable file into the write area (--overwrite)
  mv SRC DST        rename a file within the write area (--overwrite)
  rm PATH --yes     remove a file (kept under .taskctl/backups/) or an empty directory
  backups PATH      the backups kept of PATH, oldest first (the newest 5 are kept)
  restore PATH NAME write the backup NAME back over PATH (what it held is kept)`,
		examples: []string{
			`echo "# plan" | taskctl fs write .taskctl/workspace/notes/plan.md`,
			`taskctl fs read .taskctl/workspace/notes/plan.md --max-lines 20`,
			`taskctl fs ls .taskctl/workspace --recursive --output json`,
			`taskctl fs edit .taskctl/workspace/notes/plan.md --old "# plan" --new "# Plan"`,
			`taskctl fs rm .taskctl/workspace/notes/plan.md --yes`,
		},
		flags: func(fs *pflag.FlagSet, o *opts) {
			fs.StringVar(&o.workspace, "workspace", "", "write in `DIR` instead of .taskctl/workspace (inside the project)")
			fs.BoolVar(&f.overwrite, "overwrite", false, "write, cp, mv: replace an existing file")
			fs.BoolVar(&f.noBackup, "no-backup", false, "write, edit, cp, mv: do not keep the replaced content")
			fs.BoolVarP(&f.yes, "yes", "y", false, "rm: confirm the removal")
			fs.BoolVarP(&f.recursive, "recursive", "r", false, "ls: list subdirectories too")
			fs.IntVar(&f.maxDepth, "max-depth", 0, "ls --recursive: at most `N` levels (0: no limit)")
			fs.StringVar(&f.pattern, "pattern", "", "ls: only names matching `GLOB` (a path below DIR when it holds /)")
			fs.BoolVar(&f.hidden, "hidden", false, "ls: include names starting with .")
			fs.IntVar(&f.maxLines, "max-lines", 0, "read: at most `N` lines")
			fs.IntVar(&f.skipLines, "skip-lines", 0, "read: skip the first `N` lines")
			fs.Int64Var(&f.maxBytes, "max-bytes", 0, "read: at most `N` bytes")
			fs.IntVar(&f.head, "head", 0, "read: only the first `N` lines (files over the cap too)")
			fs.IntVar(&f.fromLine, "from-line", 0, "read --head: the lines from line `L` (1-based; files over the cap too)")
			fs.IntVar(&f.tail, "tail", 0, "read: only the last `N` lines (files over the cap too)")
			fs.Int64Var(&f.offset, "offset", 0, "read: start at byte `B` (files over the cap too)")
			fs.Int64Var(&f.length, "length", 0, "read --offset: at most `N` bytes from there (0: to the end)")
			fs.StringVar(&f.encoding, "encoding", "utf-8", "read: utf-8 (text, decoded) or base64 (the bytes)")
			fs.StringArrayVar(&f.old, "old", nil, "edit: the `TEXT` to replace (repeatable, each with a --new)")
			fs.StringArrayVar(&f.new, "new", nil, "edit: the `TEXT` to put in its place")
			fs.BoolVar(&f.dryRun, "dry-run", false, "edit: print the diff, write nothing")
			fs.BoolVarP(&f.ignoreCase, "ignore-case", "i", false, "grep: match letters of either case")
			fs.BoolVarP(&f.literal, "fixed-strings", "F", false, "grep: PATTERN is a plain string")
			fs.IntVarP(&f.context, "context", "C", 0, "grep: `N` lines before and after each match")
			fs.IntVar(&f.maxMatches, "max-matches", 0, "grep: at most `N` matching lines (0: 1000)")
			fs.StringArrayVar(&f.include, "include", nil, "grep: only files whose project-relative path matches `GLOB` (repeatable)")
		},
		run: func(ctx context.Context, e *env, args []string) (any, error) { return runFS(ctx, e, f, args) },
	}
}

// fsArgs is how many paths each operation takes.
var fsArgs = map[string][2]int{
	"read": {1, 1 << 16}, "ls": {0, 1}, "info": {1, 1}, "grep": {1, 2}, "tree": {0, 1}, "backups": {1, 1}, "restore": {2, 2}, "write": {1, 1}, "edit": {1, 1},
	"mkdir": {1, 1}, "cp": {2, 2}, "mv": {2, 2}, "rm": {1, 1},
}

func runFS(ctx context.Context, e *env, f *fsFlags, args []string) (any, error) {
	op, paths, err := fsOperation(args)
	if err != nil {
		return nil, err
	}
	backup := !f.noBackup
	switch op {
	case "read":
		if len(paths) > 1 {
			return fsReadMany(ctx, e, f, paths)
		}
		return fsRead(ctx, e, f, paths[0])
	case "grep":
		return fsGrep(ctx, e, f, paths)
	case "backups":
		return fsBackups(ctx, e, paths[0])
	case "restore":
		res, err := e.eng.RestoreBackup(ctx, paths[0], paths[1])
		return nilIfErr(e, res, err)
	case "tree":
		return fsTree(ctx, e, f, paths)
	case "ls":
		return fsList(ctx, e, f, paths)
	case "info":
		return fsInfo(ctx, e, paths[0])
	case "edit":
		return fsEdit(ctx, e, f, paths[0], backup)
	}
	res, err := fsWrite(ctx, e, f, op, paths, backup)
	if err == nil && !e.json() {
		fmt.Fprintln(e.stdout, res.Path)
		if res.Backup != "" {
			fmt.Fprintf(e.stderr, "taskctl: the previous content is kept in %s\n", res.Backup)
		}
	}
	return nilIfErr(e, res, err)
}

// fsOperation splits fs's arguments into the operation and its paths, and
// checks that the operation takes that many.
func fsOperation(args []string) (op string, paths []string, err error) {
	if len(args) == 0 {
		return "", nil, usageErr("fs needs an operation: read, ls, tree, info, grep, write, edit, mkdir, cp, mv, rm, backups or restore")
	}
	op, paths = args[0], args[1:]
	n, ok := fsArgs[op]
	if !ok {
		return "", nil, usageErr("unknown fs operation %q (read, ls, tree, info, grep, write, edit, mkdir, cp, mv, rm, backups, restore)", op)
	}
	if len(paths) < n[0] || len(paths) > n[1] {
		want := map[string]string{"ls": "at most one DIR", "tree": "at most one DIR", "cp": "SRC and DST", "mv": "SRC and DST",
			"grep": "PATTERN and at most one PATH", "restore": "PATH and a backup NAME"}[op]
		if want == "" {
			want = "one PATH"
		}
		return "", nil, usageErr("fs %s takes %s", op, want)
	}
	return op, paths, nil
}

// fsRead prints one file's content (or the range asked for).
func fsRead(ctx context.Context, e *env, f *fsFlags, path string) (any, error) {
	res, err := e.eng.ReadFile(ctx, engine.ReadFileRequest{Path: path, Encoding: f.encoding,
		MaxLines: f.maxLines, SkipLines: f.skipLines, MaxBytes: f.maxBytes,
		Head: f.head, FromLine: f.fromLine, Tail: f.tail, Offset: f.offset, Length: f.length})
	if err == nil && !e.json() {
		io.WriteString(e.stdout, res.Content)
	}
	return nilIfErr(e, res, err)
}

// fsBackups prints the backups kept of a file, name and size.
func fsBackups(ctx context.Context, e *env, path string) (any, error) {
	res, err := e.eng.ListBackups(ctx, path)
	if err == nil && !e.json() {
		for _, b := range res.Backups {
			fmt.Fprintf(e.stdout, "%s\t%d\n", b.Name, b.Size)
		}
	}
	return nilIfErr(e, res, err)
}

// fsTree prints a directory (the working dir without one) as a tree.
func fsTree(ctx context.Context, e *env, f *fsFlags, paths []string) (any, error) {
	dir := "."
	if len(paths) == 1 {
		dir = paths[0]
	}
	res, err := e.eng.DirectoryTree(ctx, dir, f.maxDepth, f.hidden)
	if err == nil && !e.json() {
		printTree(e.stdout, res.Entries, "")
	}
	return nilIfErr(e, res, err)
}

// fsList prints a directory's entries (the working dir's without one), a
// directory's with a slash.
func fsList(ctx context.Context, e *env, f *fsFlags, paths []string) (any, error) {
	dir := "."
	if len(paths) == 1 {
		dir = paths[0]
	}
	res, err := e.eng.ListDirectory(ctx, engine.ListRequest{Path: dir, Pattern: f.pattern, Recursive: f.recursive,
		IncludeHidden: f.hidden, MaxDepth: f.maxDepth})
	if err == nil && !e.json() {
		for _, it := range res.Items {
			suffix := ""
			if it.Type == "directory" {
				suffix = "/"
			}
			fmt.Fprintf(e.stdout, "%s%s\n", it.Path, suffix)
		}
	}
	return nilIfErr(e, res, err)
}

// fsInfo prints what FileInfo says of a path.
func fsInfo(ctx context.Context, e *env, path string) (any, error) {
	res, err := e.eng.FileInfo(ctx, path)
	if err == nil && !e.json() {
		fmt.Fprintf(e.stdout, "path: %s\nexists: %t\n", res.Path, res.Exists)
		if res.Exists {
			fmt.Fprintf(e.stdout, "type: %s\nsize: %d\nmodified: %s\nmode: %s\n", res.Type, res.Size,
				res.Modified.Format("2006-01-02T15:04:05.000000000Z07:00"), res.Mode)
		}
	}
	return nilIfErr(e, res, err)
}

// printTree prints a tree's entries, a directory's below it, indented.
func printTree(w io.Writer, ns []*engine.TreeNode, indent string) {
	for _, n := range ns {
		if n.Type == "directory" {
			fmt.Fprintf(w, "%s%s/\n", indent, n.Name)
			printTree(w, n.Children, indent+"  ")
			continue
		}
		fmt.Fprintf(w, "%s%s\n", indent, n.Name)
	}
}

// fsReadMany reads several files: each under a "==> PATH <==" line, one
// that cannot be read a warning with its code.
func fsReadMany(ctx context.Context, e *env, f *fsFlags, paths []string) (any, error) {
	res, err := e.eng.ReadFiles(ctx, paths, engine.ReadFileRequest{Encoding: f.encoding, MaxLines: f.maxLines,
		SkipLines: f.skipLines, MaxBytes: f.maxBytes, Head: f.head, FromLine: f.fromLine, Tail: f.tail, Offset: f.offset, Length: f.length})
	if err != nil {
		return nil, err
	}
	e.warn(res.Warnings)
	for _, r := range res.Files {
		if r.Error != nil {
			e.warn([]diag.Warning{{Code: r.Error.Code, Message: r.Error.Message}})
			continue
		}
		if !e.json() {
			fmt.Fprintf(e.stdout, "==> %s <==\n%s", r.File.Path, r.File.Content)
			if !strings.HasSuffix(r.File.Content, "\n") {
				io.WriteString(e.stdout, "\n")
			}
		}
	}
	return res, nil
}

// fsGrep prints the matching lines as path:line:text (context lines
// path-line-text), paths relative to the project dir.
func fsGrep(ctx context.Context, e *env, f *fsFlags, args []string) (any, error) {
	req := engine.GrepRequest{Pattern: args[0], Literal: f.literal, IgnoreCase: f.ignoreCase, Include: f.include,
		Context: f.context, MaxMatches: f.maxMatches}
	if len(args) == 2 {
		req.Path = args[1]
	}
	res, err := e.eng.Grep(ctx, req)
	if err != nil {
		return nil, err
	}
	e.warn(res.Warnings)
	if !e.json() {
		res.WriteLines(e.stdout)
	}
	return res, nil
}

// fsWrite runs write, mkdir, cp, mv and rm.
func fsWrite(ctx context.Context, e *env, f *fsFlags, op string, paths []string, backup bool) (*engine.FileOpResult, error) {
	switch op {
	case "write":
		cfg, err := e.eng.Settings()
		if err != nil {
			return nil, err
		}
		// One byte over the cap is enough for the engine to refuse it.
		data, err := io.ReadAll(io.LimitReader(e.stdin, cfg.MaxFileBytes+1))
		if err != nil {
			return nil, fmt.Errorf("read stdin: %w", err)
		}
		return e.eng.WriteFile(ctx, engine.WriteRequest{Path: paths[0], Content: data, Overwrite: f.overwrite, Backup: backup})
	case "mkdir":
		return e.eng.CreateDirectory(ctx, paths[0])
	case "cp":
		return e.eng.CopyFile(ctx, engine.CopyRequest{Source: paths[0], Destination: paths[1], Overwrite: f.overwrite, Backup: backup})
	case "mv":
		return e.eng.MoveFile(ctx, engine.CopyRequest{Source: paths[0], Destination: paths[1], Overwrite: f.overwrite, Backup: backup})
	}
	res, err := e.eng.DeleteFile(ctx, paths[0], f.yes)
	return res, engine.ConfirmHint(err, "give --yes")
}

func fsEdit(ctx context.Context, e *env, f *fsFlags, path string, backup bool) (any, error) {
	if len(f.old) == 0 || len(f.old) != len(f.new) {
		return nil, usageErr("fs edit needs --old TEXT --new TEXT pairs (%d --old, %d --new)", len(f.old), len(f.new))
	}
	edits := make([]engine.Edit, len(f.old))
	for i := range f.old {
		edits[i] = engine.Edit{OldText: f.old[i], NewText: f.new[i]}
	}
	res, err := e.eng.EditFile(ctx, engine.EditRequest{Path: path, Edits: edits, DryRun: f.dryRun, Backup: backup})
	if err == nil && !e.json() {
		io.WriteString(e.stdout, res.Diff)
		if !strings.HasSuffix(res.Diff, "\n") && res.Diff != "" {
			io.WriteString(e.stdout, "\n")
		}
	}
	return nilIfErr(e, res, err)
}

// nilIfErr keeps a typed nil out of the envelope's data, and records the
// warnings of a result.
func nilIfErr(e *env, res engine.Reporter, err error) (any, error) {
	if err != nil {
		return nil, err
	}
	e.warn(res.Said())
	return res, nil
}
