// Package sources resolves the file sources of one task into the
// candidates of its context document: literal paths and globs (through the
// project's resolver), the paths a restricted shell command prints
// (through the command package), description and fresh-context matches
// (through the lexical index of the memory package), and, in workflows,
// the files a step inherits from its parent. It reads no file's content
// but a match's best line, and runs nothing but the task's commands.
//
// Guarantees:
//   - Every candidate lies in the project: it is a project.Candidate the
//     resolver made (by real path, the path policy applied).
//   - Sources are merged as an ordered union: literal, then command, then
//     description, then inherited, then fresh-context matches; duplicates
//     (by real path) keep their first provenance.
//   - Nothing is left out silently: a candidate refused by its path alone
//     (a name holding a secret, the file the document is written to, a
//     generated file a glob selected) is a diag.Warning with a stable
//     code; a file Options.Exclude names is dropped without one (the user
//     asked).
//   - A match's reason shows its best line read through the project's
//     reader and, unless Options.AllowSecrets, with every secret the
//     scanner finds redacted.
//
// The package imports contextgen's floor only (command, memory, project,
// template, the content helpers); contextgen and contextgen/reading import
// it, never the reverse.
package sources
