//go:build !linux

package walk

import (
	"io/fs"
	"os"
)

func canStampDirs(*Tree) bool { return false }

func stampAt(*Tree, string, *[]byte) (dirStamp, bool) { return dirStamp{}, false }

func (h *dirHandle) stamp() (dirStamp, bool) { return dirStamp{}, false }

func openDirBeneath(r *Tree, rel, display string) (*dirHandle, error) {
	return openDir(r, nil, rel, display)
}

// Lstat is os.Lstat(full) (into and buf are not used).
func (*Tree) Lstat(full, _ string, _ *StatInfo, _ *[]byte) (fs.FileInfo, error) {
	return os.Lstat(full)
}
