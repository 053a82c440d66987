package root

import (
	"github.com/taskctl/taskctl/internal/diag"
	"golang.org/x/sys/unix"
)

// The two ways of a read, apart, for the tests that hold them to the same
// verdicts (project's beneath tests) and for nothing else.

// ReadBeneathOnly is Read by the openat2 way alone: served is false where
// that way declined and Read would go on through the *os.Root.
func (r *Root) ReadBeneathOnly(path string) (f *File, w *diag.Warning, served bool) {
	path, d, rel, w := r.target(path)
	if w != nil {
		return nil, w, true
	}
	return r.readBeneath(d, path, rel, path, nil)
}

// OpenBeneathOnly reads path by the open readBeneath makes alone: no
// lstat before it, no fstat after.
func (r *Root) OpenBeneathOnly(path string) ([]byte, error) {
	_, d, rel, w := r.target(path)
	if w != nil {
		return nil, w
	}
	fd, err := openat2(d.fd, rel, readFlags)
	if err != nil {
		return nil, err
	}
	defer unix.Close(fd)
	return readFD(fd, 0, 1<<20, nil)
}
