//go:build unix

package tokens

import (
	"os"

	"golang.org/x/sys/unix"
)

// placeOf is dir's place: its device and inode, and this user.
func placeOf(dir string) (place, error) {
	var st unix.Stat_t
	if err := unix.Stat(dir, &st); err != nil {
		return place{}, err
	}
	return place{dev: uint64(st.Dev), ino: uint64(st.Ino), uid: uint64(os.Geteuid())}, nil
}

// ownedByUs reports whether this user owns f.
func ownedByUs(f *os.File) bool {
	var st unix.Stat_t
	return unix.Fstat(int(f.Fd()), &st) == nil && int(st.Uid) == os.Geteuid()
}
