// Package state keeps taskctl's own state: the directories under
// <project>/.taskctl (the index, its lock and walk cache, the runs, the
// token cache, the audit log, the workspace and its backups) and the files
// in them. A Dir is such a directory, held open; ReadRegular is the one
// capped reader of taskctl's files and of the templates and configuration
// files it is given.
//
// # Guarantees (Unix)
//
//   - A Dir is reached from its real, absolute path one component at a time
//     with openat(O_NOFOLLOW|O_DIRECTORY) (Open, Make), and held open: its
//     files are created, replaced (a temporary file renamed over the name),
//     locked, appended to and read relative to its descriptor, never
//     through a symbolic link, and accepted only if fstat says regular file
//     of one link.
//   - A symbolic link on the way or in a file's place (a cloned repository
//     can commit .taskctl/index/lock as a link anywhere), a FIFO, device or
//     socket (refused on lstat, before any open), a directory where a file
//     goes, or a hard-linked file is an *UnsafeError, STATE_UNSAFE. So
//     nothing is written, created or locked outside the directory named,
//     and nothing is written through a name that shares its data.
//   - Make creates the missing directories (0755), each with a ".gitignore"
//     holding "*", so taskctl's state never gets committed.
//   - A replacement is atomic: readers see the old content or the new, and
//     a crash leaves at most a temporary file PendingOf recognises.
//   - ReadRegular reads a regular file (fstat says so) of at most max bytes
//     and never more than max+1, even from a file that grows while read.
//
// # Not guaranteed
//
//   - The path given to Open or Make is taken as real: the caller (project)
//     resolves it first.
//   - Elsewhere than Unix, names are checked with lstat before they are
//     used, which a concurrent swap can race, and locks are files created
//     exclusively: taskctl builds there and is not hardened there.
//   - The package does not know what the files mean; their formats are
//     their writers' (memory, workflow, contextgen/tokens).
package state
