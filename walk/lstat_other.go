//go:build linux && !amd64 && !arm64

package walk

import "golang.org/x/sys/unix"

// lstatAt is unix.Fstatat(dirfd, name, st, AT_SYMLINK_NOFOLLOW), retried
// on EINTR (buf is not used).
func lstatAt(dirfd int, name string, st *unix.Stat_t, _ *[]byte) error {
	for {
		if err := unix.Fstatat(dirfd, name, st, unix.AT_SYMLINK_NOFOLLOW); err != unix.EINTR {
			return err
		}
	}
}
