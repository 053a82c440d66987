package mcpserver_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOnePathOneFile: over MCP a relative path is the project dir's, for
// reads and writes alike, wherever the server was started; every path a
// tool returns can be passed back to any tool as it is.
func TestOnePathOneFile(t *testing.T) {
	f := newFixture(t)
	write(t, f.proj, map[string]string{"notes/.keep": ""})
	write(t, f.xdg, map[string]string{"taskctl/config.xml": "<config><policy><write_root>" + filepath.Join(f.proj, "notes") +
		"</write_root></policy></config>"})
	cs := connectAt(t, f, filepath.Join(f.proj, "src")) // started from a subdirectory

	// A write root: notes/plan.md is one file to write_file and read_file.
	res := callTool(t, cs, "write_file", map[string]any{"path": "notes/plan.md", "content": "# plan\nstep one\n"})
	wrote, _ := data(t, res)["path"].(string)
	if res.IsError || wrote != filepath.Join(f.proj, "notes", "plan.md") {
		t.Fatalf("write_file notes/plan.md: %s", text(res))
	}
	if res := callTool(t, cs, "read_file", map[string]any{"path": "notes/plan.md"}); res.IsError || data(t, res)["content"] != "# plan\nstep one\n" {
		t.Errorf("read_file notes/plan.md after write_file: %s", text(res))
	}
	if res := callTool(t, cs, "edit_file", map[string]any{"path": wrote, "edits": []any{map[string]any{"old_text": "one", "new_text": "1"}}}); res.IsError {
		t.Errorf("edit_file on the path write_file reported: %s", text(res))
	}

	// The workspace, by its project-relative name and by what write_file
	// reported; nothing is ever doubled into .taskctl/workspace/.taskctl/.
	const inWS = ".taskctl/workspace/notes/a.md"
	res = callTool(t, cs, "write_file", map[string]any{"path": inWS, "content": "alpha\n"})
	if res.IsError || data(t, res)["path"] != filepath.Join(f.proj, inWS) {
		t.Fatalf("write_file %s: %s", inWS, text(res))
	}
	wrote = data(t, res)["path"].(string)
	for _, p := range []string{inWS, wrote} {
		if res := callTool(t, cs, "read_file", map[string]any{"path": p}); res.IsError || data(t, res)["content"] != "alpha\n" {
			t.Errorf("read_file %s: %s", p, text(res))
		}
		if res := callTool(t, cs, "edit_file", map[string]any{"path": p, "dry_run": true,
			"edits": []any{map[string]any{"old_text": "alpha", "new_text": "beta"}}}); res.IsError {
			t.Errorf("edit_file %s: %s", p, text(res))
		}
		if res := callTool(t, cs, "file_info", map[string]any{"path": p}); data(t, res)["exists"] != true {
			t.Errorf("file_info %s: %s", p, text(res))
		}
	}
	res = callTool(t, cs, "list_directory", map[string]any{"path": ".taskctl/workspace/notes"})
	items, _ := data(t, res)["items"].([]any)
	if len(items) != 1 {
		t.Fatalf("list_directory: %s", text(res))
	}
	listed := items[0].(map[string]any)["path"].(string)
	if res := callTool(t, cs, "copy_file", map[string]any{"source": listed, "destination": ".taskctl/workspace/b.md"}); res.IsError {
		t.Errorf("copy_file of a listed path: %s", text(res))
	}
	if _, err := os.Stat(filepath.Join(f.ws, ".taskctl")); err == nil {
		t.Errorf("a path was doubled into %s", filepath.Join(f.ws, ".taskctl"))
	}

	// Outside the write area: refused, naming the workspace path to use.
	res = callTool(t, cs, "write_file", map[string]any{"path": "docs/plan.md", "content": "x"})
	if !res.IsError || !strings.HasPrefix(text(res), "PATH_NOT_WRITABLE: ") ||
		!strings.Contains(text(res), "write .taskctl/workspace/docs/plan.md instead") {
		t.Errorf("write_file outside the write area: %s", text(res))
	}

	// What assemble and search return reads back, though the server runs
	// in src/: the document's project-relative paths and the absolute ones.
	res = callTool(t, cs, "assemble", map[string]any{"task": "review", "vars": map[string]any{"area": "src"}})
	doc := data(t, res)
	files, _ := doc["files"].([]any)
	if res.IsError || len(files) == 0 {
		t.Fatalf("assemble: %s", text(res))
	}
	for _, fl := range files {
		m := fl.(map[string]any)
		for _, p := range []any{m["rel_path"], m["path"]} {
			if res := callTool(t, cs, "read_file", map[string]any{"path": p}); res.IsError {
				t.Errorf("read_file %v (from assemble): %s", p, text(res))
			}
		}
	}
	if !strings.Contains(text(res), "src/main.go") {
		t.Errorf("the document does not name src/main.go:\n%s", text(res))
	}
	res = callTool(t, cs, "search", map[string]any{"query": "authenticate token"})
	matches, _ := data(t, res)["matches"].([]any)
	if len(matches) == 0 {
		t.Fatalf("search: %s", text(res))
	}
	for _, m := range matches {
		p := m.(map[string]any)["path"]
		if res := callTool(t, cs, "read_file", map[string]any{"path": p}); res.IsError {
			t.Errorf("read_file %v (from search): %s", p, text(res))
		}
	}
	if res := callTool(t, cs, "validate", map[string]any{"path": ".taskctl/tasks/t.xml"}); res.IsError {
		t.Errorf("validate of a project-relative path from src/: %s", text(res))
	}
	if res := callTool(t, cs, "assemble", map[string]any{"task": ".taskctl/tasks/t.xml:review", "vars": map[string]any{"area": "x"}}); res.IsError {
		t.Errorf("assemble FILE:TASK by a project-relative path from src/: %s", text(res))
	}
}
