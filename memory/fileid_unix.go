//go:build unix

package memory

import (
	"io/fs"
	"syscall"
)

// devIno returns the device and inode of a file, for fileID.
func devIno(fi fs.FileInfo) (uint64, uint64) {
	if sys, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(sys.Dev), uint64(sys.Ino)
	}
	return 0, 0
}
