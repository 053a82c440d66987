// Package root is taskctl's one confined file system (#29 point 1): the
// project dir and the extra roots a configuration allows, held open, and
// the policy every read of them is judged by. Every reader takes a Root:
// project's resolver, walks and file operations (and through them the
// context document, `fs read`, the MCP file tools and the index), and the
// shell interpreter's builtins.
//
// A Root decides, once per file:
//
//   - The input: CheckInput refuses, before the file system is touched,
//     paths that are empty, over 4096 bytes (or with a component over
//     255), hold a NUL, a control or bidirectional character, a
//     backslash, invalid UTF-8, a drive letter ("C:") or a leading "//".
//   - The symbolic links: Eval resolves them as the kernel would (".."
//     after a link applies to its target), and looks at nothing outside
//     the allowed directories: a component outside is taken lexically and
//     never lstat'ed or read as a link, so a path that ends outside gets
//     one answer, PATH_OUTSIDE_PROJECT, whatever is there.
//   - The open: on Linux with openat2(RESOLVE_BENEATH|RESOLVE_NO_SYMLINKS)
//     from a descriptor of the directory, which the kernel confines below
//     it and which follows no symlink; where that declines (a symlink on
//     the path, a special or missing file) or openat2 is missing (before
//     Linux 5.6, a seccomp filter, other systems), through an *os.Root.
//     Either way the file is opened with O_NONBLOCK|O_NOCTTY and accepted
//     only if fstat says regular file, so a symlink or FIFO swapped in
//     after the check can neither lead outside nor block; both ways give
//     the same file or the same warning. A path that has become a symlink
//     is resolved again and judged by its real path.
//   - The names (CheckName, ReadRefusal): nothing inside .git/ or
//     .taskctl/ (any case), the policy's Exclude patterns, the sensitive
//     names (of the file and of the name it was given by), and a name that
//     holds a secret (a key ID used as a file name).
//   - The size: Policy.MaxFileBytes, enforced on the bytes read, never on
//     what a stat said.
//   - The content (JudgeContent): binary or text, the encoding (decoded to
//     UTF-8, content/encoding), and the secrets in the text
//     (content/secrets), which refuse the file unless the policy allows
//     them.
//
// Directories are read by one getdents64 walker (OpenDirAt, ListFD,
// openFileAt on Linux): a directory is held as a descriptor, the next is
// opened from it by a name getdents returned with O_NOFOLLOW|O_DIRECTORY,
// so a walk never follows a symbolic link or leaves the tree it started in.
//
// Commands (the shell builtins) open through a Root too, by its Shell
// view: the project dir alone, the same opens beneath it along a path with
// no symbolic link (a path through a link resolved by the same evaluation,
// Eval, held to the project dir: a link leaving it is refused without
// looking at its target), the same name policy for every file whose
// content a command reads, by the name given and by the real path, and
// nothing inside .git/ or .taskctl/. Their walks (find, grep -r) hold
// Handles, listed by the same getdents64 reader.
//
// A repository's git directory is read (by the shell's git builtins: the
// index, info/exclude, and go-git's object store for git diff and git
// status; by the index's commit history) only through a GitDir, the view
// of that directory alone: the same opens beneath the root, no symbolic
// link followed at all, nothing written (package gitdir hands it to
// go-git).
//
// The repository's own files that decide the policy (its config, its
// task library) are read before a Root exists, by ReadIn and OpenIn:
// through an *os.Root at the project dir, a symbolic link followed only
// while it stays inside (ErrLeavesRoot otherwise), special files refused
// before any open.
//
// Every refusal is a *diag.Warning with a stable code (or, for commands,
// an *fs.PathError whose cause says why: ErrOutside, a *StateError, a
// RefusedError).
//
// Not guaranteed: a hard link inside the root to a file outside it cannot
// be told from an ordinary file and is read; bind mounts inside are
// followed as directories; Windows paths are refused, not translated;
// between a walk and a read a file may change, and the read reports what
// it finds then.
package root
