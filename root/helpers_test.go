package root

import (
	"testing"

	"github.com/taskctl/taskctl/internal/diag"
	"github.com/taskctl/taskctl/internal/projtest"
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

// The tree builders are internal/projtest's, shared with walk's and
// project's tests.
const secret = projtest.Secret

var (
	writeTree = projtest.WriteTree
	realTemp  = projtest.RealTemp
)

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
