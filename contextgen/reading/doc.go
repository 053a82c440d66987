// Package reading reads the candidates of a context document (what
// contextgen/sources resolved) through the project's confined reads and
// decides what of each the document admits: the memory bound of the
// whole (Admit, by size on disk, before anything is read), and per file
// the content policy (root.JudgeContent: binary, encoding, secrets), a
// document taskctl rendered earlier, and the <path>'s line and byte caps.
//
// Guarantees:
//   - Every file comes from root.Root.ReadInto (Project.Confined): it lies inside the
//     project (by real path), passed the policy, and was read beneath the
//     project's root. reading never opens a path itself.
//   - A file is admitted, listed without its text (a binary file), or left
//     out; every reason is a diag.Warning with a stable code and its path.
//     A file holding a secret is left out unless the secrets are redacted
//     (then each is replaced) or allowed; its warnings name the rule and
//     the line, never the secret.
//   - What is cut is marked in the text with a "[taskctl: truncated: …]"
//     line.
//
// reading knows nothing of rendering or tokens: contextgen escapes,
// renders and counts what it returns. It imports contextgen/sources (the
// candidate type) and contextgen's floor.
package reading
