//go:build !linux

package project

import (
	"io/fs"
	"os"
)

func canStampDirs(*rootDir) bool { return false }

func stampAt(*rootDir, string, *[]byte) (dirStamp, bool) { return dirStamp{}, false }

func (h *dirHandle) stamp() (dirStamp, bool) { return dirStamp{}, false }

func openDirBeneath(r *rootDir, rel, display string) (*dirHandle, error) {
	return openDir(r, nil, rel, display)
}

// lstatIn is os.Lstat(full) (into and buf are not used).
func lstatIn(_ *rootDir, full, _ string, _ *statInfo, _ *[]byte) (fs.FileInfo, error) {
	return os.Lstat(full)
}
