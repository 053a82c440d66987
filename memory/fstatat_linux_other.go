//go:build linux && !amd64 && !arm64

package memory

import "golang.org/x/sys/unix"

// fstatatBytes is fstatat with a NUL-terminated path.
func fstatatBytes(fd int, path []byte, st *unix.Stat_t, flags int) error {
	return fstatat(fd, string(path[:len(path)-1]), st, flags)
}
