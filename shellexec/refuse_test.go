package shellexec_test

import (
	"strings"
	"testing"

	"github.com/taskctl/taskctl/root"
)

// TestRefuseKeepsContentFromCommands: with the root's name policy naming
// .env (a sensitive name, by default), no command reads it (cat, head,
// sed, grep of the file, a redirection) and its content appears nowhere in
// what the script printed; grep -r passes over it; listing still names it.
// A policy allowing sensitive files lets it through: the refusal is the
// root's, not the command's.
func TestRefuseKeepsContentFromCommands(t *testing.T) {
	const secret = "DB_PASSWORD=hunter2"
	_, cfg := project(t, map[string]string{
		".env":     secret + "\n",
		"app/a.go": "package a // hunter2 is not here\n",
	})
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
	res, err := run(t, "cat .env", withPolicy(t, cfg, root.Policy{AllowSensitive: true}))
	if err != nil || string(res.Stdout) != secret+"\n" {
		t.Errorf("cat .env, sensitive files allowed: %v, stdout %q (stderr %q)", err, res.Stdout, res.Stderr)
	}
}
