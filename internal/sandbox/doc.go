// Package sandbox confines a program taskctl starts, a workflow step's
// executor, with Landlock (Linux 5.13 and later): the program may read and
// execute anything the user can, but write only in the directories it is
// given (the run's directory, the workspace, configured write roots) and a
// few device files, and, in strict mode, use no network.
//
// Landlock restricts the thread that asks and what it executes later, never
// its parent, so the confinement is applied by a helper process: taskctl
// runs itself with [HelperArg] (its main calls [Exec] first thing), the
// helper restricts its own thread and then executes the program in its
// place, which keeps the restriction for good, with everything it starts.
// [Plan.Command] builds that command line.
//
// Modes ([Mode]):
//   - off: nothing is confined.
//   - read-only-project (the default where the kernel has Landlock): writes
//     only in the writable directories, the system's temporary directory
//     (unless it holds the project: then the caller points TMPDIR into a
//     writable directory, see [Plan.PrivateTemp]) and /dev/null, /dev/zero
//     and /dev/full; the network is open.
//   - strict: writes only in the writable directories and those device
//     files; no TCP connect or bind (Landlock ABI 4), no abstract UNIX
//     sockets or signals to processes outside the sandbox (ABI 6), no
//     connect to pathname UNIX sockets (ABI 9) and no UDP (ABI 10).
//
// Guarantees and limits:
//   - A writable directory must be absolute, an existing directory, and its
//     own real path (no symbolic link on the way, which could point the
//     write access anywhere); one that holds the project is refused, since
//     Landlock grants whole trees and the project would be writable.
//   - What Landlock of the running kernel cannot restrict stays open: on
//     ABI 7 strict mode still lets UDP (DNS included) and pathname UNIX
//     sockets through. [ABI] says what the kernel has; [Check] says
//     whether a mode can be enforced at all.
//   - The helper sets no_new_privs: a set-user-ID program (sudo) does not
//     gain privileges inside the sandbox.
//   - No typing into a terminal: the caller starts the program in a
//     session of its own, without a controlling terminal (/dev/tty cannot
//     be opened), and the helper installs a seccomp filter
//     ([RefuseTerminalInput]) under which ioctl TIOCSTI and TIOCLINUX fail
//     with EPERM, so that even a program that opens a terminal (root may
//     push input into any) cannot type a command for the user's shell.
//   - Reads are not restricted: the sandbox keeps a program from changing
//     the project and the system, not from reading what the user can read.
//   - Off Linux nothing can be confined ([ABI] is 0).
package sandbox
