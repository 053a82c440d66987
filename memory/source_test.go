package memory_test

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/taskctl/taskctl/memory"
	"github.com/taskctl/taskctl/project"
)

// projectWalk lists what project.Walk admits in a project freshly opened
// at root, as "rel size".
func projectWalk(t *testing.T, root string) []string {
	t.Helper()
	p, err := project.Open(project.Options{WorkingDir: root, ProjectDir: root})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	var out []string
	err = p.Walk(context.Background(), func(c project.Candidate, info fs.FileInfo) error {
		out = append(out, fmt.Sprintf("%s %d", c.Rel, info.Size()))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// sourceWalk lists what src's WalkCached yields given prev, and the state
// for the next walk (prev again when it is still good).
func sourceWalk(t *testing.T, src memory.CachingSource, prev []byte) ([]string, []byte) {
	t.Helper()
	var out []string
	next, err := src.WalkCached(context.Background(), prev, func(rel string, size int64, _ time.Time) error {
		out = append(out, fmt.Sprintf("%s %d", rel, size))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if next == nil {
		next = prev
	}
	return out, next
}

// TestDirSourceIsProjectWalk: DirSource yields exactly what project.Walk
// admits (the ignore rules, the always-excluded directories, the sensitive
// names and the size cap are the project's), with and without a walk
// cache, as the tree changes; and it reads through the project's reader.
func TestDirSourceIsProjectWalk(t *testing.T) {
	root := writeTree(t, map[string]string{
		".gitignore":        "build/\n*.log\n",
		".taskctlignore":    "gen/\n",
		"build/out.txt":     "x",
		"debug.log":         "x",
		"gen/a.go":          "x",
		"sub/.gitignore":    "local.txt\n",
		"sub/local.txt":     "x",
		"sub/kept.txt":      "kept",
		"image.bin":         "a\x00b",
		"node_modules/x.js": "x",
		".env":              "TOKEN=x",
		"certs/server.pem":  "x",
		".git/info/exclude": "secret.txt\n",
		"secret.txt":        "x",
	})
	if err := os.WriteFile(filepath.Join(root, "huge.txt"), make([]byte, 10<<20+1), 0o644); err != nil {
		t.Fatal(err)
	}
	want := []string{".gitignore 13", ".taskctlignore 5", "image.bin 3", "sub/.gitignore 10", "sub/kept.txt 4"}
	if got := projectWalk(t, root); !slices.Equal(got, want) {
		t.Fatalf("project.Walk admits %q, want %q", got, want)
	}

	var walked []string
	err := memory.DirSource(root).Walk(context.Background(), func(rel string, size int64, _ time.Time) error {
		walked = append(walked, fmt.Sprintf("%s %d", rel, size))
		return nil
	})
	if err != nil || !slices.Equal(walked, want) {
		t.Fatalf("DirSource(root).Walk yields %q, %v; want %q", walked, err, want)
	}

	// Each step opens the source again, as the command line does on each
	// run, and hands it the previous walk's state.
	steps := []struct {
		name string
		do   func()
	}{
		{"nothing changed", func() {}},
		{"a file added", func() { write(t, root, "sub/deep/new.go", "package deep") }},
		{"a file rewritten", func() { write(t, root, "sub/kept.txt", "k") }},
		{"a rule added", func() { write(t, root, "sub/.gitignore", "local.txt\ndeep/\n") }},
		{"a rule removed", func() { write(t, root, ".gitignore", "*.log\n") }},
		{"a file removed", func() { os.Remove(filepath.Join(root, "image.bin")) }},
	}
	var state []byte
	for _, s := range steps {
		s.do()
		got, next := sourceWalk(t, memory.DirSource(root), state)
		if want := projectWalk(t, root); !slices.Equal(got, want) {
			t.Errorf("%s: DirSource(root).WalkCached yields %q, project.Walk admits %q", s.name, got, want)
		}
		state = next
	}

	src := memory.DirSource(root)
	if data, err := src.ReadFile("sub/kept.txt"); err != nil || string(data) != "k" {
		t.Errorf(`ReadFile("sub/kept.txt") = %q, %v; want "k"`, data, err)
	}
	if err := os.WriteFile(filepath.Join(filepath.Dir(root), "outside.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, rel := range []string{".env", "certs/server.pem", "../outside.txt", "missing.txt", "huge.txt"} {
		if data, err := src.ReadFile(rel); err == nil {
			t.Errorf("ReadFile(%q) = %q, want an error", rel, data)
		}
	}
	write(t, root, "image.bin", "a\x00b")
	if data, err := src.ReadFile("image.bin"); err == nil {
		t.Errorf("ReadFile of a binary file = %q, want an error", data)
	}
}

// TestDirSourceMissing: a directory that cannot be opened as a project is
// an error to walk, not a panic or an empty project.
func TestDirSourceMissing(t *testing.T) {
	src := memory.DirSource(filepath.Join(t.TempDir(), "missing"))
	if err := src.Walk(context.Background(), func(string, int64, time.Time) error { return nil }); err == nil {
		t.Error("Walk of a missing directory: no error")
	}
	if _, err := src.WalkCached(context.Background(), nil, func(string, int64, time.Time) error { return nil }); err == nil {
		t.Error("WalkCached of a missing directory: no error")
	}
	if _, err := src.ReadFile("a"); err == nil {
		t.Error("ReadFile in a missing directory: no error")
	}
}
