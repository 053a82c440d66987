//go:build !linux

package project

import (
	"os"
	"syscall"

	"github.com/taskctl/taskctl/internal/diag"
)

// Elsewhere than Linux there is no openat2: every file is read through the
// root's *os.Root.

func openBeneathDir(*os.Root) int { return -1 }

func closeBeneath(int) {}

func (p *Project) readBeneath(*rootDir, string, string, string, []byte) (*File, *diag.Warning, bool) {
	return nil, nil, false
}

func (r *rootDir) readIgnoreFile(name string) ([]byte, error) { return readSmall(r.root.FS(), name) }

// openNoFollow opens rel in r with O_NOFOLLOW on its last component.
func (r *rootDir) openNoFollow(rel string) (*os.File, error) {
	return r.root.OpenFile(rel, openFlags|syscall.O_NOFOLLOW, 0)
}
