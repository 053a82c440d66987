package mcpserver_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestToolAnnotationsAndSchemas: every tool says whether it only reads
// (readOnlyHint) or may replace or remove (destructiveHint), and no
// schema has a type array (["null", "array"]), which one-type schema
// dialects reject (the Inspector's --strict warning).
func TestToolAnnotationsAndSchemas(t *testing.T) {
	f := newFixture(t)
	cs := connect(t, f)
	list, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	reads := map[string]bool{"read_file": true, "list_directory": true, "file_info": true, "search": true,
		"validate": true, "list_tasks": true, "assemble": true, "read_multiple_files": true, "grep": true,
		"list_allowed_directories": true, "runs": true, "directory_tree": true, "list_backups": true, "read_media_file": true}
	destructive := map[string]bool{"write_file": true, "edit_file": true, "move_file": true, "delete_file": true, "copy_file": true, "run": true, "restore_backup": true}
	for _, tool := range list.Tools {
		a := tool.Annotations
		switch {
		case a == nil:
			t.Errorf("%s: no annotations", tool.Name)
		case reads[tool.Name] && !a.ReadOnlyHint:
			t.Errorf("%s: not readOnlyHint", tool.Name)
		case destructive[tool.Name] && (a.ReadOnlyHint || a.DestructiveHint == nil || !*a.DestructiveHint):
			t.Errorf("%s: not destructiveHint", tool.Name)
		case !reads[tool.Name] && a.ReadOnlyHint:
			t.Errorf("%s: a write marked readOnlyHint", tool.Name)
		}
		for what, schema := range map[string]any{"input": tool.InputSchema, "output": tool.OutputSchema} {
			b, _ := json.Marshal(schema)
			if strings.Contains(string(b), `"type":[`) {
				t.Errorf("%s: a type array in the %s schema: %s", tool.Name, what, b)
			}
		}
	}
	if len(list.Tools) < 13 {
		t.Errorf("%d tools", len(list.Tools))
	}
}

// TestGrepAndReadMany: grep finds lines with their context in path
// order, leaves out ignored and binary files, and never shows a line of
// a file holding a secret; read_multiple_files reads each file, a
// refused one being an error in its entry.
func TestGrepAndReadMany(t *testing.T) {
	f := newFixture(t)
	write(t, f.proj, map[string]string{
		".gitignore":       "gen/\n",
		"gen/x.go":         "// Authenticate generated\n",
		"docs/auth.md":     "intro\nAuthenticate users\noutro\n",
		"keys/conf.txt":    "# Authenticate with\ngithub_token = ghp_R7d2kQ9wLm4Zx8Vb1Nc6Tp3Hs5Jf0Ay2Ue9G\n",
		"bin/blob.dat":     "Authenticate\x00\x01\x02",
		"src/sub/other.go": "package sub // authenticate lower\n",
	})
	cs := connect(t, f)
	res := callTool(t, cs, "grep", map[string]any{"pattern": "Authenticate", "context": 1})
	d := data(t, res)
	var rels []string
	for _, m := range d["matches"].([]any) {
		rels = append(rels, m.(map[string]any)["rel_path"].(string))
	}
	if strings.Join(rels, " ") != "docs/auth.md src/main.go src/main.go" {
		t.Errorf("grep matched %v:\n%s", rels, text(res))
	}
	out := text(res)
	for _, want := range []string{"docs/auth.md:2:Authenticate users", "docs/auth.md-1-intro", "docs/auth.md-3-outro", "SECRET_DETECTED"} {
		if !strings.Contains(out, want) {
			t.Errorf("grep output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "ghp_") || strings.Contains(out, "generated") {
		t.Errorf("grep showed a secret or an ignored file:\n%s", out)
	}
	res = callTool(t, cs, "grep", map[string]any{"pattern": "authenticate", "ignore_case": true, "path": "src", "include": []any{"*.go"}})
	if n := len(data(t, res)["matches"].([]any)); n != 3 {
		t.Errorf("grep -i in src/: %d matches:\n%s", n, text(res))
	}
	if res := callTool(t, cs, "grep", map[string]any{"pattern": "x", "path": "nowhere"}); !res.IsError || !strings.HasPrefix(text(res), "PATH_NOT_FOUND: ") {
		t.Errorf("grep in a missing directory: %s", text(res))
	}
	if res := callTool(t, cs, "grep", map[string]any{"pattern": "("}); !res.IsError || !strings.HasPrefix(text(res), "ARG_INVALID: ") {
		t.Errorf("a bad pattern: %s", text(res))
	}

	res = callTool(t, cs, "read_multiple_files", map[string]any{"paths": []any{"src/main.go", ".env", "README.md", "nope.txt"}})
	files := data(t, res)["files"].([]any)
	codes := []string{}
	for _, fl := range files {
		m := fl.(map[string]any)
		if e, ok := m["error"].(map[string]any); ok {
			codes = append(codes, e["code"].(string))
		} else {
			codes = append(codes, "ok")
		}
	}
	if res.IsError || strings.Join(codes, " ") != "ok PATH_SENSITIVE ok PATH_NOT_FOUND" || strings.Contains(text(res), "TOKEN=x") {
		t.Errorf("read_multiple_files: %v\n%s", codes, text(res))
	}
	res = callTool(t, cs, "directory_tree", map[string]any{"path": "src"})
	if d := data(t, res); res.IsError || !strings.Contains(text(res), "  sub/\n    other.go\n") ||
		len(d["entries"].([]any)) != 2 {
		t.Errorf("directory_tree src: %v\n%s", d, text(res))
	}
	res = callTool(t, cs, "list_allowed_directories", map[string]any{})
	if d := data(t, res); d["project"] != f.proj || d["workspace"] != f.ws {
		t.Errorf("list_allowed_directories: %v", d)
	}
}

// TestBackups: each overwrite keeps the old content, at most five
// backups a file; list_backups lists them oldest first and
// restore_backup writes one back, keeping what it replaces.
func TestBackups(t *testing.T) {
	f := newFixture(t)
	cs := connect(t, f)
	const p = ".taskctl/workspace/notes.md"
	for i := 0; i < 8; i++ {
		if res := callTool(t, cs, "write_file", map[string]any{"path": p, "content": fmt.Sprintf("version %d\n", i), "overwrite": true}); res.IsError {
			t.Fatal(text(res))
		}
	}
	res := callTool(t, cs, "list_backups", map[string]any{"path": p})
	list := data(t, res)["backups"].([]any)
	if len(list) != 5 {
		t.Fatalf("list_backups: %d backups, want the newest 5 of 7:\n%s", len(list), text(res))
	}
	oldest := list[0].(map[string]any)
	if b, err := os.ReadFile(oldest["path"].(string)); err != nil || string(b) != "version 2\n" {
		t.Errorf("the oldest backup kept holds %q, %v; want version 2", b, err)
	}
	if res := callTool(t, cs, "restore_backup", map[string]any{"path": p, "backup": oldest["name"]}); res.IsError {
		t.Fatalf("restore_backup: %s", text(res))
	}
	if b, _ := os.ReadFile(filepath.Join(f.ws, "notes.md")); string(b) != "version 2\n" {
		t.Errorf("after the restore the file holds %q", b)
	}
	if n := len(data(t, callTool(t, cs, "list_backups", map[string]any{"path": p}))["backups"].([]any)); n != 5 {
		t.Errorf("after the restore: %d backups, want 5 (version 7 kept, the oldest gone)", n)
	}
	write(t, f.ws, map[string]string{"other.md": "other\n"})
	for _, name := range []any{"../../src/main.go", "x", oldest["name"]} {
		if res := callTool(t, cs, "restore_backup", map[string]any{"path": ".taskctl/workspace/other.md", "backup": name}); !res.IsError {
			t.Errorf("restore_backup of %v into another file: %s", name, text(res))
		}
	}
}

// TestReadMedia: an image comes back as an image content block with its
// bytes and MIME type, audio as audio; other files are refused.
func TestReadMedia(t *testing.T) {
	f := newFixture(t)
	png := "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01"
	write(t, f.proj, map[string]string{"img/logo.png": png, "snd/beep.wav": "RIFF\x00\x00\x00\x00WAVE"})
	cs := connect(t, f)
	res := callTool(t, cs, "read_media_file", map[string]any{"path": "img/logo.png"})
	img, ok := res.Content[0].(*mcp.ImageContent)
	if res.IsError || !ok || string(img.Data) != png || img.MIMEType != "image/png" {
		t.Errorf("read_media_file png: %+v", res.Content)
	}
	res = callTool(t, cs, "read_media_file", map[string]any{"path": "snd/beep.wav"})
	if a, ok := res.Content[0].(*mcp.AudioContent); res.IsError || !ok || a.MIMEType != "audio/wav" {
		t.Errorf("read_media_file wav: %+v", res.Content)
	}
	for _, p := range []string{"src/main.go", ".git/x.png", "../outside/x.png"} {
		if res := callTool(t, cs, "read_media_file", map[string]any{"path": p}); !res.IsError {
			t.Errorf("read_media_file %s: %+v", p, res.Content)
		}
	}
}
