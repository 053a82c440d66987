// Package ignore decides whether a path is ignored by the .gitignore
// family of files, and says which rule decided: the file, the line and the
// pattern as written (Rule.String gives "FILE:LINE: PATTERN"). It is the
// matcher of ripgrep's ignore crate without the walker: project's walker
// and globs, Project.Ignored and shellexec's git ls-files and git status
// all use it.
//
// # Guarantees
//
//   - No I/O. The package opens, stats and reads nothing: ParseRules reads
//     the bytes it is given, a Stack matches the rules pushed on it, and a
//     Matcher gets each ignore file's content from the ReadFunc its caller
//     hands it (for a project, one that reads below the project's root).
//     Which file is read, how it is confined and how large it may be
//     (MaxFileBytes) is the caller's decision, made once.
//   - Git's semantics, byte by byte: wildmatch patterns ("*", "?", "[...]"
//     with POSIX classes, "**" as a whole component, "\" escapes), "!"
//     negation, "/" anchoring and a trailing "/" for directories. The deeper
//     file wins, .taskctlignore over .gitignore in one directory, the last
//     matching line within a file; a directory that is ignored cannot have
//     anything inside it re-included (Matcher.Match checks every ancestor,
//     as git does). project's TestIgnoreDifferential compares the decisions
//     with git check-ignore and git ls-files on generated trees.
//   - A bad pattern line is a partial error: it is skipped and reported
//     (*PatternError, Matcher.Errors) and the other lines still apply. An
//     ignore file that cannot be read is reported and contributes no rules.
//     Nothing here panics on any input (FuzzParseRules).
//   - A Matcher is safe for concurrent use; a Stack is immutable.
//
// # Not guaranteed
//
//   - The global core.excludesFile is not read (what taskctl sees must not
//     depend on the user's home directory), nor any other git
//     configuration (core.ignoreCase: matching is case-sensitive).
//   - The rules that are taskctl's and not git's (.git/ and .taskctl/ always
//     left out, node_modules/, the policy's Exclude patterns) are applied by
//     project, before this package is asked.
//   - A Matcher keeps the rules it has read until Forget, ForgetUnder or
//     ForgetDir: it does not notice an ignore file that changes meanwhile.
package ignore
