package mcpserver_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/taskctl/taskctl/engine"
	"github.com/taskctl/taskctl/mcpserver"
)

// fixture is a project beside a sibling whose name has the project's as a
// prefix (proj-evil) and an outside directory, with a task library.
type fixture struct {
	dir, proj, ws, outside, evil, xdg string
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	dir := t.TempDir()
	f := &fixture{dir: dir, proj: filepath.Join(dir, "proj"), outside: filepath.Join(dir, "outside"),
		evil: filepath.Join(dir, "proj-evil"), xdg: filepath.Join(dir, "xdg")}
	f.ws = filepath.Join(f.proj, ".taskctl", "workspace")
	write(t, dir, map[string]string{
		"proj/.git/HEAD":            "ref: refs/heads/main\n",
		"proj/.git/config":          "[core]\n",
		"proj/src/main.go":          "package main\n\n// Authenticate checks a token.\nfunc Authenticate() {}\n",
		"proj/README.md":            "# demo\nauthentication notes\n",
		"proj/.env":                 "TOKEN=x\n",
		"proj/.taskctl/tasks/t.xml": taskXML,
		"outside/secret.txt":        "outside secret\n",
		"proj-evil/x.txt":           "evil\n",
		"xdg/taskctl/.keep":         "",
	})
	return f
}

const taskXML = `<tasks>
<task name="review">
  <description>Review the code of an area</description>
  <instructions>Look closely at {{area}}.</instructions>
  <inputs><input name="area"/><input name="depth" default="1"/></inputs>
  <file_paths source="literal"><path>src/main.go</path></file_paths>
</task>
</tasks>`

func write(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// connect starts a server on the fixture's project and a client over the
// in-memory transports.
func connect(t *testing.T, f *fixture) *mcp.ClientSession {
	t.Helper()
	return connectAt(t, f, f.proj)
}

// connectAt is connect with the server started in the directory cwd.
func connectAt(t *testing.T, f *fixture, cwd string) *mcp.ClientSession {
	t.Helper()
	return connectWith(t, f, cwd, mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil), nil)
}

// connectWith is connectAt with the client c (its roots, its handlers)
// connecting with opts.
func connectWith(t *testing.T, f *fixture, cwd string, c *mcp.Client, opts *mcp.ClientSessionOptions) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	eng, srv := serve(ctx, t, f, cwd)
	t.Cleanup(func() { eng.Close() }) // after the session's close, which ConnectInMemory registers later
	return mcpserver.ConnectInMemory(ctx, t, srv, c, opts)
}

// serve opens an engine of f's project as `taskctl mcp` run in cwd would
// (the fixture's user config), starts its session and builds its server.
// Closing the engine is the caller's.
func serve(ctx context.Context, t *testing.T, f *fixture, cwd string) (*engine.Engine, *mcpserver.Server) {
	t.Helper()
	eng, err := engine.Open(ctx, engine.Options{Cwd: cwd, ProjectDir: f.proj, Command: "mcp",
		Getenv: func(k string) string {
			if k == "XDG_CONFIG_HOME" {
				return f.xdg
			}
			return ""
		}})
	if err != nil {
		t.Fatal(err)
	}
	if err := eng.StartSession(ctx); err != nil {
		eng.Close()
		t.Fatal(err)
	}
	srv, err := mcpserver.New(eng)
	if err != nil {
		eng.Close()
		t.Fatal(err)
	}
	return eng, srv
}

// callTool calls a tool and fails the test on a protocol error.
func callTool(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s %.300v: protocol error %v", name, args, err)
	}
	return res
}

func text(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// data decodes a result's structured content.
func data(t *testing.T, res *mcp.CallToolResult) map[string]any {
	t.Helper()
	raw, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("structured content %s: %v", raw, err)
	}
	return m
}

// TestTools: every tool is listed with an input schema, and each answers
// with text and the CLI's data shape.
func TestTools(t *testing.T) {
	f := newFixture(t)
	cs := connect(t, f)
	ctx := context.Background()
	list, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range list.Tools {
		names = append(names, tool.Name)
		if tool.InputSchema == nil {
			t.Errorf("tool %s has no input schema", tool.Name)
		}
		// One type a property: clients that map schemas onto a one-type
		// dialect (Gemini's) reject ["null", "array"].
		if b, _ := json.Marshal(tool.InputSchema); strings.Contains(string(b), `"type":[`) {
			t.Errorf("tool %s has a nullable input type: %s", tool.Name, b)
		}
	}
	sort.Strings(names)
	want := "assemble copy_file create_directory delete_file directory_tree edit_file file_info grep list_allowed_directories list_backups list_directory list_tasks move_file read_file read_media_file read_multiple_files restore_backup run runs search validate write_file"
	if got := strings.Join(names, " "); got != want {
		t.Fatalf("tools = %s\nwant %s", got, want)
	}

	res := callTool(t, cs, "search", map[string]any{"query": "authenticate a token", "limit": 3})
	if res.IsError || !strings.Contains(text(res), filepath.Join(f.proj, "src", "main.go")) {
		t.Errorf("search: %s", text(res))
	}
	if m := data(t, res); m["query"] != "authenticate a token" || len(m["matches"].([]any)) == 0 {
		t.Errorf("search data = %v", m)
	}

	res = callTool(t, cs, "assemble", map[string]any{"task": "review", "vars": map[string]any{"area": "src"}})
	if res.IsError || !strings.Contains(text(res), "func Authenticate") {
		t.Fatalf("assemble: %s", text(res))
	}
	doc := data(t, res)
	files := doc["files"].([]any)
	if doc["task"] != "review" || len(files) != 1 || files[0].(map[string]any)["path"] != filepath.Join(f.proj, "src", "main.go") {
		t.Errorf("assemble data = %v", doc)
	}
	res = callTool(t, cs, "assemble", map[string]any{"task": "review", "vars": map[string]any{"area": "src"}, "paths_only": true})
	if got := strings.TrimSpace(text(res)); got != filepath.Join(f.proj, "src", "main.go") {
		t.Errorf("assemble paths_only = %q", got)
	}
	res = callTool(t, cs, "assemble", map[string]any{"task": filepath.Join(f.proj, ".taskctl", "tasks", "t.xml") + ":review", "vars": map[string]any{"area": "src"}, "paths_only": true})
	if got := strings.TrimSpace(text(res)); got != filepath.Join(f.proj, "src", "main.go") {
		t.Errorf("assemble FILE:TASK = %q", got)
	}
	res = callTool(t, cs, "assemble", map[string]any{"task": "nosuch"})
	if !res.IsError || !strings.HasPrefix(text(res), "TASK_NOT_FOUND: ") {
		t.Errorf("assemble of a missing task: %s", text(res))
	}

	res = callTool(t, cs, "list_tasks", map[string]any{})
	tasks := data(t, res)["tasks"].([]any)
	if len(tasks) != 1 || tasks[0].(map[string]any)["name"] != "review" {
		t.Errorf("list_tasks = %v", tasks)
	}

	write(t, f.proj, map[string]string{"bad.xml": "<task name=\"x\">\n<nope/>\n</task>\n"})
	res = callTool(t, cs, "validate", map[string]any{"path": "bad.xml"})
	if res.IsError || !strings.Contains(text(res), filepath.Join(f.proj, "bad.xml")+":2:") {
		t.Errorf("validate: %s", text(res))
	}

	res = callTool(t, cs, "write_file", map[string]any{"path": ".taskctl/workspace/notes/a.md", "content": "one\ntwo\n"})
	wrote := filepath.Join(f.ws, "notes", "a.md")
	if res.IsError || data(t, res)["path"] != wrote {
		t.Fatalf("write_file: %s", text(res))
	}
	res = callTool(t, cs, "read_file", map[string]any{"path": wrote, "max_lines": 1})
	if m := data(t, res); m["content"] != "one\n" || m["truncated"] != true || m["lines"] != float64(2) {
		t.Errorf("read_file = %v", m)
	}
	res = callTool(t, cs, "edit_file", map[string]any{"path": ".taskctl/workspace/notes/a.md", "edits": []any{map[string]any{"old_text": "two", "new_text": "2"}}})
	if res.IsError || !strings.Contains(text(res), "-two\n+2\n") {
		t.Errorf("edit_file: %s", text(res))
	}
	res = callTool(t, cs, "copy_file", map[string]any{"source": "src/main.go", "destination": ".taskctl/workspace/copy/main.go"})
	if res.IsError {
		t.Errorf("copy_file: %s", text(res))
	}
	res = callTool(t, cs, "move_file", map[string]any{"source": ".taskctl/workspace/copy/main.go", "destination": ".taskctl/workspace/moved.go"})
	if res.IsError {
		t.Errorf("move_file: %s", text(res))
	}
	res = callTool(t, cs, "create_directory", map[string]any{"path": ".taskctl/workspace/a/b/c"})
	if res.IsError || data(t, res)["created"] != true {
		t.Errorf("create_directory: %s", text(res))
	}
	res = callTool(t, cs, "list_directory", map[string]any{"path": f.ws, "recursive": true})
	if m := data(t, res); m["total_files"] != float64(2) || m["total_directories"] != float64(5) {
		t.Errorf("list_directory = %v", m)
	}
	res = callTool(t, cs, "file_info", map[string]any{"path": filepath.Join(f.ws, "moved.go")})
	if m := data(t, res); m["exists"] != true || m["type"] != "file" || m["mode"] != "0644" {
		t.Errorf("file_info = %v", m)
	}
	res = callTool(t, cs, "delete_file", map[string]any{"path": ".taskctl/workspace/moved.go"})
	if !res.IsError || !strings.HasPrefix(text(res), "CONFIRM_REQUIRED: ") {
		t.Errorf("delete_file without confirm: %s", text(res))
	}
	res = callTool(t, cs, "delete_file", map[string]any{"path": ".taskctl/workspace/moved.go", "confirm": true})
	if b := data(t, res)["backup"].(string); !strings.HasPrefix(b, filepath.Join(f.proj, ".taskctl", "backups")+"/") {
		t.Errorf("delete_file backup = %q", b)
	}
}

// TestPrompts: each task is a prompt whose arguments are its inputs; the
// message holds the description, the bound instructions and the context.
func TestPrompts(t *testing.T) {
	f := newFixture(t)
	cs := connect(t, f)
	ctx := context.Background()
	list, err := cs.ListPrompts(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Prompts) != 1 || list.Prompts[0].Name != "review" || len(list.Prompts[0].Arguments) != 2 ||
		!list.Prompts[0].Arguments[0].Required || list.Prompts[0].Arguments[1].Required {
		t.Fatalf("prompts = %+v", list.Prompts)
	}
	got, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "review", Arguments: map[string]string{"area": "src/auth"}})
	if err != nil {
		t.Fatal(err)
	}
	msg := got.Messages[0].Content.(*mcp.TextContent).Text
	for _, want := range []string{"Review the code of an area", "Look closely at src/auth.", "func Authenticate", filepath.Join(f.proj, "src", "main.go")} {
		if !strings.Contains(msg, want) {
			t.Errorf("prompt message lacks %q:\n%s", want, msg)
		}
	}
	if _, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "review"}); err == nil {
		t.Errorf("a prompt without its required input did not fail")
	}
}

// snapshot records every entry under root (lstat: type, mode, size,
// content hash, link target), leaving out what skip says taskctl may
// change.
func snapshot(t *testing.T, root string, skip func(path string) bool) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if skip(path) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		st, err := os.Lstat(path)
		if err != nil {
			return err
		}
		desc := st.Mode().String()
		switch {
		case st.Mode()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(path)
			desc += " -> " + target
		case st.Mode().IsRegular():
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			sum := sha256.Sum256(b)
			desc += " " + hex.EncodeToString(sum[:8])
			if sys, ok := st.Sys().(*syscall.Stat_t); ok {
				desc += " links=" + string(rune('0'+sys.Nlink))
			}
		}
		out[path] = desc
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func diffSnapshots(t *testing.T, before, after map[string]string) {
	t.Helper()
	for p, d := range before {
		if after[p] != d {
			t.Errorf("changed: %s: %s -> %q", p, d, after[p])
		}
	}
	for p, d := range after {
		if _, ok := before[p]; !ok {
			t.Errorf("appeared: %s (%s)", p, d)
		}
	}
}
