// Package shellexec runs the shell command of a <file_paths
// source="command"> as a restricted, read-only, in-process interpreter
// and returns what it printed as candidate paths.
//
// A script goes through three layers:
//
//  1. Vetting. The script is parsed as bash with mvdan.cc/sh and the whole
//     syntax tree is checked against an allowlist before anything runs:
//     simple commands, pipes, &&, ||, ;, !, { }, ( ), if, case, for NAME in
//     WORDS, [ / test / [[ ]], quoting, parameter expansion (not ${x/a/b},
//     ${!x} or ${x:=y}), arithmetic without assignment, command
//     substitution $(...) and `...`, input redirection (< FILE, here-docs,
//     here-strings), output redirection only to /dev/null, and 2>&1 / >&2.
//     Everything else is a [*DeniedError] naming the construct and its
//     line:col: other redirections (>, >>, &>, >|, <>, fds 3 and up),
//     process substitution, background jobs, coprocesses, function
//     definitions, while/until and C-style loops, assignments and
//     declarations (task inputs are read-only variables), brace expansions
//     of more than 4096 words, pipelines longer than Config.MaxPipeline and
//     scripts with more than Config.MaxCommands simple commands.
//  2. A call handler that sees every simple command after expansion,
//     builtins included. Only :, true, false, test, [, cd (one directory
//     inside the project), exit, break, continue, shift and set (options
//     only, not -x/-v: a trace would quote what commands read) run as
//     builtins; echo, printf and pwd are routed to our own
//     implementations so their output is capped; eval, source, ., exec,
//     command, builtin, trap, read, job control, ulimit, umask, alias and
//     the rest are denied. Any other name must be one of the in-process
//     commands. The exec handler chain ends in ours: no program is ever
//     started.
//  3. File access. The interpreter's open, read-dir, stat and access
//     handlers, and every in-process command, reach files only through
//     Config.Root, the project's one confined file system (a [root.Root],
//     through its Shell view: the project dir alone; shellexec has no
//     opening code of its own): absolute paths are mapped into it, and
//     "..", absolute paths and symlinks that leave the project fail, for
//     reading as for writing. Nothing inside .git/ or .taskctl/ (any case,
//     at any depth) is opened, listed or stat'ed: by name, glob, $(<...),
//     redirection or symlink; find, grep -r and ls -R name them but do not
//     enter them (git ls-files, git grep and git diff read .git/index and
//     .git/info/exclude themselves, by the root's narrow mode for git's
//     own reads, which opens inside .git/ and nowhere else a command may
//     not). A file is opened along a path with
//     no symlink in it (openat2 RESOLVE_NO_SYMLINKS on Linux): a path with
//     links is resolved inside the root first and its real path checked
//     and opened, so a link swapped in meanwhile fails the open instead of
//     being followed, and the root's name policy (Exclude, sensitive
//     names, names holding a secret) judges the file that was opened, by
//     the name given and by its real path; the root's content policy
//     judges what a command reads before the command sees it.
//     Opens ask for read-only access; what an O_PATH descriptor (lstat on
//     other systems) shows to be neither a regular file nor a directory is
//     refused before it is opened (FIFOs and devices cannot block, stream
//     or react to an open). /dev/null is the one path outside the project:
//     it reads empty and discards writes.
//
// The in-process commands are find, grep, ls, cat, head, tail, wc, sort,
// uniq, cut, tr, basename, dirname, echo, printf, pwd, sed, xargs, git
// ls-files, git grep and git diff --name-only. Each behaves like its GNU counterpart (bash's builtin for echo
// and printf) for the options it supports, which the differential test
// checks against bash. Options that write or execute (find
// -delete/-exec/-fprint/-fls, sort -o/-T/--compress-program, the output
// operand of uniq, sed -i and its w, W, e and r commands, grep -R, tail -f,
// xargs of anything but these commands, git grep -O and every git option
// or subcommand not listed) are refused with a [*DeniedError]. Regular
// expressions use RE2 (linear time): POSIX basic and extended syntax is
// translated, back-references are an error. The git commands read
// .git/index with go-git's decoder; --others --exclude-standard asks
// taskctl's ignore engine (ignore.NewGit: .gitignore files and
// .git/info/exclude, as the walker reads them, here read through the
// interpreter's own confined opening), so the two agree;
// git grep searches the tracked files with the in-process grep; git diff
// --name-only compares the worktree with the index by blob hash and mode.
// git's configuration (core.fsmonitor, hooks, filters, textconv,
// core.excludesFile) is never read and no git program runs, so results can
// differ from git where configuration would change them.
//
// find and grep -r walk in readdir order, as GNU find and grep do. grep -r
// searches the files between two subdirectories on two goroutines and
// prints their output in readdir order; with -l, -L or -q, which stop
// reading a file at its first selected line, it searches on one.
//
// The interpreter's environment is fixed: no PATH or HOME, TMPDIR naming a
// directory that does not exist (the interpreter would otherwise create
// FIFOs there, past the open handler), LC_ALL=C, plus Config.Vars as
// variables whose values are never parsed as syntax. ~user is never
// expanded (no user database is asked: ~root stays "~root", as bash
// leaves an unknown user's), and a script naming the process's ids ($$,
// $PPID, $BASHPID, $UID, $EUID, $GID, bare or in arithmetic) is denied.
//
// A denial quotes the script as written, never a value that came from a
// file or a command's output: a refused word the script does not hold
// (a file's content as a command name, an option xargs read) is replaced
// in the [*DeniedError] by the command's source text.
//
// Outside the project, one answer: a path that leaves the project,
// lexically or through a symlink, is refused as "outside the project"
// whether or not anything is there, before anything outside is looked at;
// a link's target is never named (Result.Outside lists the path as the
// script named it).
//
// Limits: the run is cancelled after Config.Timeout; the bytes and lines
// written to the top-level standard output and to every $(...) buffer
// ($(<file) included: it runs as $(cat <file)) count against one budget
// (MaxStdoutBytes, MaxStdoutLines), and crossing it stops the run;
// standard error keeps its first 64 KiB. What the run holds at once counts
// against one memory budget (Config.MaxMemory, 256 MiB by default): each
// command charges a file or standard input it reads whole before the
// buffer is allocated (and gives it back when done with it), its expanded
// arguments while it runs, sort its lines, and sed what it builds (its
// pattern and hold spaces, each substitution's matches and result, charged
// before they are allocated, so a replacement 500 times its match cannot
// take gigabytes); grep -o prints its matches as it finds them, within the
// output caps; crossing the budget stops
// the run with COMMAND_MEMORY_EXCEEDED. Task inputs larger than the budget
// are refused. A file read into memory is at most 256 MiB; grep -l, -L and
// -q scan the files of grep -r in chunks instead, so for them only a line
// is held to that. grep looks at the time limit between chunks of whole
// lines, and a regular expression call on 64 KiB or more runs where the
// limit can abandon it (RE2 cannot be interrupted; an abandoned call
// finishes alone, in time linear in its input), so a long match on a long
// line (a.{1,1000}x on 1 MB) stops near the limit; so do sed's addresses
// and substitutions.
//
// Guarantees: nothing is written anywhere (the only writable target is
// /dev/null), no process is started, and no byte from outside the project
// is read. Not guaranteed: memory is bounded by the budgets above up to
// small multiples (the interpreter's own copies of a $(...) result, a
// pipe's write buffers, a grep worker's buffer kept between files); CPU is bounded by the timeout, not by a quota; paths printed by a
// command are not checked here (the caller's path resolver does that);
// the names of files outside the project may still appear in error
// messages when a script names them.
//
// [Run] is safe for concurrent use; runs share nothing but Config.Root.
//
// A [Result] holds the records (lines, or NUL-terminated records when the
// output contains a NUL), each with the directory of the command that
// printed it, the exit status and whether a cap or the timeout stopped
// the run. [Result.Warnings] maps that to the stable codes COMMAND_FAILED,
// COMMAND_TIMEOUT and COMMAND_OUTPUT_TRUNCATED; [WarningFor] maps an error
// from [Run] to COMMAND_DENIED. A last command grep (or git grep) that
// exits 1 means "no match": an empty result, not a failure.
package shellexec
