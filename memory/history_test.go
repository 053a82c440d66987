package memory_test

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

// gitRepo makes a real git repository at root (files already written)
// and returns a function that commits the given files (written first)
// with a message.
func gitRepo(t *testing.T, root string) func(msg string, files map[string]string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("git is needed to make the test repositories")
	}
	run := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
			"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	run("init", "-q", "-b", "main")
	run("add", "-A")
	run("commit", "-q", "-m", "initial import")
	return func(msg string, files map[string]string) {
		t.Helper()
		for rel, content := range files {
			p := filepath.Join(root, filepath.FromSlash(rel))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		run("add", "-A")
		run("commit", "-q", "-m", msg)
	}
}

var historyFiles = map[string]string{
	"proxy/upstreams.go": "package proxy\n\n// pickUpstream chooses a host by the policy.\nfunc pickUpstream(hosts []Host) Host { return hosts[0] }\n",
	"proxy/headers.go":   "package proxy\n\n// copyHeaders copies the request's headers.\nfunc copyHeaders(dst, src Header) {}\n",
	"log/writer.go":      "package log\n\n// Write writes a line to the file.\nfunc Write(line string) {}\n",
}

// The commits' messages are learnt per file they changed: of two files a
// request's word of the code finds ("proxy"), the one whose commits say
// the rest of its words ("spread load across servers", none of them in
// the code) ranks first, and --explain says it came from history. The
// history alone brings in no file.
func TestHistoryAssociations(t *testing.T) {
	root := writeTree(t, historyFiles)
	commit := gitRepo(t, root)
	commit("proxy: spread load across servers by weight", map[string]string{
		"proxy/upstreams.go": historyFiles["proxy/upstreams.go"] + "\nfunc weight(h Host) int { return 1 }\n",
	})
	commit("log: rotate the file when it grows", map[string]string{
		"log/writer.go": historyFiles["log/writer.go"] + "\nfunc grow() {}\n",
	})
	ix, _ := build(t, root)
	if st := ix.Stats(); st.Files != 3 {
		t.Fatalf("indexed %d files, want 3 (.git is no file of the project)", st.Files)
	}
	if ms := ix.Search("spread load across servers", memory.SearchOptions{}); len(ms) != 0 {
		t.Fatalf("the history alone brought in %v", rels(ms))
	}
	ms := ix.Search("proxy: spread load across servers", memory.SearchOptions{Explain: true})
	if len(ms) != 2 || ms[0].Rel != "proxy/upstreams.go" {
		t.Fatalf("ranking = %v, want proxy/upstreams.go first through its commit, then proxy/headers.go", rels(ms))
	}
	hist := ms[0].Reason.Terms["history"]
	if !slices.Contains(hist, "spread (1 commit)") {
		t.Errorf("history terms = %v, want spread (1 commit)", hist)
	}
	if ms[0].Reason.Scores["spread"] <= 0 {
		t.Errorf("explain scores = %v, want spread's share", ms[0].Reason.Scores)
	}
	if s := ms[0].Reason.String(); !strings.Contains(s, "history: ") {
		t.Errorf("reason %q does not show the history", s)
	}
	if h := ms[1].Reason.Terms["history"]; len(h) != 0 {
		t.Errorf("proxy/headers.go's history: %v, want none", h)
	}
	// the initial import (a root commit) teaches nothing
	ms = ix.Search("proxy import", memory.SearchOptions{})
	for _, m := range ms {
		for _, l := range m.Reason.Terms["history"] {
			if strings.HasPrefix(l, "import") {
				t.Errorf("the root commit's message matched %s: %v", m.Rel, m.Reason)
			}
		}
	}
}

// A word of the code outranks the same word in the commits' messages of
// another file: history counts below the file's own text.
func TestHistoryBelowExact(t *testing.T) {
	files := map[string]string{
		"a/retry.go": "package a\n\n// retry tries again with backoff.\nfunc retry() {}\n",
		"b/other.go": "package b\n\nfunc other() {}\n",
	}
	root := writeTree(t, files)
	commit := gitRepo(t, root)
	for _, msg := range []string{"b: retry fix", "b: retry again", "b: retry more"} {
		commit(msg, map[string]string{"b/other.go": files["b/other.go"] + "// " + msg + "\n"})
	}
	ix, _ := build(t, root)
	got := rels(ix.Search("retry backoff", memory.SearchOptions{}))
	if len(got) < 2 || got[0] != "a/retry.go" {
		t.Fatalf("ranking = %v, want a/retry.go above b/other.go", got)
	}
}

// A refresh after a new commit reads that commit (and only it), and the
// words of its message find the file it changed.
func TestHistoryIncremental(t *testing.T) {
	root := writeTree(t, historyFiles)
	commit := gitRepo(t, root)
	commit("proxy: copy hop headers", map[string]string{"proxy/headers.go": historyFiles["proxy/headers.go"] + "// hop\n"})
	dir := filepath.Join(t.TempDir(), "index")
	ix, _, err := memory.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	src := memory.DirSource(root)
	st, err := ix.Refresh(context.Background(), src, nil)
	if err != nil {
		t.Fatal(err)
	}
	if st.Commits != 1 || st.NewCommits != 1 { // a root commit is left out unread
		t.Fatalf("first refresh: %d commits, %d read; want 1, 1", st.Commits, st.NewCommits)
	}
	if ms := ix.Search("proxy websocket upgrade", memory.SearchOptions{}); len(ms) != 2 || ms[0].Rel != "proxy/headers.go" {
		t.Fatalf("ranking = %v before any commit said it, want the proxy files by path", rels(ms))
	}
	commit("proxy: keep websocket upgrade requests", map[string]string{"proxy/upstreams.go": historyFiles["proxy/upstreams.go"] + "// hijack\n"})
	st, err = ix.Refresh(context.Background(), src, nil)
	if err != nil {
		t.Fatal(err)
	}
	if st.Commits != 2 || st.NewCommits != 1 {
		t.Fatalf("after a commit: %d commits, %d read; want 2, 1", st.Commits, st.NewCommits)
	}
	ms := ix.Search("proxy websocket upgrade", memory.SearchOptions{})
	if len(ms) == 0 || ms[0].Rel != "proxy/upstreams.go" {
		t.Fatalf("ranking = %v, want proxy/upstreams.go through the new commit", rels(ms))
	}
	// the history is kept in the index directory: a new process sees it
	ix2, _, err := memory.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if ms := ix2.Search("proxy websocket upgrade", memory.SearchOptions{}); len(ms) == 0 || ms[0].Rel != "proxy/upstreams.go" {
		t.Fatalf("reopened: ranking = %v", rels(ms))
	}
	st, err = ix2.Refresh(context.Background(), src, nil)
	if err != nil || st.NewCommits != 0 || st.Commits != 2 {
		t.Fatalf("refresh with no new commit: %+v, %v; want nothing read", st, err)
	}
}

// Without a git directory, or with a .git that is a file (a worktree's),
// the index has no history and searches as before.
func TestHistoryNone(t *testing.T) {
	root := writeTree(t, historyFiles)
	ix, _ := build(t, root)
	if st := ix.Stats(); st.Commits != 0 {
		t.Fatalf("commits = %d without .git", st.Commits)
	}
	if err := os.WriteFile(filepath.Join(root, ".git"), []byte("gitdir: /nonexistent\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "index")
	ix, _, _ = memory.Open(dir)
	st, err := ix.Refresh(context.Background(), memory.DirSource(root), nil)
	if err != nil || st.Commits != 0 || st.Files != 3 {
		t.Fatalf("with a .git file: %+v, %v", st, err)
	}
}

// A .git/objects that is a link out of the project is not followed: the
// history is read beneath .git only.
func TestHistoryConfined(t *testing.T) {
	root := writeTree(t, historyFiles)
	commit := gitRepo(t, root)
	commit("proxy: spread load across servers", map[string]string{"proxy/upstreams.go": historyFiles["proxy/upstreams.go"] + "// w\n"})
	outside := t.TempDir()
	objs := filepath.Join(root, ".git", "objects")
	if err := os.Rename(objs, filepath.Join(outside, "objects")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "objects"), objs); err != nil {
		t.Fatal(err)
	}
	ix, _ := build(t, root)
	if st := ix.Stats(); st.Commits != 0 {
		t.Fatalf("read %d commits through a link out of .git", st.Commits)
	}
}

// The history section decodes what it encoded, and anything damaged is
// an error, never a panic.
func TestHistoryDecode(t *testing.T) {
	data := memory.EncodeHistory("abc", [][3][]string{
		{{strings.Repeat("ab", 20)}, {"spread", "load"}, {"proxy/upstreams.go"}},
		{{strings.Repeat("cd", 20)}, nil, nil},
	})
	head, n, err := memory.DecodeHistory(data)
	if err != nil || head != "abc" || n != 2 {
		t.Fatalf("decode = %q, %d, %v", head, n, err)
	}
	for i := range data {
		if _, _, err := memory.DecodeHistory(data[:i]); err == nil {
			t.Errorf("truncated at %d: no error", i)
		}
		bad := slices.Clone(data)
		bad[i] ^= 0x41
		if _, _, err := memory.DecodeHistory(bad); err == nil {
			t.Errorf("byte %d flipped: no error", i)
		}
	}
}

// History rewritten under the index (a commit reset away, another made
// in its place) is listed again: the commit gone no longer teaches its
// words, the new one does.
func TestHistoryRewritten(t *testing.T) {
	root := writeTree(t, historyFiles)
	commit := gitRepo(t, root)
	commit("proxy: keep websocket upgrade requests", map[string]string{"proxy/upstreams.go": historyFiles["proxy/upstreams.go"] + "// hijack\n"})
	ix, _ := build(t, root)
	if ms := ix.Search("proxy websocket upgrade", memory.SearchOptions{}); len(ms) == 0 || ms[0].Rel != "proxy/upstreams.go" {
		t.Fatalf("the commit's words: %v", rels(ms))
	}
	cmd := exec.Command("git", "reset", "-q", "--hard", "HEAD~1")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git reset: %v\n%s", err, out)
	}
	commit("log: compress rotated files", map[string]string{"log/writer.go": historyFiles["log/writer.go"] + "// gz\n"})
	st, err := ix.Refresh(context.Background(), memory.DirSource(root), nil)
	if err != nil || st.Commits != 1 {
		t.Fatalf("refresh after a reset: %+v, %v; want 1 commit", st, err)
	}
	for _, m := range ix.Search("proxy websocket upgrade", memory.SearchOptions{}) {
		if len(m.Reason.Terms["history"]) != 0 {
			t.Errorf("the commit reset away still matches %s: %v", m.Rel, m.Reason)
		}
	}
	if ms := ix.Search("write compressed rotated files", memory.SearchOptions{}); len(ms) == 0 || ms[0].Rel != "log/writer.go" ||
		len(ms[0].Reason.Terms["history"]) == 0 {
		t.Errorf("the new commit's words: %v", ms)
	}
}

// A shallow clone (CI's usual checkout) has commits whose parents it
// lacks: the history is what it has, read up to where it ends.
func TestHistoryShallow(t *testing.T) {
	upstream := writeTree(t, historyFiles)
	commit := gitRepo(t, upstream)
	commit("proxy: keep websocket upgrade requests", map[string]string{"proxy/upstreams.go": historyFiles["proxy/upstreams.go"] + "// hijack\n"})
	commit("proxy: copy hop headers", map[string]string{"proxy/headers.go": historyFiles["proxy/headers.go"] + "// hop\n"})
	commit("log: rotate the file", map[string]string{"log/writer.go": historyFiles["log/writer.go"] + "// roll\n"})
	root := filepath.Join(t.TempDir(), "clone")
	cmd := exec.Command("git", "clone", "-q", "--depth", "2", "file://"+upstream, root)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git clone: %v\n%s", err, out)
	}
	ix, _ := build(t, root)
	// the two newest commits are there; the second's parent is not, so
	// its changes are unknown and it is left out: the newest alone counts
	if st := ix.Stats(); st.Commits != 1 {
		t.Fatalf("shallow clone: %d commits, want 1", st.Commits)
	}
	ms := ix.Search("log rotate", memory.SearchOptions{})
	if len(ms) == 0 || ms[0].Rel != "log/writer.go" || len(ms[0].Reason.Terms["history"]) == 0 {
		t.Fatalf("shallow clone: %v", ms)
	}
}

// A repository whose pack indexes are past the bound is read without its
// history (go-git would keep an entry for each of its objects in memory),
// and the files are indexed as ever; under the bound the same repository's
// history is read.
func TestHistoryTooLarge(t *testing.T) {
	root := writeTree(t, historyFiles)
	commit := gitRepo(t, root)
	commit("proxy: spread load across servers", map[string]string{"proxy/upstreams.go": historyFiles["proxy/upstreams.go"] + "// w\n"})
	gc := exec.Command("git", "gc", "-q")
	gc.Dir = root
	if out, err := gc.CombinedOutput(); err != nil {
		t.Fatalf("git gc: %v\n%s", err, out)
	}
	packs, _ := filepath.Glob(filepath.Join(root, ".git", "objects", "pack", "*.idx"))
	if len(packs) == 0 {
		t.Fatal("git gc wrote no pack index")
	}
	restore := memory.SetMaxPackIndexBytes(100)
	ix, _ := build(t, root)
	restore()
	if st := ix.Stats(); st.Commits != 0 || st.Files != 3 {
		t.Fatalf("past the bound: %d commits read, %d files indexed; want 0 and 3", st.Commits, st.Files)
	}
	ix, _ = build(t, root)
	if st := ix.Stats(); st.Commits != 1 {
		t.Fatalf("under the bound: %d commits read, want 1", st.Commits)
	}
}
