// Package template holds taskctl's task templates as Go types: it decodes a
// template file that the XSD accepted (package schema), checks the rules XML
// Schema cannot express, and substitutes {{var}} references.
//
// Guarantees:
//   - Parse never panics and never reads anything but the bytes it is given:
//     DOCTYPEs, entities other than the predefined five, and external
//     references are refused, and the element count is capped.
//   - Every problem Parse reports carries file:line:col; lines count from 1,
//     and columns count Unicode code points (runes) from 1.
//   - {{name}} is substituted in text only — description, instructions, path
//     values and description sources — and never inside <command>: commands
//     read inputs as shell variables, so a value can never become shell
//     syntax.
//
// The package imports only the standard library (no cgo).
package template
