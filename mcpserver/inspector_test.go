package mcpserver_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// inspectorPkg is the official MCP Inspector, whose CLI drives a server
// as a client would.
const inspectorPkg = "@modelcontextprotocol/inspector@2.12.0"

// TestInspector drives 'taskctl mcp' with the MCP Inspector's CLI (npx,
// from the npm registry): list the tools, write, read back, refuse a
// write outside, delete with confirmation, get a prompt. Each call starts
// Node and the server (some seconds; the first run downloads the
// Inspector), so it runs only when TASKCTL_INSPECTOR=1 (.ci/run sets it),
// and skips, saying why, where npx is missing.
func TestInspector(t *testing.T) {
	if os.Getenv("TASKCTL_INSPECTOR") != "1" {
		t.Skip("set TASKCTL_INSPECTOR=1 to run the MCP Inspector end-to-end test (it needs npx and the npm registry)")
	}
	npx, err := exec.LookPath("npx")
	if err != nil {
		t.Skip("npx is not installed: the MCP Inspector end-to-end test cannot run here")
	}
	f := newFixture(t)
	bin := taskctlBin(t)
	run := func(args ...string) (map[string]any, string) {
		t.Helper()
		full := append([]string{"-y", inspectorPkg, "--cli", bin, "mcp", "--project-dir", f.proj}, args...)
		cmd := exec.Command(npx, full...)
		cmd.Env = append(os.Environ(), "XDG_CONFIG_HOME="+f.xdg, "npm_config_update_notifier=false")
		start := time.Now()
		out, err := cmd.Output()
		t.Logf("inspector %s: %v", strings.Join(args, " "), time.Since(start).Round(time.Millisecond))
		var m map[string]any
		if jerr := json.Unmarshal(out, &m); jerr != nil {
			var stderr string
			if ee, ok := err.(*exec.ExitError); ok {
				stderr = string(ee.Stderr)
			}
			t.Fatalf("inspector %v: %v, %v\n%s\n%s", args, err, jerr, out, stderr)
		}
		return m, string(out)
	}

	m, _ := run("--method", "tools/list")
	if tools, _ := m["tools"].([]any); len(tools) != 22 {
		t.Errorf("tools/list: %d tools, want 22", len(tools))
	}
	for _, tool := range m["tools"].([]any) {
		if tm := tool.(map[string]any); tm["annotations"] == nil {
			t.Errorf("tools/list: %v has no annotations", tm["name"])
		}
	}
	// --strict reports the schemas' portability problems on stderr.
	strict := exec.Command(npx, "-y", inspectorPkg, "--cli", "--strict", bin, "mcp", "--project-dir", f.proj, "--method", "tools/list")
	strict.Env = append(os.Environ(), "XDG_CONFIG_HOME="+f.xdg, "npm_config_update_notifier=false")
	var stderr strings.Builder
	strict.Stderr = &stderr
	if err := strict.Run(); err != nil || strings.Contains(stderr.String(), "Warning") {
		t.Errorf("inspector --strict tools/list: %v\n%s", err, stderr.String())
	}

	m, out := run("--method", "tools/call", "--tool-name", "write_file", "--tool-arg", "path=.taskctl/workspace/notes/a.md", "--tool-arg", "content=hello from the inspector")
	wrote := filepath.Join(f.ws, "notes", "a.md")
	if sc, _ := m["structuredContent"].(map[string]any); sc["path"] != wrote {
		t.Errorf("write_file: %s", out)
	}
	if b, err := os.ReadFile(wrote); err != nil || string(b) != "hello from the inspector" {
		t.Errorf("written file: %q, %v", b, err)
	}

	m, out = run("--method", "tools/call", "--tool-name", "read_file", "--tool-arg", "path="+wrote)
	if sc, _ := m["structuredContent"].(map[string]any); sc["content"] != "hello from the inspector" {
		t.Errorf("read_file: %s", out)
	}

	// A tool error is the inspector's error (exit status and a JSON error).
	m, out = run("--method", "tools/call", "--tool-name", "write_file", "--tool-arg", "path=../../outside/x", "--tool-arg", "content=x")
	if !strings.Contains(out, "isError") && m["error"] == nil {
		t.Errorf("write outside was not refused: %s", out)
	}
	if _, err := os.Stat(filepath.Join(f.outside, "x")); err == nil {
		t.Errorf("the write outside happened")
	}

	m, out = run("--method", "tools/call", "--tool-name", "delete_file", "--tool-arg", "path=.taskctl/workspace/notes/a.md", "--tool-arg", "confirm=true")
	if sc, _ := m["structuredContent"].(map[string]any); sc["operation"] != "delete" {
		t.Errorf("delete_file: %s", out)
	}

	_, out = run("--method", "prompts/get", "--prompt-name", "review", "--prompt-args", "area=src/auth")
	if !strings.Contains(out, "Look closely at src/auth.") || !strings.Contains(out, "func Authenticate") {
		t.Errorf("prompts/get: %s", out)
	}
}
