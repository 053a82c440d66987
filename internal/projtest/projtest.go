package projtest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Secret is the content the hostile fixtures plant outside a project:
// a test fails if it is ever read.
const Secret = "SECRET-OUTSIDE"

// WriteTree builds files under dir from a tiny notation: "path" (a file
// holding its own name), "path/" (a directory), "path -> target" (a
// symlink), "path = content".
func WriteTree(t testing.TB, dir string, lines ...string) {
	t.Helper()
	for _, l := range lines {
		switch {
		case strings.Contains(l, " -> "):
			name, target, _ := strings.Cut(l, " -> ")
			p := filepath.Join(dir, name)
			MkdirAll(t, filepath.Dir(p))
			if err := os.Symlink(target, p); err != nil {
				t.Fatal(err)
			}
		case strings.HasSuffix(l, "/"):
			MkdirAll(t, filepath.Join(dir, l))
		default:
			name, content, ok := strings.Cut(l, " = ")
			if !ok {
				content = name + "\n"
			}
			p := filepath.Join(dir, name)
			MkdirAll(t, filepath.Dir(p))
			if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// MkdirAll makes dir and its parents, failing the test if it cannot.
func MkdirAll(t testing.TB, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
}

// RealTemp returns a t.TempDir with symlinks evaluated.
func RealTemp(t testing.TB) string {
	t.Helper()
	d, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return d
}
