package memory

import (
	"bytes"
	"path"
	"strings"
)

// Rules for long texts (bug reports, commit messages): what a candidate file
// is beside the project's code, and how a text names code against how the
// project names its files.

// suffixedNames returns, of a long text's class names that are no file's
// name (a CamelCase word of two parts or more: UnusedImports), those that
// lead the names of one or two code files by all their parts but the last
// (UnusedImportsCheck.java): a report names a check, a handler or a
// service by what it is about, and the project's class adds its role. A
// name that leads the names of more files names none of them.
func (st *state) suffixedNames(p parsed) map[string]bool {
	if !p.long {
		return nil
	}
	count := map[string]int{}
	for _, w := range p.words {
		if classLike(w.cased) && st.path.find(w.lower) == nil {
			count[w.lower] = 0
		}
	}
	if len(count) == 0 {
		return nil
	}
	// every file's name is asked about: first whether it begins as one
	// of the words does, which most names do not
	heads := map[[2]byte]bool{}
	for w := range count {
		heads[[2]byte{w[0], w[1]}] = true
	}
	for d, doc := range st.docs {
		base := doc.rel[strings.LastIndexByte(doc.rel, '/')+1:]
		if len(base) < 2 || !heads[[2]byte{base[0] | 0x20, base[1] | 0x20}] {
			continue
		}
		if st.dead[d] || defLangOf(doc.rel) == nil || isTest(doc.rel) {
			continue
		}
		if l := leadOf(doc.rel); l != "" {
			if n, ok := count[l]; ok {
				count[l] = n + 1
			}
		}
	}
	out := map[string]bool{}
	for w, n := range count {
		if n >= 1 && n <= 2 {
			out[w] = true
		}
	}
	return out
}

// suffixedSubject returns the long text's class name that the code file
// rel's name goes on from by one part (suffixedNames), or "".
func (p *parsed) suffixedSubject(rel string) string {
	if len(p.suffixed) == 0 || defLangOf(rel) == nil {
		return ""
	}
	if l := leadOf(rel); p.suffixed[l] {
		return l
	}
	return ""
}

// classLike reports whether w is spelled as a class's name of two parts or
// more: a capital first, a capital after a lower-case letter, letters and
// digits only (UnusedImports, not unusedImports or UNUSED).
func classLike(w string) bool {
	if len(w) < 6 || w[0] < 'A' || w[0] > 'Z' {
		return false
	}
	inner := false
	for i := 1; i < len(w); i++ {
		c := w[i]
		switch {
		case c >= 'A' && c <= 'Z':
			inner = inner || w[i-1] >= 'a' && w[i-1] <= 'z'
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
		default:
			return false
		}
	}
	return inner
}

// leadOf returns the parts of the name of the file rel but the last, as
// one lower-case word, when its name has three parts or more
// (UnusedImportsCheck.java: unusedimports), or "".
func leadOf(rel string) string {
	stem := path.Base(rel)
	if i := strings.IndexByte(stem, '.'); i > 0 {
		stem = stem[:i]
	}
	var parts []string
	for part := range nameParts(stem) {
		parts = append(parts, part)
	}
	if len(parts) < 3 {
		return ""
	}
	return strings.ToLower(strings.Join(parts[:len(parts)-1], ""))
}

// readAs returns what a long text's candidate rel, whose first bytes are
// data, is beside the project's code, or "": "comments only" for
// documentation in a code file's form (proseOnly), "generated code" for a
// file a tool writes (generatedCode). Either is demoted as documentation.
func readAs(rel string, data []byte) string {
	switch {
	case proseOnly(rel, data):
		return "comments only"
	case generatedCode(rel, data):
		return "generated code"
	}
	return ""
}

// proseOnly reports whether data, the code file rel, is documentation in a
// code file's form: comments only (clap's src/_tutorial.rs, all "//!"
// lines; Go's doc.go), beside declarations that hold no code (a package
// clause, imports, module declarations, attributes, includes). A file
// whose comments are the most of it but that has code is not.
func proseOnly(rel string, data []byte) bool {
	lang := defLangOf(rel)
	if lang == nil || roleOf(rel)&roleDoc != 0 || isExample(rel) {
		return false // not code, or demoted as documentation already
	}
	comments := 0
	for len(data) > 0 {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		_, rest := indentOf(line)
		switch {
		case len(rest) == 0:
		case lang.comment(rest):
			comments++
		case !holdsNoCode(rest):
			return false
		}
	}
	return comments >= proseMinComments
}

// proseMinComments is the comment lines a file must have to be read as
// documentation: a stub of a few lines is not.
const proseMinComments = 20

// noCodeStarts open the lines that declare and hold no code: a package
// clause, imports, module declarations, attributes, includes.
var noCodeStarts = []string{"package ", "import ", "use ", "pub use ", "mod ", "pub mod ", "extern crate ",
	"#!", "#[", "#include", "#pragma", "*/", "}"}

// holdsNoCode reports whether a line (after its indentation) declares and
// holds no code (noCodeStarts).
func holdsNoCode(rest []byte) bool {
	for _, s := range noCodeStarts {
		if bytes.HasPrefix(rest, []byte(s)) {
			return true
		}
	}
	return false
}

// generatedHead is how much of a file's start is read for a generator's
// mark.
const generatedHead = 2048

// generatedMarks say, in a file's first lines, that a tool wrote it: Go's
// "Code generated … DO NOT EDIT.", protoc's, an amalgamation's ("This file
// is an amalgamation of multiple different files", Catch2's and SQLite's),
// "@generated" (Facebook's tools), "This file is automatically
// generated". Said of the file: clap's help_template.rs, the "auto-generated
// help writer", writes what is generated.
var generatedMarks = []string{"do not edit", "don't edit", "shouldn't edit", "should not edit", "@generated",
	"is an amalgamation", "file is generated", "file was generated", "file is auto-generated", "file was auto-generated",
	"file is autogenerated", "file was autogenerated", "file is automatically generated",
	"file was automatically generated"}

// generatedCode reports whether the file rel, whose first bytes are
// data, says in the comments that head it that a tool wrote it
// (generatedMarks): in its comment lines before its first line of code,
// as Go's convention for "Code generated … DO NOT EDIT." has it. Below
// the first line of code the same words are said of another file: a
// generator writes them into its output (eslint's update-eslint-all.js),
// a comment names a file that is generated ("that file is
// auto-generated"). A file in no language defLangOf knows is read by its
// first bytes alone.
func generatedCode(rel string, data []byte) bool {
	head := data[:min(len(data), generatedHead)]
	if lang := defLangOf(rel); lang != nil {
		head = leadingComments(lang, head)
	}
	head = asciiLower(head)
	for _, m := range generatedMarks {
		if bytes.Contains(head, []byte(m)) {
			return true
		}
	}
	return false
}

// leadingComments returns the start of data up to its first line that is
// neither blank nor a comment of lang, the inner lines of a block
// comment ("/*" to "*/") counting as comment lines.
func leadingComments(lang *defLang, data []byte) []byte {
	rest, inBlock := data, false
	for len(rest) > 0 {
		line, next, _ := bytes.Cut(rest, []byte("\n"))
		_, text := indentOf(line)
		switch {
		case inBlock:
			inBlock = !bytes.Contains(text, []byte("*/"))
		case len(text) == 0:
		case lang.comment(text):
			inBlock = bytes.HasPrefix(text, []byte("/*")) && !bytes.Contains(text[2:], []byte("*/"))
		default:
			return data[:len(data)-len(rest)]
		}
		rest = next
	}
	return data
}

// docNoted is the part of a file's match left by its doc comments
// (bestUnit) below which the demotion is noted.
const docNoted = 0.9

// demotedAsDoc reports whether a long text demotes rel as documentation
// already, whatever its lines: documentation or example code, or a file in
// no language whose comments are known.
func demotedAsDoc(rel string) bool {
	return defLangOf(rel) == nil || roleOf(rel)&roleDoc != 0 || isExample(rel)
}

// docLines flags the lines of data, the code file rel, that are doc
// comments: a block opened by "/**" (Javadoc, JSDoc, KDoc, Doxygen), lines
// opened by "///" or "//!" (Rust, C#, Doxygen), and Python's docstrings (a
// line that opens with three quotes). They are the API's documentation,
// kept beside the code: a Rust crate's "//!" lines are its README
// (async-trait's src/lib.rs, 300 lines of them above the macro that calls
// the expansion), a class's Javadoc its manual, and a report's words match
// them as they match the docs, which a long text demotes, more than the
// code the report is about. Other comments ("// the cache is cleared
// first", "# see below") say how the code works, beside it, and stay code.
func docLines(rel string, data []byte) []bool {
	lang := defLangOf(rel)
	var out []bool
	inBlock, inString := false, ""
	for rest := data; len(rest) > 0; {
		line, next, _ := bytes.Cut(rest, []byte("\n"))
		rest = next
		_, text := indentOf(line)
		doc := false
		switch {
		case inBlock:
			doc = true
			inBlock = !bytes.Contains(text, []byte("*/"))
		case inString != "":
			doc = true
			inString = endsString(text, inString, 0)
		case len(text) == 0:
		case bytes.HasPrefix(text, []byte("///")) || bytes.HasPrefix(text, []byte("//!")):
			doc = true
		case bytes.HasPrefix(text, []byte("/**")):
			doc = true
			inBlock = !bytes.Contains(text[3:], []byte("*/"))
		default:
			if q := lang.docString(text); q != "" {
				doc = true
				inString = endsString(text, q, len(q))
			}
		}
		out = append(out, doc)
	}
	return out
}

// endsString returns q, the quotes of a docstring open before the line
// text, or "" when text closes it (after its first skip bytes, the
// opening quotes of a docstring that opens on the line).
func endsString(text []byte, q string, skip int) string {
	if bytes.Contains(text[skip:], []byte(q)) {
		return ""
	}
	return q
}
