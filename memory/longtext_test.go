package memory_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/taskctl/taskctl/memory"
)

// searchLong ranks root's files for a long text, reading them as the
// command line does (units, and what a file is beside code).
func searchLong(t *testing.T, root, text string) []memory.Match {
	t.Helper()
	ix, _ := build(t, root)
	return ix.Search(text, memory.SearchOptions{Source: memory.DirSource(root)})
}

// noted returns the match for rel in ms, failing t when there is none.
func matchOf(t *testing.T, ms []memory.Match, rel string) memory.Match {
	t.Helper()
	for _, m := range ms {
		if m.Rel == rel {
			return m
		}
	}
	t.Fatalf("%s not among %v", rel, rels(ms))
	return memory.Match{}
}

// A Rust module of "//!" lines only (clap's src/_tutorial.rs) is the
// project's documentation in a code file's form, and has every word of a
// report about the parser it documents: in a long text it is demoted as
// documentation is.
func TestCommentsOnlyCodeIsDocumentation(t *testing.T) {
	var doc strings.Builder
	doc.WriteString("#![doc = include_str!(\"../examples/demo.md\")]\n")
	for range 12 {
		doc.WriteString("//! A subcommand's arguments are parsed after the subcommand's name; an argument\n")
		doc.WriteString("//! that takes a value reads the next argument unless it starts with a hyphen.\n")
	}
	doc.WriteString("\npub mod chapter;\npub use crate::parser;\n")
	root := writeTree(t, withFiller(map[string]string{
		"src/_tutorial.rs": doc.String(),
		"src/parser.rs": "/// Parses a subcommand's arguments.\npub fn parse_subcommand(args: &[String]) -> usize {\n" +
			"    let mut n = 0;\n    for arg in args {\n        if arg.starts_with('-') {\n            n += 1;\n        }\n    }\n    n\n}\n",
	}))
	ms := searchLong(t, root, "A subcommand's argument that takes a value is parsed as a flag\n\n"+
		"When a subcommand has an argument that takes a value and the value starts with a hyphen, the parser "+
		"reads the value as the next argument, and the subcommand fails with an error about an unknown flag.")
	if got := rels(ms); len(got) < 2 || got[0] != "src/parser.rs" {
		t.Errorf("ranked %v, want src/parser.rs first", got)
	}
	if m := matchOf(t, ms, "src/_tutorial.rs"); !slices.Contains(m.Reason.Notes, "comments only demoted") {
		t.Errorf("src/_tutorial.rs notes %v, want comments only demoted", m.Reason.Notes)
	}
}

// A crate's root documents the crate in "//!" lines, with examples in the
// users' words; the report's words match them, but the code it is about is
// in the module the root's macro calls. Doc comments count as
// documentation in a long text; other comments are code's.
func TestDocCommentsAreDocumentation(t *testing.T) {
	var root strings.Builder
	for range 6 {
		root.WriteString("//! An async fn in a trait returns a boxed future; the lifetimes of its arguments are\n")
		root.WriteString("//! elided into one lifetime that the future captures, with the receiver's.\n")
	}
	root.WriteString("\nmod expand;\n\n#[proc_macro_attribute]\npub fn async_trait(args: TokenStream, input: TokenStream) -> TokenStream {\n" +
		"    expand::expand(args, input)\n}\n")
	expand := "// Rewrites each async fn of a trait: every elided lifetime of an argument gets a name of its own.\n" +
		"pub fn expand(args: TokenStream, input: TokenStream) -> TokenStream {\n" +
		"    let receiver_lifetime = receiver_lifetime(&input);\n    let mut elided = elided_lifetimes(&input);\n" +
		"    for argument in async_fn_arguments(&input) {\n        elided.push(name_elided_lifetime(argument));\n    }\n" +
		"    future_captures(receiver_lifetime, elided, boxed_future(input))\n}\n"
	tree := writeTree(t, withFiller(map[string]string{"src/lib.rs": root.String(), "src/expand.rs": expand}))
	ms := searchLong(t, tree, "Elided lifetimes of arguments in an async fn of a trait\n\n"+
		"An async fn whose arguments have elided lifetimes fails to compile: the future captures the "+
		"lifetime of the receiver and of each argument, and the expansion names only one lifetime.")
	if got := rels(ms); len(got) < 2 || got[0] != "src/expand.rs" {
		t.Errorf("ranked %v, want src/expand.rs first", got)
	}
	if m := matchOf(t, ms, "src/lib.rs"); !slices.Contains(m.Reason.Notes, "doc comments demoted") {
		t.Errorf("src/lib.rs notes %v, want doc comments demoted", m.Reason.Notes)
	}
	if m := matchOf(t, ms, "src/expand.rs"); slices.Contains(m.Reason.Notes, "doc comments demoted") {
		t.Errorf("src/expand.rs notes %v: its comment is no doc comment", m.Reason.Notes)
	}
	// a short request is not a long text: doc comments stay the file's
	ms = searchLong(t, tree, "elided lifetimes of an async fn")
	if m := matchOf(t, ms, "src/lib.rs"); slices.Contains(m.Reason.Notes, "doc comments demoted") {
		t.Errorf("short request: src/lib.rs notes %v, want no doc comments demoted", m.Reason.Notes)
	}
}

// An amalgamation (Catch2's extras/catch_amalgamated.cpp) or a file a
// generator wrote holds the code a report is about, but the project's
// change is in the source it was made from.
func TestGeneratedCodeIsNotTheSource(t *testing.T) {
	code := "int wrap_text(const char* text, int width) {\n    int lines = 0;\n    /* ANSI escape sequences take no columns */\n" +
		"    for (; *text; text++) {\n        if (*text == '\\033') { continue; }\n        lines++;\n    }\n    return lines;\n}\n"
	root := writeTree(t, withFiller(map[string]string{
		"src/textflow.cpp": code,
		"extras/all.cpp": "//  This file is an amalgamation of multiple different files.\n" +
			"//  You probably shouldn't edit it directly.\n" + strings.Repeat(code, 2),
	}))
	ms := searchLong(t, root, "Handle ANSI escape sequences when wrapping text\n\n"+
		"Text with ANSI escape sequences is wrapped too early: wrap_text counts the escape sequences as columns of "+
		"the width, so that coloured text breaks into more lines than the same text without colours.")
	if got := rels(ms); len(got) < 2 || got[0] != "src/textflow.cpp" {
		t.Errorf("ranked %v, want src/textflow.cpp first", got)
	}
	if m := matchOf(t, ms, "extras/all.cpp"); !slices.Contains(m.Reason.Notes, "generated code demoted") {
		t.Errorf("extras/all.cpp notes %v, want generated code demoted", m.Reason.Notes)
	}
}

// A long text's name spelled with hyphens ('object-curly-newline') names
// the file named so; one in snake_case (class_weight="balanced") is a
// parameter as often as a module, and names none.
func TestKebabNamesNameFiles(t *testing.T) {
	root := writeTree(t, withFiller(map[string]string{
		"lib/rules/object-curly-newline.js": "module.exports = { create(context) { return { ObjectExpression(node) { context.report(node); } }; } };\n",
		"lib/rules/brace-style.js":          "module.exports = { create(context) { return { BlockStatement(node) { context.report(node, 'brace'); } }; } };\n",
		"sklearn/utils/class_weight.py":     "def compute_class_weight(class_weight, classes, y):\n    return class_weight\n",
		"sklearn/ensemble/forest.py": "def fit(X, y, class_weight=None, bootstrap=True):\n    if class_weight == 'balanced_subsample' and bootstrap:\n" +
			"        return subsample(y)\n    return y\n",
	}))
	named := func(ms []memory.Match, rel string) bool {
		return slices.ContainsFunc(matchOf(t, ms, rel).Reason.Notes, func(n string) bool { return strings.HasPrefix(n, "named after") })
	}
	ms := searchLong(t, root, "Crash in object-curly-newline with an empty object\n\n"+
		"With the configuration 'object-curly-newline': ['error', 'always'] the rule reports an error on an empty "+
		"object expression and the fix it offers leaves the braces where they were, so the report comes back every run.")
	if !named(ms, "lib/rules/object-curly-newline.js") {
		t.Errorf("object-curly-newline.js is not named after the rule's name")
	}
	ms = searchLong(t, root, "Forest with class_weight balanced_subsample ignores bootstrap\n\n"+
		"Fitting the forest with class_weight='balanced_subsample' and bootstrap=False still computes the weights "+
		"per subsample, as if bootstrap were on; the class weights should be computed once on the whole sample.")
	if slices.Contains(matchOf(t, ms, "sklearn/utils/class_weight.py").Reason.Notes, "named after classweight") {
		t.Errorf("class_weight.py is named after a parameter's name")
	}
}

// A report names a check by what it checks (UnusedImports) and the
// project's class adds its role (UnusedImportsCheck.java): the class is
// named after the report's name when one or two files' names go on from
// it so, and no file is named so itself.
func TestClassNamesWithARoleSuffix(t *testing.T) {
	check := func(name string) string {
		return "package checks;\n\npublic class " + name + " extends AbstractCheck {\n    public void visitToken(DetailAST ast) {\n" +
			"        log(ast, \"import\");\n    }\n}\n"
	}
	root := writeTree(t, withFiller(map[string]string{
		"src/checks/UnusedImportsCheck.java":       check("UnusedImportsCheck"),
		"src/checks/UnusedLocalVariableCheck.java": check("UnusedLocalVariableCheck"),
		"src/checks/AvoidStarImportCheck.java":     check("AvoidStarImportCheck"),
		"src/TreeWalker.java": "package checks;\n\npublic class TreeWalker {\n    // walks the tree of every import and visits each token for the checks\n" +
			"    void walk(DetailAST ast) { for (AbstractCheck c : checks) { c.visitToken(ast); } }\n}\n",
	}))
	ms := searchLong(t, root, "UnusedImports error if there are only array references to a given class\n\n"+
		"An import used only in an array reference is reported as unused: UnusedImports does not visit the token "+
		"of the array's type when it walks the tree, so the import is logged although the class uses it.")
	m := matchOf(t, ms, "src/checks/UnusedImportsCheck.java")
	if !slices.Contains(m.Reason.Notes, "named after unusedimports") {
		t.Errorf("UnusedImportsCheck.java notes %v, want named after unusedimports (ranked %v)", m.Reason.Notes, rels(ms))
	}
	if got := rels(ms); got[0] != "src/checks/UnusedImportsCheck.java" {
		t.Errorf("ranked %v, want UnusedImportsCheck.java first", got)
	}
}

// A V8 stack trace (Node.js's) lists its frames innermost first, as a
// JVM's does; the innermost frame in the project is where the error
// surfaced, not the event loop's frames that called it, and Node's own
// modules (events.js) are no files of the project.
func TestV8StackTraceInnermostFrame(t *testing.T) {
	rule := "module.exports = { create(context) { return { ObjectPattern(node) { checkDestructured(node); } }; } };\n" +
		"function checkDestructured(node) { return node.properties.map(p => p.key.name); }\n"
	emitter := "class EventGenerator { enterNode(node) { this.emitter.emit(node.type, node); } }\nmodule.exports = EventGenerator;\n"
	root := writeTree(t, withFiller(map[string]string{
		"lib/rules/no-useless-rename.js":      rule,
		"lib/util/node-event-generator.js":    emitter,
		"lib/util/comment-event-generator.js": strings.ReplaceAll(emitter, "EventGenerator", "CommentEventGenerator"),
		"lib/code-path/code-path-analyzer.js": strings.ReplaceAll(emitter, "EventGenerator", "CodePathAnalyzer"),
		"lib/events.js":                       "module.exports = function emitOne(handler, self) { handler.call(self); };\n",
	}))
	report := "Crash on a destructured parameter\n\nLinting a function whose parameter is destructured with a default " +
		"crashes with the trace below:\n\n```\nTypeError: Cannot read property 'name' of undefined\n" +
		"    at EventEmitter.checkDestructured (/Users/me/ux/node_modules/eslint/lib/rules/no-useless-rename.js:96:26)\n" +
		"    at emitOne (events.js:95:20)\n" +
		"    at EventEmitter.emit (events.js:182:7)\n" +
		"    at NodeEventGenerator.enterNode (/Users/me/ux/node_modules/eslint/lib/util/node-event-generator.js:40:22)\n" +
		"    at CodePathAnalyzer.enterNode (C:\\ux\\node_modules\\eslint\\lib\\code-path\\code-path-analyzer.js:607:23)\n" +
		"    at CommentEventGenerator.enterNode (/Users/me/ux/node_modules/eslint/lib/util/comment-event-generator.js:97:23)\n```\n"
	ms := searchLong(t, root, report)
	checkOnlyNoted(t, ms, "innermost traceback frame in the project", "lib/rules/no-useless-rename.js")
	if got := rels(ms); got[0] != "lib/rules/no-useless-rename.js" {
		t.Errorf("ranked %v, want lib/rules/no-useless-rename.js first", got)
	}
}

// Doc comments are the lines of Javadoc's and Rust's doc comments and
// Python's docstrings; other comments, attributes and code are not.
func TestDocLines(t *testing.T) {
	for _, tc := range []struct {
		rel, src string
		want     []bool
	}{
		{"A.java", "/**\n * Parses.\n */\n@Override\n// a note\nint parse() { return 0; }\n/** One line. */\nint x;\n",
			[]bool{true, true, true, false, false, false, true, false}},
		{"lib.rs", "//! The crate.\n#![doc = \"x\"]\n/// A fn.\n#[inline]\nfn f() {}\n/* plain\n block */\n",
			[]bool{true, false, true, false, false, false, false}},
		{"m.py", "\"\"\"Module.\n\nMore.\n\"\"\"\n# a note\ndef f():\n    '''One line.'''\n    return 1\n",
			[]bool{true, true, true, true, false, false, true, false}},
		// no language known: its comment markers still count, no docstrings
		{"notes.txt", "\"\"\"Quoted.\n/** Marked. */\n", []bool{false, true}},
	} {
		if got := memory.DocLines(tc.rel, []byte(tc.src)); !slices.Equal(got, tc.want) {
			t.Errorf("%s: doc lines %v, want %v", tc.rel, got, tc.want)
		}
	}
}
