package memory_test

import (
	"strings"
	"testing"

	"github.com/taskctl/taskctl/memory"
)

// A short request's adjective matches the noun WordNet names as its
// attribute ("old" and the code's "age"), below the word itself, and
// --explain names it (old≅age); a long text with the same word is not
// expanded.
func TestWordNetAttributes(t *testing.T) {
	root := writeTree(t, map[string]string{
		"versions/staggered.go": "package versions\n\n// Staggered drops the copies whose age passes the interval.\nfunc Staggered(copies []string, maxAge int) []string { return copies }\n",
		"versions/simple.go":    "package versions\n\n// Simple drops the copies past the last few: copies, copies.\nfunc Simple(copies []string, n int) []string { return copies[:n] }\n",
		"versions/trash.go":     "package versions\n\n// Trash moves the removed files into a folder.\nfunc Trash(files []string) error { return nil }\n",
		"cmd/main.go":           "package main\n\n// main starts the program.\nfunc main() {}\n",
		"cmd/flags.go":          "package main\n\n// flags reads the command line.\nfunc flags() {}\n",
	})
	ix, _ := build(t, root)
	ms := ix.Search("drop old copies", memory.SearchOptions{Explain: true})
	if len(ms) == 0 || ms[0].Rel != "versions/staggered.go" {
		t.Fatalf("ranking = %v, want versions/staggered.go first", rels(ms))
	}
	if !strings.Contains(ms[0].Reason.String(), "old≅age") {
		t.Errorf("reason %q names no attribute old≅age", ms[0].Reason.String())
	}
	long := "When the program drops old copies it removes the wrong ones and the logs say nothing " +
		"about why; I expected it to keep the newest and to report which copies it dropped so that " +
		"I can see what went wrong and fix the configuration of the machine it runs on, as before."
	for _, m := range ix.Search(long, memory.SearchOptions{Explain: true}) {
		if strings.Contains(m.Reason.String(), "≅") {
			t.Errorf("long text expanded through WordNet: %s: %s", m.Rel, m.Reason.String())
		}
	}
}
