//go:build !linux

package root

import (
	"os"
	"syscall"

	"github.com/taskctl/taskctl/internal/diag"
)

// Elsewhere than Linux there is no openat2: every file is read through the
// root's *os.Root.

func openBeneathDir(*os.Root) int { return -1 }

func closeBeneath(int) {}

func (r *Root) readBeneath(*Dir, string, string, string, []byte) (*File, *diag.Warning, bool) {
	return nil, nil, false
}

// ReadSmall declines: the caller reads through the *os.Root.
func (d *Dir) ReadSmall(string, int64) ([]byte, bool, error) { return nil, true, nil }

// openNoFollow opens rel in d with O_NOFOLLOW on its last component.
func (d *Dir) openNoFollow(rel string) (*os.File, error) {
	return d.os.OpenFile(rel, OpenFlags|syscall.O_NOFOLLOW, 0)
}
