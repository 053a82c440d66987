//go:build !linux

package root

import (
	"os"
	"syscall"

	"github.com/taskctl/taskctl/internal/diag"
)

// Elsewhere than Linux there is no openat2: every open goes through the
// directory's *os.Root, the way Linux takes where openat2 cannot serve
// (see open_linux.go): readRoot for the reads, openNoLinksPortable for the
// commands' opens.

func openBeneathDir(*os.Root) int { return -1 }

func closeBeneath(int) {}

// readBeneath declines: Read takes readRoot's way.
func (r *Root) readBeneath(*Dir, string, string, string, []byte) (*File, *diag.Warning, bool) {
	return nil, nil, false
}

// ReadSmall declines: the caller reads through the *os.Root.
func (d *Dir) ReadSmall(string, int64) ([]byte, bool, error) { return nil, true, nil }

// openNoFollow opens rel in d with O_NOFOLLOW on its last component.
func (d *Dir) openNoFollow(rel string) (*os.File, error) {
	return d.os.OpenFile(rel, OpenFlags|syscall.O_NOFOLLOW, 0)
}

// openNoLinks opens the root-relative path rel if it holds no symbolic
// link: openNoLinksPortable.
func (s *Shell) openNoLinks(rel string) (*os.File, error) { return s.openNoLinksPortable(rel) }

// dirHasLinks reports whether the directory dir (relative to d) may hold
// a symbolic link: without openat2, always (the caller then resolves the
// path, lstat'ing each part).
func (d *Dir) dirHasLinks(string) bool { return true }
