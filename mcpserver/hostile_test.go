package mcpserver_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
)

// hostile adds to the fixture what an attacker (a cloned repository, an
// executor, a concurrent process) can leave in the way: symlinks out of
// the workspace and the project, a hard link to an outside file, FIFOs,
// taskctl's own state, and a victim file to move.
func hostile(t *testing.T, f *fixture) {
	t.Helper()
	write(t, f.proj, map[string]string{
		".taskctl/workspace/victim.txt": "victim\n",
		".taskctl/workspace/sub/keep":   "",
		".taskctl/index/x":              "index\n",
		".taskctl/config.xml":           "<config/>\n",
	})
	secret := filepath.Join(f.outside, "secret.txt")
	for _, l := range [][2]string{
		{f.outside, filepath.Join(f.ws, "link-out")},
		{secret, filepath.Join(f.ws, "file-link")},
		{"../../../outside", filepath.Join(f.ws, "rel-out")},
		{"../../outside", filepath.Join(f.proj, "src", "link-out")},
		{secret, filepath.Join(f.proj, "src", "secret-link")},
	} {
		if err := os.Symlink(l[0], l[1]); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Link(secret, filepath.Join(f.ws, "hl")); err != nil {
		t.Fatal(err)
	}
	// A hard link inside the project to a file outside it is read like
	// any file (project's documented non-guarantee: it cannot be told
	// from an ordinary file, pnpm's stores are made of them, and whoever
	// made it can read the file anyway); it is never written. Its target
	// holds no secret of the list below.
	write(t, f.outside, map[string]string{"linked.txt": "linked outside\n"})
	if err := os.Link(filepath.Join(f.outside, "linked.txt"), filepath.Join(f.proj, "src", "hl")); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{filepath.Join(f.ws, "fifo"), filepath.Join(f.proj, "src", "fifo")} {
		if err := syscall.Mkfifo(p, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// hostilePaths are paths no write may reach outside the workspace with,
// and no read may read a secret through.
func hostilePaths(f *fixture) []string {
	return []string{
		"../../outside/secret.txt", "../x", "..", ".", "sub/../../../outside/secret.txt",
		filepath.Join(f.outside, "secret.txt"), f.outside, filepath.Join(f.evil, "x.txt"), f.proj + "-evil/new.txt",
		".git/config", filepath.Join(f.proj, ".git", "config"), filepath.Join(f.proj, ".git", "hooks", "pre-commit"),
		filepath.Join(f.proj, ".GIT", "config"),
		filepath.Join(f.proj, ".taskctl", "index", "x"), filepath.Join(f.proj, ".taskctl", "config.xml"),
		filepath.Join(f.proj, ".taskctl", "tasks", "t.xml"), "../index/x", "../config.xml",
		filepath.Join(f.proj, "src", "main.go"), filepath.Join(f.proj, "new-in-root.txt"),
		filepath.Join(f.proj, ".env"), ".env", "id_rsa", "keys/server.pem",
		"link-out/secret.txt", "link-out/pwned.txt", "rel-out/secret.txt", "file-link", "hl", "fifo",
		filepath.Join(f.ws, "link-out", "secret.txt"), filepath.Join(f.ws, "hl"), filepath.Join(f.ws, "fifo"),
		filepath.Join(f.proj, "src", "link-out", "secret.txt"), filepath.Join(f.proj, "src", "secret-link"),
		filepath.Join(f.proj, "src", "hl"), filepath.Join(f.proj, "src", "fifo"),
		"/dev/null", "/dev/zero", "/etc/passwd", "/proc/self/environ",
		"a\x00b", "", "\\..\\outside", "C:/x", "//server/share", "%2e%2e/outside",
		strings.Repeat("a/", 2100) + "x", strings.Repeat("n", 300),
		// The workspace's traps by their project-relative names, as a
		// client names them (a relative path is the project dir's).
		".taskctl/workspace/link-out/secret.txt", ".taskctl/workspace/link-out/pwned.txt",
		".taskctl/workspace/rel-out/secret.txt", ".taskctl/workspace/file-link", ".taskctl/workspace/hl",
		".taskctl/workspace/fifo", ".taskctl/workspace/../index/x", ".taskctl/workspace/../config.xml",
		".taskctl/workspace/sub/../../../../outside/secret.txt", ".taskctl/workspace/.env",
		".taskctl/workspace/.git/config", "src/link-out/secret.txt", "src/secret-link", "src/hl", "src/fifo",
	}
}

// secrets are contents no result may show.
var secrets = []string{"outside secret", "evil\n", "TOKEN=x", "[core]"}

// TestHostileCorpus runs every hostile path through every tool. Nothing
// outside the workspace, the backups and the audit log may change (the
// project, the outside directory, the sibling proj-evil, the directory
// around them: all snapshotted), no result may show a secret, and no call
// may fail the protocol or hang (FIFOs).
func TestHostileCorpus(t *testing.T) {
	f := newFixture(t)
	hostile(t, f)
	cs := connect(t, f)
	state := filepath.Join(f.proj, ".taskctl")
	skip := func(p string) bool {
		return p == f.ws || p == filepath.Join(state, "backups") || p == filepath.Join(state, "audit.jsonl") ||
			p == filepath.Join(state, ".gitignore") || p == filepath.Join(state, "fs.lock")
	}
	before := snapshot(t, f.dir, skip)
	refused := 0
	for _, p := range hostilePaths(f) {
		calls := []struct {
			tool string
			args map[string]any
		}{
			{"read_file", map[string]any{"path": p}},
			{"read_file", map[string]any{"path": p, "encoding": "base64"}},
			{"list_directory", map[string]any{"path": p, "recursive": true, "include_hidden": true}},
			{"file_info", map[string]any{"path": p}},
			{"write_file", map[string]any{"path": p, "content": "PWNED", "overwrite": true}},
			{"create_directory", map[string]any{"path": p}},
			{"copy_file", map[string]any{"source": "src/main.go", "destination": p, "overwrite": true}},
			{"copy_file", map[string]any{"source": p, "destination": ".taskctl/workspace/stolen.txt", "overwrite": true}},
			{"move_file", map[string]any{"source": p, "destination": ".taskctl/workspace/moved.txt", "overwrite": true}},
			{"move_file", map[string]any{"source": ".taskctl/workspace/victim.txt", "destination": p, "overwrite": true}},
			{"delete_file", map[string]any{"path": p, "confirm": true}},
			{"edit_file", map[string]any{"path": p, "edits": []any{map[string]any{"old_text": "secret", "new_text": "PWNED"}}}},
			{"validate", map[string]any{"path": p}},
			{"assemble", map[string]any{"task": p}},
			{"assemble", map[string]any{"task": p + ":review"}},
		}
		for _, c := range calls {
			res := callTool(t, cs, c.tool, c.args)
			out := text(res)
			for _, s := range secrets {
				if strings.Contains(out, s) || strings.Contains(string(mustJSON(t, res.StructuredContent)), s) {
					t.Errorf("%s %q showed %q:\n%s", c.tool, p, s, out)
				}
			}
			if res.IsError {
				refused++
			}
		}
		if b, err := os.ReadFile(filepath.Join(f.ws, "stolen.txt")); err == nil {
			for _, s := range secrets {
				if strings.Contains(string(b), s) {
					t.Errorf("copy_file of %q copied a secret into the workspace", p)
				}
			}
		}
		// The victim comes back for the next path's move.
		os.Remove(filepath.Join(f.ws, "stolen.txt"))
		write(t, f.ws, map[string]string{"victim.txt": "victim\n"})
	}
	diffSnapshots(t, before, snapshot(t, f.dir, skip))
	if b, _ := os.ReadFile(filepath.Join(f.outside, "secret.txt")); string(b) != "outside secret\n" {
		t.Errorf("the outside file reads %q", b)
	}
	if refused < len(hostilePaths(f))*8 {
		t.Errorf("only %d calls were refused: the corpus is not reaching the checks", refused)
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	if v == nil {
		return nil
	}
	b, err := jsonMarshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestHostileRefusals: the refusals a client sees name the rule that
// decided, with its code.
func TestHostileRefusals(t *testing.T) {
	f := newFixture(t)
	hostile(t, f)
	// A small size cap (the user's config), so that the oversized write
	// is small enough for a loaded machine under the race detector.
	write(t, f.xdg, map[string]string{"taskctl/config.xml": "<config><policy><max_file_bytes>4096</max_file_bytes></policy></config>"})
	cs := connect(t, f)
	for _, c := range []struct {
		tool string
		args map[string]any
		code string
	}{
		{"write_file", map[string]any{"path": "../../outside/x", "content": "x"}, "PATH_NOT_WRITABLE"},
		{"write_file", map[string]any{"path": f.proj + "-evil/x", "content": "x"}, "PATH_NOT_WRITABLE"},
		{"write_file", map[string]any{"path": filepath.Join(f.proj, "src", "main.go"), "content": "x", "overwrite": true}, "PATH_NOT_WRITABLE"},
		{"write_file", map[string]any{"path": filepath.Join(f.proj, ".git", "config"), "content": "x", "overwrite": true}, "PATH_NOT_WRITABLE"},
		{"write_file", map[string]any{"path": filepath.Join(f.proj, ".taskctl", "index", "x"), "content": "x", "overwrite": true}, "PATH_NOT_WRITABLE"},
		{"write_file", map[string]any{"path": ".taskctl/workspace/link-out/x", "content": "x"}, "WRITE_UNSAFE"},
		{"write_file", map[string]any{"path": ".taskctl/workspace/file-link", "content": "x", "overwrite": true}, "WRITE_UNSAFE"},
		{"write_file", map[string]any{"path": ".taskctl/workspace/hl", "content": "x", "overwrite": true}, "WRITE_UNSAFE"},
		{"write_file", map[string]any{"path": ".taskctl/workspace/fifo", "content": "x", "overwrite": true}, "PATH_SPECIAL_FILE"},
		{"write_file", map[string]any{"path": ".taskctl/workspace/victim.txt", "content": "x"}, "FILE_EXISTS"},
		{"write_file", map[string]any{"path": ".taskctl/workspace/.env", "content": "x"}, "PATH_SENSITIVE"},
		{"write_file", map[string]any{"path": ".taskctl/workspace/big.txt", "content": strings.Repeat("x", 4097)}, "FILE_TOO_LARGE"},
		{"read_file", map[string]any{"path": filepath.Join(f.outside, "secret.txt")}, "PATH_OUTSIDE_PROJECT"},
		{"read_file", map[string]any{"path": filepath.Join(f.evil, "x.txt")}, "PATH_OUTSIDE_PROJECT"},
		{"read_file", map[string]any{"path": filepath.Join(f.proj, "src", "secret-link")}, "PATH_OUTSIDE_PROJECT"},
		{"read_file", map[string]any{"path": filepath.Join(f.ws, "link-out", "secret.txt")}, "WRITE_UNSAFE"},
		{"read_file", map[string]any{"path": filepath.Join(f.ws, "hl")}, "WRITE_UNSAFE"},
		{"read_file", map[string]any{"path": filepath.Join(f.ws, "fifo")}, "PATH_SPECIAL_FILE"},
		{"read_file", map[string]any{"path": filepath.Join(f.proj, "src", "fifo")}, "PATH_SPECIAL_FILE"},
		{"read_file", map[string]any{"path": filepath.Join(f.proj, ".git", "config")}, "PATH_IGNORED"},
		{"read_file", map[string]any{"path": filepath.Join(f.proj, ".env")}, "PATH_SENSITIVE"},
		{"delete_file", map[string]any{"path": ".taskctl/workspace/victim.txt"}, "CONFIRM_REQUIRED"},
		{"validate", map[string]any{"path": filepath.Join(f.outside, "secret.txt")}, "PATH_OUTSIDE_PROJECT"},
		{"validate", map[string]any{"path": filepath.Join(f.proj, "src", "secret-link")}, "PATH_OUTSIDE_PROJECT"},
		{"validate", map[string]any{"path": filepath.Join(f.proj, ".git", "config")}, "PATH_IGNORED"},
		{"assemble", map[string]any{"task": filepath.Join(f.outside, "secret.txt")}, "PATH_OUTSIDE_PROJECT"},
		{"assemble", map[string]any{"task": filepath.Join(f.outside, "secret.txt") + ":review"}, "PATH_OUTSIDE_PROJECT"},
		{"edit_file", map[string]any{"path": ".taskctl/workspace/victim.txt", "edits": []any{map[string]any{"old_text": "nope", "new_text": "x"}}}, "EDIT_NO_MATCH"},
	} {
		res := callTool(t, cs, c.tool, c.args)
		if got := text(res); !res.IsError || !strings.HasPrefix(got, c.code+": ") {
			p, _ := c.args["path"].(string)
			if len(p) > 80 {
				p = p[:80]
			}
			t.Errorf("%s %q: %.200s, want %s", c.tool, p, got, c.code)
		}
	}
}

// TestSymlinkSwap: while a goroutine swaps a workspace directory for a
// symlink to the outside directory and back, writes into it and reads
// from it never reach the outside.
func TestSymlinkSwap(t *testing.T) {
	f := newFixture(t)
	hostile(t, f)
	cs := connect(t, f)
	swap := filepath.Join(f.ws, "swap")
	before := snapshot(t, f.outside, func(string) bool { return false })
	var stop atomic.Bool
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for !stop.Load() {
			os.RemoveAll(swap)
			os.Mkdir(swap, 0o755)
			os.RemoveAll(swap)
			os.Symlink(f.outside, swap)
		}
	}()
	for i := 0; i < 300; i++ {
		callTool(t, cs, "write_file", map[string]any{"path": ".taskctl/workspace/swap/secret.txt", "content": "PWNED", "overwrite": true})
		callTool(t, cs, "write_file", map[string]any{"path": ".taskctl/workspace/swap/pwned.txt", "content": "PWNED"})
		res := callTool(t, cs, "read_file", map[string]any{"path": filepath.Join(swap, "secret.txt")})
		if strings.Contains(text(res), "outside secret") {
			t.Fatalf("read through the swapped symlink: %s", text(res))
		}
		callTool(t, cs, "delete_file", map[string]any{"path": ".taskctl/workspace/swap/secret.txt", "confirm": true})
	}
	stop.Store(true)
	wg.Wait()
	diffSnapshots(t, before, snapshot(t, f.outside, func(string) bool { return false }))
}

func jsonMarshal(v any) ([]byte, error) { return json.Marshal(v) }

// TestWorkspaceGitignoreAndMessages: the workspace's own .gitignore
// (which keeps its files out of git status) is never deleted, moved or
// overwritten; a refusal says what was asked (a read of a symlink is not
// called a write, a non-empty directory is not "already exists").
func TestWorkspaceGitignoreAndMessages(t *testing.T) {
	f := newFixture(t)
	hostile(t, f)
	write(t, f.ws, map[string]string{".gitignore": "*\n"})
	cs := connect(t, f)
	for _, c := range []struct {
		tool       string
		args       map[string]any
		code, says string
	}{
		{"delete_file", map[string]any{"path": ".taskctl/workspace/.gitignore", "confirm": true}, "PATH_NOT_WRITABLE", "own .gitignore"},
		{"write_file", map[string]any{"path": ".taskctl/workspace/.gitignore", "content": "", "overwrite": true}, "PATH_NOT_WRITABLE", "own .gitignore"},
		{"move_file", map[string]any{"source": ".taskctl/workspace/.gitignore", "destination": ".taskctl/workspace/x"}, "PATH_NOT_WRITABLE", "own .gitignore"},
		{"edit_file", map[string]any{"path": ".taskctl/workspace/.gitignore", "edits": []any{map[string]any{"old_text": "*", "new_text": ""}}}, "PATH_NOT_WRITABLE", "own .gitignore"},
		{"read_file", map[string]any{"path": ".taskctl/workspace/file-link"}, "WRITE_UNSAFE", "read without following links"},
		{"read_file", map[string]any{"path": ".taskctl/workspace/hl"}, "WRITE_UNSAFE", "not read from the workspace"},
		{"delete_file", map[string]any{"path": ".taskctl/workspace/sub", "confirm": true}, "PATH_IS_DIR", "not empty"},
	} {
		res := callTool(t, cs, c.tool, c.args)
		if got := text(res); !res.IsError || !strings.HasPrefix(got, c.code+": ") || !strings.Contains(got, c.says) ||
			(c.tool == "read_file" && strings.Contains(got, "written")) {
			t.Errorf("%s %v: %s, want %s saying %q", c.tool, c.args["path"], got, c.code, c.says)
		}
	}
	if b, err := os.ReadFile(filepath.Join(f.ws, ".gitignore")); err != nil || string(b) != "*\n" {
		t.Errorf("the workspace's .gitignore: %q, %v", b, err)
	}
	if res := callTool(t, cs, "read_file", map[string]any{"path": ".taskctl/workspace/.gitignore"}); res.IsError {
		t.Errorf("reading the workspace's .gitignore: %s", text(res))
	}
}
