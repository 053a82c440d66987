package memory_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/taskctl/taskctl/memory"
)

// assocLabel returns the first "doc:" label of a match's reason, "" for
// none.
func assocLabel(m memory.Match) string {
	for _, ts := range m.Reason.Terms {
		for _, l := range ts {
			if strings.HasPrefix(l, "doc: ") {
				return l
			}
		}
	}
	return ""
}

// A word the project's doc comments tie to a name finds the files that use
// the name, labelled with the association; when the comments change, a
// refresh makes the association follow them.
func TestAssocFollowsDocComments(t *testing.T) {
	files := map[string]string{
		"proxy/a.go":  "package proxy\n\n// Frobnicate twiddles knobs over backends.\nfunc Frobnicate() {}\n",
		"proxy/b.go":  "package proxy\n\n// frobnicate twiddles the load.\nfunc (p *Pool) frobnicate() {}\n",
		"pool/use.go": "package pool\n\nfunc next() { p.frobnicate() }\n",
		"log/w.go":    "package log\n\n// Write writes a log line.\nfunc Write(line string) {}\n",
	}
	root := writeTree(t, files)
	ix, _ := build(t, root)
	find := func(q, rel string) (int, string) {
		ms := ix.Search(q, memory.SearchOptions{Explain: true})
		i := slices.IndexFunc(ms, func(m memory.Match) bool { return m.Rel == rel })
		if i < 0 {
			return -1, ""
		}
		return i, assocLabel(ms[i])
	}
	if i, l := find("twiddle the work", "pool/use.go"); i < 0 || l != "doc: twiddle→frobnic" {
		t.Fatalf("twiddle: pool/use.go at %d labelled %q, want found through doc: twiddle→frobnic", i, l)
	}
	if i, _ := find("scatter the work", "pool/use.go"); i >= 0 {
		t.Fatalf("scatter: pool/use.go found at %d before any comment says scatter", i)
	}
	for _, rel := range []string{"proxy/a.go", "proxy/b.go"} {
		p := filepath.Join(root, filepath.FromSlash(rel))
		data := strings.Replace(files[rel], "twiddles", "scatters out", 1)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := ix.Refresh(context.Background(), memory.DirSource(root), nil); err != nil {
		t.Fatal(err)
	}
	if i, l := find("scatter the work", "pool/use.go"); i < 0 || l != "doc: scatter→frobnic" {
		t.Fatalf("after refresh, scatter: pool/use.go at %d labelled %q, want doc: scatter→frobnic", i, l)
	}
	if i, l := find("twiddle the work", "pool/use.go"); i >= 0 {
		t.Fatalf("after refresh, twiddle: pool/use.go still found at %d (%q)", i, l)
	}
}

// A match through an association counts less than the word itself.
func TestAssocBelowExact(t *testing.T) {
	root := writeTree(t, map[string]string{
		"proxy/a.go":  "package proxy\n\n// Frobnicate twiddles knobs.\nfunc Frobnicate() {}\n",
		"proxy/b.go":  "package proxy\n\n// frobnicate twiddles the load.\nfunc frobnicate() {}\n",
		"pool/use.go": "package pool\n\nfunc next() { frobnicate() }\n",
		"work/s.go":   "package work\n\nfunc next() { twiddle() }\n",
	})
	ix, _ := build(t, root)
	got := rels(ix.Search("twiddle", memory.SearchOptions{}))
	if a, b := slices.Index(got, "work/s.go"), slices.Index(got, "pool/use.go"); a < 0 || b < 0 || a > b {
		t.Fatalf("ranking = %v, want work/s.go (the word) above pool/use.go (its association)", got)
	}
}

// A Python docstring's first line is the doc comment of its def.
func TestAssocDocstring(t *testing.T) {
	root := writeTree(t, map[string]string{
		"a/x.py":   "def frobnicate():\n    \"\"\"Twiddle the knobs.\"\"\"\n    return 1\n",
		"a/y.py":   "class Frobnicator:\n    \"\"\"\n    Twiddles knobs for you.\n    \"\"\"\n",
		"b/use.py": "def go():\n    frobnicate()\n",
	})
	ix, _ := build(t, root)
	ms := ix.Search("twiddle", memory.SearchOptions{})
	i := slices.IndexFunc(ms, func(m memory.Match) bool { return m.Rel == "b/use.py" })
	if i < 0 || assocLabel(ms[i]) != "doc: twiddle→frobnic" {
		t.Fatalf("b/use.py not found through the docstrings: %v", ms)
	}
}
