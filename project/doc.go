// Package project is taskctl's path resolver: it finds the project dir,
// keeps the three directories (project dir, working dir, workspace
// <project>/.taskctl), resolves the paths and globs of templates, flags and
// command output, applies the policy and walks the tree; its files are
// read through its root (Confined).
//
// The confined file system itself, the input checks, the symlink
// evaluation, the opens beneath the root, the name and content policy and
// the directory reader, is package root's: a Project composes a root.Root
// (Confined) and every read below goes through it. The walker, its cache
// and the watcher are package walk's, and the matching of ignore rules
// package ignore's; a Project hands them its policy (what a walk admits,
// what Exclude leaves out), and its Walk, WalkCached and Watch are theirs.
//
// # Resolution
//
// A literal path is taken as it is when absolute, else relative to the
// working dir (or, in ResolveFrom, to the directory a command ran in). A glob
// (doublestar syntax: *, ?, [...], {a,b}, **) starting with "./" or "../" is
// relative to the working dir, an absolute one is itself, any other is
// relative to the project dir. Nothing is expanded or decoded: "~", "$HOME"
// and "%2e%2e" are literal names, and no Unicode normalisation is done.
// Inputs that are empty, longer than 4096 bytes (or with a component over
// 255), hold a NUL, a control character, a backslash, invalid UTF-8, a drive
// letter ("C:") or a leading "//" are refused as PATH_INVALID before the file
// system is touched. Windows device names ("NUL", "aux.txt") are ordinary
// names on Unix and are looked up as such.
//
// # Guarantees
//
//   - Containment: symlinks are evaluated as the kernel would (".." after a
//     symlink is applied to its target, not lexically), and the real path
//     must lie in the project dir or an extra root, compared by path
//     components ("/p-evil" is not inside "/p"). Every path returned is that
//     real, absolute path.
//   - Nothing outside is looked at: a component outside the allowed roots
//     is taken lexically and never lstat'ed or read as a link, so a path
//     that ends outside gets one answer, PATH_OUTSIDE_PROJECT "is outside
//     the project dir", whatever is there, and a link's target outside is
//     never named; one that comes back in through ".." is resolved from
//     there as if the outside part were plain directories (what is read is
//     always a real path inside).
//   - Reads are the root's (Confined: root.Root.Read and ReadInto, the
//     file operations through it): opened beneath the allowed directory
//     without following a symbolic link, accepted only as a regular file,
//     capped at Policy.MaxFileBytes on the bytes read, judged by the name
//     rules on the real path of the file opened (see package root).
//   - Walks do not follow a symlinked directory (see package walk);
//     symlink entries are resolved and checked like any path.
//   - Absolute symlinks whose target lies inside the root work (os.Root
//     alone refuses them): they are resolved, checked, and the real path is
//     opened through the Root.
//   - The working dir and project dir are never changed (no os.Chdir).
//     project writes only taskctl's own state, under <project>/.taskctl,
//     through a state.Dir (EnsureWorkspace, OpenWorkspace), which follows
//     no symbolic link and writes through no hard link (see package state).
//   - Every refusal is a *diag.Warning with a stable code; nothing is fatal except
//     a project that cannot be opened.
//
// # Not guaranteed
//
//   - Unix only: it builds elsewhere, but Windows paths (drive letters,
//     backslashes) are refused as inputs. The tests that need /proc, FIFOs
//     and devices run on Linux.
//   - A hard link inside the project to a file outside it cannot be told
//     from an ordinary file and is read (whoever can make it can read the
//     file anyway). Bind mounts and other mount points inside the project
//     are followed as directories. /proc-like file systems mounted inside are
//     read like any other (their files are often "regular").
//   - Name checks (sensitive names, .git/) are case-insensitive; ignore
//     rules are case-sensitive, as git's are on Linux.
//   - The global core.excludesFile of git is not read.
//   - Globs do not follow symlinked directories.
//   - Between a walk and a read a file may change or vanish; the read
//     reports what it finds then. The fs.FileInfo that Walk passes comes
//     from an lstat by path (metadata only; content is only ever read
//     through the root).
//   - Names that cannot be printed one per line (control characters,
//     bidirectional controls, invalid UTF-8, backslashes) are refused with
//     PATH_INVALID, as inputs and as names met in a walk.
//
// # Ignore rules
//
// Precedence, highest first: .git/ and .taskctl/ (anywhere, always, even when
// named); node_modules/ (unless the path or pattern names it); the policy's
// Exclude patterns; the .gitignore family: .taskctlignore then .gitignore of
// the deepest directory, up to the root's, then .git/info/exclude, the last
// matching line of a file deciding. A directory that is ignored is not
// entered, so nothing inside it can be re-included (git's rule). A bad
// pattern line is skipped and reported (Project.IgnoreErrors); it never
// stops a walk. The matching is package ignore's (which reads no file
// itself: package walk reads the files below the root and hands them to
// it); ignore.Matcher does it without walking.
//
// An explicitly named file is taken even if ignored; globs skip ignored
// files. A directory named literally stands for its non-ignored files.
package project
