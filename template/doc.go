// Package template holds taskctl's task templates as Go types: it decodes a
// template file that the XSD accepted (package schema), checks the rules XML
// Schema cannot express, and substitutes {{var}} references.
//
// Parse decodes a file and checks it. Every element and attribute of
// schema/taskctl.xsd becomes a field; a field the template left out keeps
// its zero value, and ContextSpec keeps pointers so that EffectiveContext
// can merge what the template said over the defaults of the task's type.
// The checks, each reported with its position, all of them at once:
//   - task names are unique in a file, steps included;
//   - the source attribute of <file_paths> matches its child (literal holds
//     <path>, command <command>, description <description>), and limit and
//     min_score appear only on description sources, include and exclude only
//     on command and description sources, each of their globs well formed
//     and relative to the project (not absolute, not ./ or ../), since they
//     match project-relative paths;
//   - fresh_context=enabled only with inherit_context=none, on the merged
//     settings;
//   - every {{var}} in text (description, instructions, path values,
//     description sources, input defaults) names an input of its task or of
//     a sequential task around it, and no default leads back to its own
//     input;
//   - no {{...}} inside <command>: commands read inputs as shell variables;
//   - steps only on sequential tasks, a sequential task has steps, and tasks
//     nest at most MaxDepth deep;
//   - input names are well formed and unique within a task; an input's from
//     is STEP.output, STEP.files, STEP.notes.KEY… or STEP.parsed.a.b…,
//     where STEP finishes before the task starts (an earlier sibling, or an
//     earlier step of a sequential task around it, or a step inside one);
//     an input has from or default, never both (a bound input takes its
//     value from the step; a default would hide a broken binding);
//   - numbers are what the XSD says, and max_lines is not 0.
//
// What is allowed but probably wrong is a warning, in File.Warnings, with a
// stable Code: EMPTY_CONTEXT (an atomic task that inherits nothing,
// accumulates nothing, has fresh context disabled and no file_paths; a step
// whose enclosing sequential task accumulates and that comes after another
// step sees those steps' results, so it is not warned about) and
// CONTEXT_UNUSED_SETTING (accumulation_format with accumulate_data false).
//
// Guarantees:
//   - Parse never panics and never reads anything but the bytes it is given:
//     DOCTYPEs, entities other than the predefined five, and external
//     references are refused, and the element count is capped.
//   - A file is UTF-8, with or without a byte-order mark, or UTF-16LE or
//     UTF-16BE with one; internal/xmltext decodes it, as it does for package
//     schema, and refuses what it cannot decode with a positioned problem.
//   - Every problem Parse reports carries file:line:col. Lines count from 1;
//     columns count Unicode code points (runes) from 1, a leading byte-order
//     mark not counted — as package schema counts them, and the same in
//     every encoding. A problem with an
//     attribute points at the attribute's name, a {{var}} at its "{{" (also
//     inside an attribute value, through references, CDATA and comments),
//     anything else at the '<' of its element. Problems come sorted by
//     position.
//   - {{name}} (spaces allowed inside the braces) is substituted by Bind in
//     text only — description, instructions, path values and description
//     sources — and never inside <command>: commands read inputs as shell
//     variables (Task.Vars), so a value can never become shell syntax. A
//     substituted value is not itself substituted again.
//   - Bind returns a deep copy and never changes the task it is called on.
//
// The package imports only the standard library and internal/xmltext (no
// cgo).
package template
