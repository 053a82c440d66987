//go:build !linux

package project

import (
	"io/fs"
	"os"
)

func canStampDirs(*rootDir) bool { return false }

func stampAt(*rootDir, string) (dirStamp, bool) { return dirStamp{}, false }

func (h *dirHandle) stamp() (dirStamp, bool) { return dirStamp{}, false }

func openDirBeneath(r *rootDir, rel, display string) (*dirHandle, error) {
	return openDir(r, nil, rel, display)
}

// lstatIn is os.Lstat(full) (into is not used).
func lstatIn(_ *rootDir, full, _ string, _ *statInfo) (fs.FileInfo, error) { return os.Lstat(full) }
