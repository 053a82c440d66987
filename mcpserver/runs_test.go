package mcpserver_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunAndResume: the run tool runs a task with the executor of the
// user's config, runs lists and shows it, and a resume reuses its step.
func TestRunAndResume(t *testing.T) {
	f := newFixture(t)
	cfg := `<config><run><executor>cat</executor></run></config>`
	if err := os.WriteFile(filepath.Join(f.xdg, "taskctl", "config.xml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	cs := connect(t, f)
	res := callTool(t, cs, "run", map[string]any{"task": "review", "vars": map[string]any{"area": "src"}})
	if res.IsError {
		t.Fatalf("run: %s", text(res))
	}
	d := data(t, res)
	id, _ := d["run_id"].(string)
	if d["status"] != "ok" || id == "" {
		t.Fatalf("run data: status %v, run_id %q", d["status"], id)
	}
	res = callTool(t, cs, "runs", map[string]any{})
	if res.IsError || !strings.Contains(text(res), id+"  ok") {
		t.Fatalf("runs: %s", text(res))
	}
	res = callTool(t, cs, "run", map[string]any{"resume": id})
	if res.IsError {
		t.Fatalf("resume: %s", text(res))
	}
	if !strings.Contains(text(res), "resumed from "+id) || !strings.Contains(text(res), "reused from "+id) {
		t.Fatalf("resume did not reuse the step of %s:\n%s", id, text(res))
	}
	res = callTool(t, cs, "runs", map[string]any{"run_id": "20990101-000000-beef"})
	if !res.IsError || !strings.Contains(text(res), "RUN_NOT_FOUND") {
		t.Fatalf("runs of no run: %s", text(res))
	}
}
