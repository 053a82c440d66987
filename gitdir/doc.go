// Package gitdir lets go-git read a repository's git directory through
// the confined root: FS is a root.GitDir as a read-only billy.Filesystem,
// the one adapter go-git's object storage is given (by the shell's git
// builtins and by the index's commit history alike).
//
// Guarantees: it is a root.GitDir and no more (see root.GitDir: every open
// beneath the git directory, no symbolic link followed, nothing outside
// it); every write go-git might try (create, rename, remove, a temporary
// file, mkdir, symlink, an open for writing) fails with ErrReadOnly, and
// locks are no-ops.
//
// Not guaranteed: go-git's own behaviour on what it reads (a damaged pack,
// a missing object) is go-git's; callers bound its work.
package gitdir
