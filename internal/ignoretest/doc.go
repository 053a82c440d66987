// Package ignoretest generates random trees of files and ignore files
// (nested .gitignore files and .git/info/exclude) from a seed, and asks the
// real git what it ignores in them: the reference for the differential
// tests of the ignore engine (package ignore, through project's walker)
// and of shellexec's git ls-files.
//
// A tree is a pure function of its seed, so a failing seed is a regression
// case. The patterns are drawn from the names the tree holds, bent by
// wildcards ("*", "?", "**", bracket expressions with ranges, negations
// and POSIX classes), escapes ("\*", "\#", "\!", "\ "), negations, anchors,
// directory-only slashes, comments, blank lines, trailing spaces and CRLF
// line ends, so that most of them match something.
//
// Guarantees: Write creates files only below the directory it is given;
// git runs with no system or global configuration and a home directory
// that does not exist, so the user's core.excludesFile never applies.
// Not guaranteed: coverage of every corner of git's wildmatch; file names
// never hold a backslash or a control character (the project walker skips
// those on purpose).
package ignoretest
