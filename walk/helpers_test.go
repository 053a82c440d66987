package walk_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/taskctl/taskctl/project"
)

// The tests of this package walk through a project (project.Open), as the
// callers do; these helpers are project's test helpers of the same names.

const secret = "SECRET-OUTSIDE"

// writeTree builds files under dir from a tiny notation: "path" (a file
// holding its own name), "path/" (a directory), "path -> target" (a
// symlink), "path = content".
func writeTree(t testing.TB, dir string, lines ...string) {
	t.Helper()
	for _, l := range lines {
		switch {
		case strings.Contains(l, " -> "):
			name, target, _ := strings.Cut(l, " -> ")
			p := filepath.Join(dir, name)
			mkdirAll(t, filepath.Dir(p))
			if err := os.Symlink(target, p); err != nil {
				t.Fatal(err)
			}
		case strings.HasSuffix(l, "/"):
			mkdirAll(t, filepath.Join(dir, l))
		default:
			name, content, ok := strings.Cut(l, " = ")
			if !ok {
				content = name + "\n"
			}
			p := filepath.Join(dir, name)
			mkdirAll(t, filepath.Dir(p))
			if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

func mkdirAll(t testing.TB, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
}

// realTemp returns a t.TempDir with symlinks evaluated.
func realTemp(t testing.TB) string {
	t.Helper()
	d, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func open(t testing.TB, opts project.Options) *project.Project {
	t.Helper()
	p, err := project.Open(opts)
	if err != nil {
		t.Fatalf("Open(%+v): %v", opts, err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}
