// Package contextgen assembles the context document of one task: it resolves
// the task's file sources (literal paths and globs, restricted shell commands,
// description matches in the lexical index, and, in workflows, the files a step
// inherits), merges them into one ordered list without duplicates, reads each
// file through the project's path resolver, and renders the result as XML,
// Markdown or plain text. [List] stops before the reads: the files the
// sources select, with what selected them (what --paths prints).
//
// Each capability is a package of its own, and contextgen composes them:
// contextgen/sources resolves the sources into candidates,
// contextgen/reading reads them and admits their content,
// contextgen/budget decides what fits a token budget, and
// contextgen/tokens counts. What stays here is the document: each file's
// text escaped for a terminal and prepared for XML, the token counts of
// content and markup (read and counted on all cores), the list of files
// left out, and rendering (render.go, header.go).
//
// Guarantees:
//   - Every file comes from [root.Root.Read] (Project.Confined): it lies inside the project
//     (by real path), passed the policy, and was read through the project's
//     os.Root. contextgen never opens a path itself.
//   - Sources are merged as an ordered union: literal, then command, then
//     description, then inherited, then fresh-context matches; duplicates (by
//     real path) keep their first provenance.
//   - Nothing is skipped silently: every candidate that is not included is
//     reported as a [diag.Warning] with a stable code and, where known, its path.
//   - What a command may say about a file's content: only the paths of the
//     project it prints. A line of its output that is not one (no such
//     file, not a path, outside) may be text it read (cat, grep without -l,
//     tr, cut): it is one warning that gives its line number and, if the
//     output scanned as one document holds a secret there, the rule as a
//     [REDACTED:rule] marker, never its text, whole or in part. Lines that
//     are paths of the project the policy refuses are quoted (names the
//     project holds). A command's error messages name its operands, which
//     xargs can take from a file: once a command of the run read a file's
//     content, standard error is counted, not quoted (with the markers of
//     the secrets in it); otherwise it is scanned whole and its secrets
//     redacted before a warning quotes its head. Both kinds of lines are
//     quoted as before when the policy allows sensitive files. Tracing
//     (set -x) is denied. A file whose path holds a secret is left out
//     (SECRET_DETECTED), its path redacted.
//   - The rendered document itself lists the files left out, by path and
//     warning code (never their content), after the files: an <omitted>
//     element of <omitted_file path="…" code="…"/> in XML, a "Left out"
//     section in Markdown, a "==> left out <==" list in plain text. Under a
//     budget the list gives way to content: as many entries are listed as
//     fit, then how many more there are. The JSON form is unchanged (its
//     warnings name every file).
//   - The XML style is well-formed XML 1.0 that a standard parser reads back;
//     file content is kept verbatim in CDATA sections, split around "]]>".
//     Characters XML 1.0 cannot carry are replaced by U+FFFD and counted in
//     the file's "replaced" attribute.
//   - What would act on a terminal or reorder the text is shown escaped,
//     in every style, when a file is read (neutralise): C0 controls and
//     DEL as \xHH in the markdown and plain styles, a lone carriage return
//     in every style, C1 and bidirectional controls as \uHHHH in every
//     style. A path holding a character that is not printed as itself is
//     quoted (strconv.Quote) wherever the document names it.
//   - In the markdown style a path holding a control character is quoted
//     (strconv.Quote) in a file's "## " heading and in the "Left out" list,
//     so that a file name cannot start a heading of its own.
//   - In the plain style a line that starts with "==>" is always taskctl's:
//     a file's header (its path, and its token count, truncation or binary
//     note in parentheses) or the heading of the list of files left out. A
//     line of content that starts with "==>" after any number of
//     backslashes is written with one more backslash in front (a line
//     starts after "\n" and after any other break a reader may split at:
//     "\r", VT, FF, FS, GS, RS, NEL, U+2028, U+2029), and a path holding a
//     control character is quoted (strconv.Quote). The budget counts a
//     file with such lines as rendered, escapes and all.
//   - Subset inheritance keeps the parent files the index ranks relevant
//     to the step's description. A parent file the index does not hold (an
//     explicitly named ignored file, one newer than the index) is scored
//     directly, by the share of the description's terms its path and text
//     hold, and kept if it holds any. Every parent file left out is an
//     INHERIT_NOT_RELEVANT warning.
//   - A description, fresh or subset match carries the index's reason with
//     its best-matching line, as `taskctl search` shows it. That line is read
//     through the path resolver and, unless Options.AllowSecrets, with every
//     secret the scanner finds redacted: a reason never shows a secret.
//   - Token counts (with a counter): each file's count is its content's;
//     the document's total (Totals.Tokens, the tokens attribute of
//     <context>, the totals line of markdown and plain) counts the whole
//     document in the style it is assembled for (Options.Style): the
//     content, the tag or heading around each file with its path and facts,
//     and the header and footer. Totals.ContentTokens is the content alone.
//     The parts are counted one by one, so the total can differ from a count
//     of the rendered text by a token where a part's end and the next
//     part's start would merge (a few tokens in 200,000 on net/http).
//   - The budget (Options.MaxTokens) bounds that whole document: a file
//     costs its content and its markup, and the header, the footer and the
//     shortest form of the list of files left out are counted first. Whole files are dropped: literal files are kept first,
//     then command results, then the rest by score; each dropped file is a
//     BUDGET_EXCEEDED warning with its token counts.
//
// contextgen writes nothing except, when asked, the token-count cache under
// the project's workspace.
package contextgen
