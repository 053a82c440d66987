// Package walk lists the files of a project's tree: the parallel walker
// (Files, and Run for the globs of project), the walk cache (Cached), the
// watcher that keeps a walk current from the kernel's change notifications
// (Watch), and the per-directory stack of ignore files, read below the
// root and handed to package ignore, which matches them. A Tree is one
// allowed root; what is admitted (names, sensitive files, symlinks, size)
// and what the policy excludes are the project's decisions, asked through
// Hooks.
//
// # Guarantees
//
//   - Directories are listed with openat(O_NOFOLLOW|O_DIRECTORY) relative
//     to the already open parent (on Linux; elsewhere through the root's
//     *os.Root), so a directory swapped for a symlink mid-walk is not
//     entered, and no symlink is ever followed as a directory: symlinks are
//     passed to Hooks.Admit as entries.
//   - .git/ and .taskctl/ are never entered; node_modules/ only when asked
//     (Options.AllowNM); an ignored directory is not entered, so nothing
//     inside it can be re-included (git's rule). The ignore files of a
//     directory are read below the root (openat2 with RESOLVE_BENEATH where
//     the kernel has it), regular files of at most ignore.MaxFileBytes; one
//     that cannot be read is reported (ignore.Matcher.Errors), never fatal.
//   - Files yields in order of Rel, each real file once, whatever the
//     order the workers read directories in; fn is called from one
//     goroutine.
//   - Cached yields exactly what Files yields. It is given the raw listing
//     (names and types) of every directory an earlier walk read, with the
//     directory's inode, change and modification times: a directory whose
//     inode and times are unchanged, and which changed well before that
//     walk (two seconds: file system clocks are coarse), is not opened and
//     read again. The ignore rules and Hooks are applied afresh, every
//     regular file is lstat'ed, so the cache only saves the opening and
//     reading of unchanged directories. A damaged cache, or one recorded for
//     another tree, is ignored. A directory below one taken from the cache
//     is opened with openat2 (RESOLVE_BENEATH|RESOLVE_NO_SYMLINKS) from the
//     root's descriptor. Linux only; elsewhere Cached is Files.
//   - A Watcher (Linux, inotify) watches every directory before listing it,
//     with IN_ONLYDIR|IN_DONT_FOLLOW, so a change after a listing is always
//     reported and a symlink is never watched through; its Sync takes every
//     change made before it was called. What cannot be followed entry by
//     entry (a queue overflow, an ignore file or .git changed, the root
//     moved) starts everything over.
//
// # Not guaranteed
//
//   - Between a walk and a read a file may change or vanish. The
//     fs.FileInfo a walk passes comes from an lstat (metadata only).
//   - Watch is Linux only (ErrWatchUnsupported elsewhere); it does not see
//     writes through a shared mapping, changes on another machine to a
//     network file system, nor writes through a hard link made after the
//     watch started from outside the watched tree (see Watcher).
package walk
