// Package diag is taskctl's one diagnostics vocabulary: the stable codes
// of every warning and error a user sees, the one [Warning] shape, and the
// one positioned [Problem].
//
// Guarantees:
//   - Every code taskctl gives a user is a [Code] constant declared in this
//     package, once, with a one-line description; [Codes] lists them all, in
//     the order of the tables in docs/codes.md. No other package spells a
//     code: a test scans the sources for code literals and checks the
//     tables of docs/codes.md against [Codes] in both directions.
//   - Codes are stable: a code is never renamed or given another meaning;
//     scripts match on them.
//   - A [Warning]'s Path is absolute, with one exception: an input that has
//     no absolute form (a NUL byte, a backslash, a Windows drive) is kept
//     raw in Path by the path resolver, and the CLI moves it, quoted, into
//     Message. What a user sees is an absolute path or none.
//   - A [Problem]'s Line and Col are 1-based (Col counts Unicode code
//     points), or both 0 when the problem has no position in File.
//
// The JSON shapes are those of the CLI's envelope: a warning is
// {"code", "message", "path"?}, a problem {"file", "line", "col",
// "message"} (with "code" only when it has one).
//
// diag imports nothing of taskctl's; every package may import it.
package diag
