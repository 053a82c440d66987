//go:build linux && (amd64 || arm64)

package walk

import (
	"strings"
	"unsafe"

	"golang.org/x/sys/unix"
)

// lstatAt is unix.Fstatat(dirfd, name, st, AT_SYMLINK_NOFOLLOW), retried
// on EINTR, making name NUL-terminated in *buf (kept from call to call)
// instead of in a new allocation each time: a walk stats every file and
// directory. It is the system call unix.Fstatat makes on this platform.
func lstatAt(dirfd int, name string, st *unix.Stat_t, buf *[]byte) error {
	if strings.IndexByte(name, 0) >= 0 {
		return unix.EINVAL // as unix.Fstatat answers
	}
	b := append(append((*buf)[:0], name...), 0)
	*buf = b
	for {
		_, _, errno := unix.Syscall6(unix.SYS_NEWFSTATAT, uintptr(dirfd), uintptr(unsafe.Pointer(&b[0])),
			uintptr(unsafe.Pointer(st)), unix.AT_SYMLINK_NOFOLLOW, 0, 0)
		switch errno {
		case 0:
			return nil
		case unix.EINTR:
			continue
		}
		return errno
	}
}
