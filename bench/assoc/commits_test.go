package main

import (
	"slices"
	"strings"
	"testing"

	"github.com/taskctl/taskctl/memory"
)

// A commit's record (as git log -p -U0 writes it) gives the subject's
// English words without its area prefix, the body's first paragraph apart,
// and the code words of the hunks' function context, the definitions added
// or removed, the changed files' names and the changed lines.
func TestCommitUnitOf(t *testing.T) {
	rec := "0123abcd\nnet/http: retry idle connections after a reset\n\nThe transport now dials again.\n" +
		"\nSigned-off-by: A <a@b>\n\x1f\n" +
		"diff --git a/src/transport/conn_pool.go b/src/transport/conn_pool.go\n" +
		"index 1..2 100644\n--- a/src/transport/conn_pool.go\n+++ b/src/transport/conn_pool.go\n" +
		"@@ -10,0 +11,2 @@ func (p *Pool) getIdle(key string) *Conn {\n" +
		"+\tfunc redialBackoff(n int) time.Duration {\n" +
		"+\t\treturn jitter(n)\n" +
		"diff --git a/README.md b/README.md\n@@ -1 +1 @@\n-old words\n+new words\n"
	u, ok := commitUnitOf(rec, false, tokens{})
	if !ok {
		t.Fatal("no unit")
	}
	if u.hash != "0123abcd" {
		t.Errorf("hash %q", u.hash)
	}
	want := func(field string, got []string, words ...string) {
		t.Helper()
		for _, w := range words {
			if ts := memory.Tokenize(w); !slices.Contains(got, ts[0]) {
				t.Errorf("%s = %v, want %s", field, got, ts[0])
			}
		}
	}
	want("eng", u.eng, "retry", "idle", "connections", "reset")
	want("body", u.body, "transport", "dials")
	want("defs", u.defs, "pool", "idle", "redial", "backoff")
	want("files", u.files, "conn", "pool", "transport", "readme")
	want("lines", u.lines, "jitter", "duration")
	for _, w := range []string{"net", "http"} {
		if slices.Contains(u.eng, w) {
			t.Errorf("eng %v has the area prefix's %s", u.eng, w)
		}
	}
	if slices.Contains(u.lines, "word") {
		t.Errorf("lines %v has a Markdown file's words", u.lines)
	}
}

// Reverts and merges give no unit, nor does a commit that changes more
// files than maxChangedFiles; a vendored file gives no words.
func TestCommitUnitOfSkips(t *testing.T) {
	patch := "diff --git a/a.go b/a.go\n@@ -1 +1 @@ func Foo() {\n+\tbar()\n"
	for _, msg := range []string{"Revert \"add foo\"", "Merge branch 'x'"} {
		if _, ok := commitUnitOf("ab\n"+msg+"\n\x1f\n"+patch, false, tokens{}); ok {
			t.Errorf("%q gave a unit", msg)
		}
	}
	if _, ok := commitUnitOf("ab\nrename a few\n\x1f\n"+strings.Repeat(patch, maxChangedFiles), false, tokens{}); !ok {
		t.Error("a commit of maxChangedFiles files gave no unit")
	}
	big := strings.Repeat(patch, maxChangedFiles+1)
	if _, ok := commitUnitOf("ab\nrename everything\n\x1f\n"+big, false, tokens{}); ok {
		t.Error("a commit of too many files gave a unit")
	}
	vendored := "diff --git a/vendor/x/y.go b/vendor/x/y.go\n@@ -1 +1 @@ func Foo() {\n+\tbar()\n"
	if _, ok := commitUnitOf("ab\nupdate the vendored copy\n\x1f\n"+vendored, false, tokens{}); ok {
		t.Error("a vendored file gave code words")
	}
}

// parseHistory reads records one after another, and of a long patch
// keeps the files' headers past maxPatchLines, so that a commit of many
// long files is still seen to change many.
func TestParseHistory(t *testing.T) {
	one := "\x1eaaa\nfix the cache eviction\n\x1f\ndiff --git a/lru.go b/lru.go\n@@ -1 +1 @@ func evict() {\n+\tx()\n"
	long := "\x1ebbb\nreformat\n\x1f\n"
	for range maxChangedFiles + 1 {
		long += "diff --git a/f.go b/f.go\n" + strings.Repeat("+\tline()\n", maxPatchLines/10)
	}
	us := parseHistory(strings.NewReader(one+long+one), false)
	if len(us) != 2 || us[0].hash != "aaa" || us[1].hash != "aaa" {
		t.Errorf("units %v, want aaa twice (bbb changes too many files)", us)
	}
}

// The subject's area prefix, of either common form, is not its words.
func TestMessageText(t *testing.T) {
	for msg, want := range map[string]string{
		"fix(jobs): handle zero jobs":        "handle zero jobs",
		"net/http: close idle conns":         "close idle conns",
		"[core] spread load over backends":   "spread load over backends",
		"Add a throttle to uploads\n\nbody.": "Add a throttle to uploads",
	} {
		if got, _ := messageText(msg); got != want {
			t.Errorf("messageText(%q) = %q, want %q", msg, got, want)
		}
	}
}

// The first pass's records name the changed files, a line each.
func TestCommitUnitOfNames(t *testing.T) {
	u, ok := commitUnitOf("ab\nthrottle uploads\n\x1f\n\ninternal/limiter/rate.go\ndocs/upload.md\n", true, tokens{})
	if !ok || !slices.Contains(u.files, "limit") || !slices.Contains(u.files, "upload") || len(u.defs) > 0 {
		t.Errorf("unit %+v, ok %v: want the files' words only", u, ok)
	}
}
