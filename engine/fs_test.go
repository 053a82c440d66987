package engine_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/taskctl/taskctl/engine"
	"github.com/taskctl/taskctl/internal/diag"
)

// fsProject makes a project with a git dir, a source file and a file
// outside it; it returns the project dir and the outside dir.
func fsProject(t *testing.T) (proj, outside, xdg string) {
	t.Helper()
	dir := t.TempDir()
	proj, outside, xdg = filepath.Join(dir, "proj"), filepath.Join(dir, "outside"), filepath.Join(dir, "xdg")
	writeFiles(t, dir, map[string]string{
		"proj/.git/HEAD":     "ref: refs/heads/main\n",
		"proj/src/main.go":   "package main\n",
		"proj/README.md":     "# hello\n",
		"outside/secret.txt": "outside\n",
		"xdg/.keep":          "",
	})
	return proj, outside, xdg
}

func code(err error) diag.Code {
	var ee *engine.Error
	if errors.As(err, &ee) {
		return ee.Code
	}
	return ""
}

// TestFSWriteReadBack: a write in the workspace (named relative to the
// working dir, the project dir here) reads
// back through read_file by its absolute path, is listed and described;
// overwrite is refused unless asked, and then backs the old content up.
func TestFSWriteReadBack(t *testing.T) {
	proj, _, xdg := fsProject(t)
	e := open(t, proj, xdg, engine.Options{Command: "fs"})
	ctx := context.Background()
	ws := filepath.Join(proj, ".taskctl", "workspace")
	r, err := e.WriteFile(ctx, engine.WriteRequest{Path: ".taskctl/workspace/notes/a.md", Content: []byte("one\ntwo\n")})
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(ws, "notes", "a.md"); r.Path != want || !r.Created || r.Bytes != 8 {
		t.Fatalf("write = %+v, want a new file at %s of 8 bytes", r, want)
	}
	got, err := e.ReadFile(ctx, engine.ReadFileRequest{Path: r.Path, SkipLines: 1})
	if err != nil {
		t.Fatal(err)
	}
	if got.Content != "two\n" || got.Lines != 2 || got.Size != 8 || got.Truncated {
		t.Errorf("read back = %+v", got)
	}
	if _, err := e.WriteFile(ctx, engine.WriteRequest{Path: ".taskctl/workspace/notes/a.md", Content: []byte("x")}); code(err) != diag.FileExists {
		t.Errorf("second write without overwrite: %v, want FILE_EXISTS", err)
	}
	r2, err := e.WriteFile(ctx, engine.WriteRequest{Path: ".taskctl/workspace/notes/a.md", Content: []byte("x"), Overwrite: true, Backup: true})
	if err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(r2.Backup); err != nil || string(b) != "one\ntwo\n" || !strings.HasPrefix(r2.Backup, filepath.Join(proj, ".taskctl", "backups")+"/") {
		t.Errorf("backup %q = %q, %v", r2.Backup, b, err)
	}
	l, err := e.ListDirectory(ctx, engine.ListRequest{Path: ws, Recursive: true})
	if err != nil {
		t.Fatal(err)
	}
	if l.TotalFiles != 1 || l.TotalDirectories != 1 || l.Items[1].Path != r.Path {
		t.Errorf("listing = %+v", l)
	}
	info, err := e.FileInfo(ctx, "missing.txt")
	if err != nil || info.Exists {
		t.Errorf("info of a missing file = %+v, %v", info, err)
	}
}

// TestFSDeleteMoveEdit: delete needs confirmation and keeps a backup; a
// move stays in the write area; an edit's old text must match once; every
// write operation is in the audit log, refused ones too.
func TestFSDeleteMoveEdit(t *testing.T) {
	proj, _, xdg := fsProject(t)
	e := open(t, proj, xdg, engine.Options{Command: "mcp"})
	e.ResolveFromProject()
	ctx := context.Background()
	if _, err := e.WriteFile(ctx, engine.WriteRequest{Path: ".taskctl/workspace/a.txt", Content: []byte("alpha beta beta\n")}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.DeleteFile(ctx, ".taskctl/workspace/a.txt", false); code(err) != diag.ConfirmRequired {
		t.Errorf("delete without confirm: %v", err)
	}
	if _, err := e.EditFile(ctx, engine.EditRequest{Path: ".taskctl/workspace/a.txt", Edits: []engine.Edit{{OldText: "beta", NewText: "x"}}}); code(err) != diag.EditAmbiguous {
		t.Errorf("ambiguous edit: %v", err)
	}
	if _, err := e.EditFile(ctx, engine.EditRequest{Path: ".taskctl/workspace/a.txt", Edits: []engine.Edit{{OldText: "gamma", NewText: "x"}}}); code(err) != diag.EditNoMatch {
		t.Errorf("edit of missing text: %v", err)
	}
	dry, err := e.EditFile(ctx, engine.EditRequest{Path: ".taskctl/workspace/a.txt", DryRun: true, Edits: []engine.Edit{{OldText: "alpha", NewText: "ALPHA"}}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(dry.Diff, "-alpha beta beta\n+ALPHA beta beta\n") {
		t.Errorf("diff = %q", dry.Diff)
	}
	ws := filepath.Join(proj, ".taskctl", "workspace")
	if b, _ := os.ReadFile(filepath.Join(ws, "a.txt")); string(b) != "alpha beta beta\n" {
		t.Errorf("a dry run wrote %q", b)
	}
	if _, err := e.EditFile(ctx, engine.EditRequest{Path: ".taskctl/workspace/a.txt", Edits: []engine.Edit{{OldText: "alpha", NewText: "ALPHA"}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.MoveFile(ctx, engine.CopyRequest{Source: ".taskctl/workspace/a.txt", Destination: ".taskctl/workspace/sub/b.txt"}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.MoveFile(ctx, engine.CopyRequest{Source: ".taskctl/workspace/sub/b.txt", Destination: filepath.Join(proj, "src", "b.txt")}); code(err) != diag.PathNotWritable {
		t.Errorf("move into the sources without a write root: %v", err)
	}
	d, err := e.DeleteFile(ctx, ".taskctl/workspace/sub/b.txt", true)
	if err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(d.Backup); err != nil || string(b) != "ALPHA beta beta\n" {
		t.Errorf("deleted file's backup: %q, %v", b, err)
	}
	if _, err := os.Lstat(filepath.Join(ws, "sub", "b.txt")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("deleted file still there: %v", err)
	}
	ops := auditOps(t, proj)
	want := "write:true delete:false edit:false edit:false edit:true move:true move:false delete:true"
	if got := strings.Join(ops, " "); got != want {
		t.Errorf("audit log ops = %s\nwant %s", got, want)
	}
}

// TestFSPathRule: one string names one file, for reads and writes alike:
// on the command line a relative path is the working dir's, over MCP the
// project dir's; a write outside the write area names the workspace path.
func TestFSPathRule(t *testing.T) {
	proj, _, xdg := fsProject(t)
	ws := filepath.Join(proj, ".taskctl", "workspace")
	writeFiles(t, ws, map[string]string{"notes/.keep": ""})
	ctx := context.Background()

	// The CLI in the workspace: a.md is the workspace's, read and written.
	e := open(t, ws, xdg, engine.Options{Command: "fs", ProjectDir: proj})
	r, err := e.WriteFile(ctx, engine.WriteRequest{Path: "notes/a.md", Content: []byte("a\n")})
	if err != nil || r.Path != filepath.Join(ws, "notes", "a.md") {
		t.Fatalf("write from the workspace = %+v, %v", r, err)
	}
	if got, err := e.ReadFile(ctx, engine.ReadFileRequest{Path: "notes/a.md"}); err != nil || got.Path != r.Path {
		t.Errorf("read from the workspace = %+v, %v", got, err)
	}

	// The CLI in the project dir, and an MCP client wherever the server
	// started: notes/a.md is the project's, outside the write area.
	cli := open(t, proj, xdg, engine.Options{Command: "fs"})
	mcp := open(t, filepath.Join(proj, "src"), xdg, engine.Options{Command: "mcp", ProjectDir: proj})
	mcp.ResolveFromProject()
	for name, e := range map[string]*engine.Engine{"cli": cli, "mcp": mcp} {
		_, err := e.WriteFile(ctx, engine.WriteRequest{Path: "notes/b.md", Content: []byte("b\n")})
		if code(err) != diag.PathNotWritable || !strings.Contains(err.Error(), "write .taskctl/workspace/notes/b.md instead") {
			t.Errorf("%s: write outside the workspace: %v", name, err)
		}
		if _, err := e.ReadFile(ctx, engine.ReadFileRequest{Path: "notes/b.md"}); code(err) != diag.PathNotFound {
			t.Errorf("%s: read of the refused write: %v", name, err)
		}
		if _, err := e.ReadFile(ctx, engine.ReadFileRequest{Path: "notes/a.md"}); code(err) != diag.PathNotFound ||
			!strings.Contains(err.Error(), "the workspace has .taskctl/workspace/notes/a.md") {
			t.Errorf("%s: read of a name the workspace has: %v", name, err)
		}
		w, err := e.WriteFile(ctx, engine.WriteRequest{Path: ".taskctl/workspace/notes/" + name + ".md", Content: []byte(name)})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, p := range []string{".taskctl/workspace/notes/" + name + ".md", w.Path} {
			if got, err := e.ReadFile(ctx, engine.ReadFileRequest{Path: p}); err != nil || got.Content != name {
				t.Errorf("%s: read %s = %+v, %v", name, p, got, err)
			}
			if _, err := e.EditFile(ctx, engine.EditRequest{Path: p, DryRun: true, Edits: []engine.Edit{{OldText: name, NewText: "x"}}}); err != nil {
				t.Errorf("%s: edit %s: %v", name, p, err)
			}
		}
		if got, err := e.ReadFile(ctx, engine.ReadFileRequest{Path: "src/main.go"}); name == "mcp" && (err != nil || got.Content != "package main\n") {
			t.Errorf("mcp from src/: read src/main.go = %+v, %v", got, err)
		}
	}
}

func auditOps(t *testing.T, proj string) []string {
	t.Helper()
	f, err := os.Open(filepath.Join(proj, ".taskctl", "audit.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var ops []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var rec struct {
			Op string
			OK bool
		}
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			t.Fatal(err)
		}
		ops = append(ops, rec.Op+":"+map[bool]string{true: "true", false: "false"}[rec.OK])
	}
	return ops
}

// TestFSWriteRootTrust: a <write_root> of the project's own config is
// ignored until the config is trusted (CONFIG_UNTRUSTED), and so is its
// <workspace>; the user's config may name one.
func TestFSWriteRootTrust(t *testing.T) {
	proj, _, xdg := fsProject(t)
	writeFiles(t, proj, map[string]string{".taskctl/config.xml": `<config><policy><write_root>../src</write_root></policy><workspace>../src</workspace></config>`})
	e := open(t, proj, xdg, engine.Options{})
	ctx := context.Background()
	if _, err := e.WriteFile(ctx, engine.WriteRequest{Path: filepath.Join(proj, "src", "new.go"), Content: []byte("x")}); code(err) != diag.PathNotWritable {
		t.Errorf("write into src/ named by an untrusted config: %v", err)
	}
	var untrusted []string
	for _, w := range e.ConfigWarnings() {
		if w.Code == diag.ConfigUntrusted {
			untrusted = append(untrusted, w.Message)
		}
	}
	if len(untrusted) != 2 {
		t.Errorf("CONFIG_UNTRUSTED warnings = %q, want write_root and workspace", untrusted)
	}
	writeFiles(t, xdg, map[string]string{"taskctl/config.xml": `<config><policy><write_root>` + filepath.Join(proj, "src") + `</write_root></policy></config>`})
	e = open(t, proj, xdg, engine.Options{})
	if _, err := e.WriteFile(ctx, engine.WriteRequest{Path: filepath.Join(proj, "src", "new.go"), Content: []byte("x")}); err != nil {
		t.Errorf("write into a write root of the user's config: %v", err)
	}
	if _, err := e.WriteFile(ctx, engine.WriteRequest{Path: filepath.Join(proj, "src", ".env"), Content: []byte("x")}); code(err) != diag.PathSensitive {
		t.Errorf("write of a sensitive name: %v", err)
	}
}
