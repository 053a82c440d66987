package root

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
)

// A Root is the confined file system of one project: the project dir and
// the extra roots a configuration allows, each held open, and the policy
// every read of them is judged by. Its methods are safe for concurrent
// use. Close it when done.
type Root struct {
	dirs      []*Dir // dirs[0] is the project dir
	policy    Policy
	sensitive *nameSet
}

// A Dir is one allowed directory of a Root: its real path, an *os.Root at
// it, and a descriptor (O_PATH) of the same directory for openat2.
type Dir struct {
	path    string
	os      *os.Root
	fd      int             // see openBeneathDir; -1 for none
	cleanup runtime.Cleanup // closes fd if the Dir is dropped without Close
}

// Path returns the real absolute path of d.
func (d *Dir) Path() string { return d.path }

// OS returns the *os.Root opened at d.
func (d *Dir) OS() *os.Root { return d.os }

// FD returns d's descriptor for openat2 beneath it (Linux 5.6 and later),
// or -1 where there is none: callers then go through OS.
func (d *Dir) FD() int { return d.fd }

// Open opens a Root at dirs (real absolute paths of existing
// directories; the first is the project dir) under policy pol, whose zero
// fields take their defaults.
func Open(dirs []string, pol Policy) (*Root, error) {
	r := &Root{policy: pol.WithDefaults()}
	for _, d := range dirs {
		osr, err := os.OpenRoot(d)
		if err != nil {
			r.Close()
			return nil, fmt.Errorf("open root: %w", err)
		}
		rd := &Dir{path: d, os: osr, fd: openBeneathDir(osr)}
		if rd.fd >= 0 {
			// A Root dropped without Close does not keep the
			// descriptor (the os.Root closes its own the same way).
			rd.cleanup = runtime.AddCleanup(rd, closeBeneath, rd.fd)
		}
		r.dirs = append(r.dirs, rd)
	}
	r.sensitive = compileNames(r.policy.Sensitive)
	return r, nil
}

// Close closes the directories.
func (r *Root) Close() error {
	var errs []error
	for _, d := range r.dirs {
		if d.fd >= 0 {
			d.cleanup.Stop()
			closeBeneath(d.fd)
			runtime.KeepAlive(d)
		}
		d.fd = -1
		errs = append(errs, d.os.Close())
	}
	r.dirs = nil
	return errors.Join(errs...)
}

// Dir returns the project dir (real, absolute).
func (r *Root) Dir() string { return r.dirs[0].path }

// Dirs returns the allowed directories, the project dir first.
func (r *Root) Dirs() []*Dir { return append([]*Dir(nil), r.dirs...) }

// Policy returns the effective policy (defaults filled in).
func (r *Root) Policy() Policy { return r.policy }

// DirOf returns the allowed directory that real (clean, absolute) lies
// in, and real relative to it (slash-separated, "." for the directory
// itself); nil when it lies in none.
func (r *Root) DirOf(real string) (*Dir, string) {
	for _, d := range r.dirs {
		if Within(d.path, real) {
			if real == d.path {
				return d, "."
			}
			off := len(d.path) + 1
			if d.path == "/" {
				off = 1
			}
			return d, filepath.ToSlash(real[off:])
		}
	}
	return nil, ""
}

// Rel renders real relative to the project dir, slash-separated (with
// "../" when it lies in an extra root).
func (r *Root) Rel(real string) string {
	dir := r.dirs[0].path
	if Within(dir, real) {
		if real == dir {
			return "."
		}
		off := len(dir) + 1
		if dir == "/" {
			off = 1
		}
		return filepath.ToSlash(real[off:])
	}
	rel, err := filepath.Rel(dir, real)
	if err != nil {
		return filepath.ToSlash(real)
	}
	return filepath.ToSlash(rel)
}
