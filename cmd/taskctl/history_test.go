package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestSearchExplainHistory: in a project with commits, search --explain
// lists under "history" the query's words found in the messages of the
// commits that changed a file, and those words (none of them the code's)
// put the file first.
func TestSearchExplainHistory(t *testing.T) {
	proj := t.TempDir()
	writeFiles(t, proj, map[string]string{
		"proxy/upstreams.go": "package proxy\n\n// pickUpstream chooses a host by the policy.\nfunc pickUpstream(hosts []string) string { return hosts[0] }\n",
		"proxy/headers.go":   "package proxy\n\n// copyHeaders copies the request's headers.\nfunc copyHeaders(dst, src map[string]string) {}\n",
	})
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = proj
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
			"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q", "-b", "main")
	git("add", "-A")
	git("commit", "-q", "-m", "initial import")
	f := filepath.Join(proj, "proxy", "upstreams.go")
	data, _ := os.ReadFile(f)
	if err := os.WriteFile(f, append(data, "\nfunc weight(h string) int { return 1 }\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	git("commit", "-q", "-a", "-m", "proxy: spread load across servers by weight")

	code, out, errs := taskctl(t, "--project-dir", proj, "search", "proxy: spread load across servers", "--explain")
	if code != 0 {
		t.Fatalf("search: exit %d: %s%s", code, out, errs)
	}
	first, _, _ := strings.Cut(out, "\n")
	if !strings.HasSuffix(first, filepath.Join(proj, "proxy", "upstreams.go")) {
		t.Errorf("first match is not proxy/upstreams.go:\n%s", out)
	}
	if !strings.Contains(out, "history: proxy (1 commit), spread (1 commit), load (1 commit)") {
		t.Errorf("--explain does not list the history's words:\n%s", out)
	}
}
