// Package contextgen assembles the context document of one task: it resolves
// the task's file sources (literal paths and globs, restricted shell commands,
// description matches in the lexical index, and, in workflows, the files a step
// inherits), merges them into one ordered list without duplicates, reads each
// file through the project's path resolver, and renders the result as XML,
// Markdown or plain text.
//
// Guarantees:
//   - Every file comes from [project.Project.Read]: it lies inside the project
//     (by real path), passed the policy, and was read through the project's
//     os.Root. contextgen never opens a path itself.
//   - Sources are merged as an ordered union: literal, then command, then
//     description, then inherited, then fresh-context matches; duplicates (by
//     real path) keep their first provenance.
//   - Nothing is skipped silently: every candidate that is not included is
//     reported as a [Warning] with a stable code and, where known, its path.
//   - The XML style is well-formed XML 1.0 that a standard parser reads back;
//     file content is kept verbatim in CDATA sections, split around "]]>".
//     Characters XML 1.0 cannot carry are replaced by U+FFFD and counted in
//     the file's "replaced" attribute.
//
// contextgen writes nothing except, when asked, the token-count cache under
// the project's workspace.
package contextgen
