package root

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/taskctl/taskctl/internal/diag"
)

// The test hooks of root's two ways of a read (openat2 beneath a
// directory, and its *os.Root where openat2 is missing), which the tests
// hold to the same verdicts.

// disableBeneath makes r read every file through its *os.Root, as where
// openat2 is missing.
func (r *Root) disableBeneath() {
	for _, d := range r.dirs {
		if d.fd >= 0 {
			d.cleanup.Stop()
			closeBeneath(d.fd)
		}
		d.fd = -1
	}
}

// beneath reports whether r reads with openat2 (Linux 5.6 and later,
// where no seccomp filter refuses it).
func (r *Root) beneath() bool { return len(r.dirs) > 0 && r.dirs[0].fd >= 0 }

// readBeneathOnly is Read by the openat2 way alone: served is false where
// that way declined and Read would go on through the *os.Root.
func (r *Root) readBeneathOnly(path string) (f *File, w *diag.Warning, served bool) {
	path, d, rel, w := r.target(path)
	if w != nil {
		return nil, w, true
	}
	return r.readBeneath(d, path, rel, path, nil)
}

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

// openRoot opens a Root at dirs under pol, closed when the test ends.
func openRoot(t testing.TB, pol Policy, dirs ...string) *Root {
	t.Helper()
	r, err := Open(dirs, pol)
	if err != nil {
		t.Fatalf("Open(%q): %v", dirs, err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}
