//go:build linux && (amd64 || arm64)

package memory

import (
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// fstatatBytes is fstatat with a NUL-terminated path in a buffer of the
// caller's, so that stat'ing every file of a tree allocates nothing.
func fstatatBytes(fd int, path []byte, st *unix.Stat_t, flags int) error {
	for {
		_, _, e := syscall.Syscall6(sysFstatat, uintptr(fd), uintptr(unsafe.Pointer(&path[0])), uintptr(unsafe.Pointer(st)), uintptr(flags), 0, 0)
		switch e {
		case 0:
			return nil
		case syscall.EINTR:
			continue
		}
		return e
	}
}
