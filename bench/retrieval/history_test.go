package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/taskctl/taskctl/memory"
)

// A commit query's history holds only commits before the evaluated one,
// and none with its subject (a cherry-pick of the same change): the
// answer never leaks into what the index learns.
func TestCommitQueryHistory(t *testing.T) {
	dir := t.TempDir()
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_SYSTEM=/dev/null", "GIT_AUTHOR_NAME=t",
			"GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	commit := func(msg, rel, content string) {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		git("add", "-A")
		git("commit", "-q", "-m", msg)
	}
	git("init", "-q")
	commit("start", "pkg/a.go", "package pkg\n\nfunc A() {}\n")
	commit("start b", "pkg/b.go", "package pkg\n\nfunc B() {}\n")
	commit("pkg: fix the zebra crossing", "pkg/b.go", "package pkg\n\nfunc B() { _ = 1 }\n") // a cherry-pick, earlier
	commit("pkg: tidy quokka", "pkg/a.go", "package pkg\n\nfunc A() { _ = 2 }\n")
	commit("pkg: fix the zebra crossing", "pkg/a.go", "package pkg\n\nfunc A() { _ = 3 }\n") // the evaluated commit

	qs, err := commitQueries(dir, "HEAD", 1, 5)
	if err != nil || len(qs) != 1 || qs[0].Query != "pkg: fix the zebra crossing" {
		t.Fatalf("queries = %+v, %v", qs, err)
	}
	r, err := newRankers(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.close()
	r.skip = subjectOf(qs[0].Query)
	_, src, err := r.at(context.Background(), qs[0].BaseCommit)
	if err != nil {
		t.Fatal(err)
	}
	ms := r.ix.Search("pkg zebra crossing quokka", memory.SearchOptions{Source: src})
	var learnt []string
	for _, m := range ms {
		for _, l := range m.Reason.Terms["history"] {
			learnt = append(learnt, m.Rel+": "+l)
		}
	}
	if !slices.Contains(learnt, "pkg/a.go: quokka (1 commit)") {
		t.Errorf("history = %v, want the commit before the evaluated one (quokka on pkg/a.go)", learnt)
	}
	for _, l := range learnt {
		if strings.Contains(l, "zebra") || strings.Contains(l, "crossing") {
			t.Errorf("history holds the evaluated commit's subject: %v", learnt)
		}
	}
	if r.ix.Stats().Commits != 2 {
		t.Errorf("history of %d commits, want 2 (start b and the tidy; the root and the cherry-pick left out)", r.ix.Stats().Commits)
	}
}
