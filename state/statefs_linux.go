package state

import "golang.org/x/sys/unix"

// renameNoReplace renames without replacing an existing name, atomically.
func renameNoReplace(fromfd int, from string, tofd int, to string) error {
	return eintr(func() error { return unix.Renameat2(fromfd, from, tofd, to, unix.RENAME_NOREPLACE) })
}
