//go:build !linux

package root

import "os"

// openNoLinks opens the root-relative path rel if it holds no symbolic
// link (errLink if it does) and is a regular file or a directory
// (ErrNotRegular otherwise), through the os.Root: each component is
// lstat'ed, then the last one is opened with O_NOFOLLOW and fstat'ed. A
// link swapped into a directory component between the two is followed
// (inside the root); Linux closes that window with openat2.
func (s *Shell) openNoLinks(rel string) (*os.File, error) { return s.openNoLinksPortable(rel) }

// dirHasLinks reports whether the root-relative directory dir may hold a
// symbolic link: without openat2, always (Resolve then lstats each part).
func (s *Shell) dirHasLinks(string) bool { return true }
