// Package lazyregexp is a regular expression compiled at its first use, for
// package-level expressions: a variable initialised with
// regexp.MustCompile is compiled when the program starts, whether or not
// the command that runs uses it, and every command pays for them all. (The
// Go command keeps a package of the same name for the same reason.)
//
// An expression that does not compile still panics, at its first use: the
// sources are constants of the program, and each package's tests use them.
package lazyregexp
