//go:build unix && !linux

package state

import "golang.org/x/sys/unix"

// renameNoReplace renames without replacing an existing name: a hard link
// at the new name (which fails if the name is taken), then the old name
// removed. Directories cannot be linked: they are renamed after a check,
// which a concurrent creation can race.
func renameNoReplace(fromfd int, from string, tofd int, to string) error {
	err := unix.Linkat(fromfd, from, tofd, to, 0)
	if err == unix.EPERM || err == unix.EISDIR {
		var st unix.Stat_t
		if unix.Fstatat(tofd, to, &st, unix.AT_SYMLINK_NOFOLLOW) == nil {
			return unix.EEXIST
		}
		return unix.Renameat(fromfd, from, tofd, to)
	}
	if err != nil {
		return err
	}
	return unix.Unlinkat(fromfd, from, 0)
}
