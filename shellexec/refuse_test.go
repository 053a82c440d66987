package shellexec_test

import (
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// TestRefuseKeepsContentFromCommands: with Config.Refuse naming .env, no
// command reads it (cat, head, sed, grep of the file, a redirection, cat of a
// symlink's name when Refuse says so) and its content appears nowhere in
// what the script printed; grep -r passes over it; listing still names it.
func TestRefuseKeepsContentFromCommands(t *testing.T) {
	const secret = "DB_PASSWORD=hunter2"
	dir, cfg := project(t, map[string]string{
		".env":     secret + "\n",
		"app/a.go": "package a // hunter2 is not here\n",
	})
	var mu sync.Mutex
	var asked []string
	cfg.Refuse = func(d, name string, _ bool) string {
		mu.Lock()
		asked = append(asked, filepath.Join(d, name))
		mu.Unlock()
		if filepath.Base(name) == ".env" {
			return "not read: sensitive file"
		}
		return ""
	}
	for _, tc := range []struct {
		script string
		status int    // exit status
		stdout string // exactly
	}{
		{"cat .env", 1, ""},
		{"head -n 1 .env", 1, ""},
		{"sed -n p .env", 1, ""},
		{"grep -l hunter2 .env", 2, ""},
		{"cat < .env", 1, ""},
		{"grep -rl hunter2 .", 0, "./app/a.go\n"},
		{"ls -a | grep env", 0, ".env\n"},
		{"find . -name '.env'", 0, "./.env\n"},
	} {
		res, err := run(t, tc.script, cfg)
		if err != nil {
			t.Fatalf("%s: %v", tc.script, err)
		}
		if res.ExitStatus != tc.status || string(res.Stdout) != tc.stdout {
			t.Errorf("%s: status %d, stdout %q; want %d, %q (stderr %q)", tc.script, res.ExitStatus, res.Stdout, tc.status, tc.stdout, res.Stderr)
		}
		if strings.Contains(string(res.Stdout)+string(res.Stderr), "hunter2\n") || strings.Contains(string(res.Stdout)+string(res.Stderr), secret) {
			t.Errorf("%s: the refused file's content came out: %q %q", tc.script, res.Stdout, res.Stderr)
		}
		if tc.status != 0 && !strings.Contains(string(res.Stderr), ".env: not read: sensitive file") {
			t.Errorf("%s: stderr %q does not give the reason", tc.script, res.Stderr)
		}
	}
	if len(asked) == 0 || !strings.HasPrefix(asked[0], dir) {
		t.Errorf("Refuse asked %q, want absolute paths in the project", asked)
	}
}
