package memory

import (
	"bytes"
	"cmp"
	"path"
	"slices"
	"strings"
	"sync"
	"unsafe"
)

// Definitions. Each indexed file of a known language also records the
// names it defines (classes, functions, methods, types, constants), as
// terms of the text dictionary spelled defPrefix + the lower-case name,
// with their count in the identifier frequency and none in the field
// lengths: a method is recorded both bare ("@bulk_create") and qualified
// by its enclosing class or receiver ("@queryset.bulk_create"). A query's
// evidence (a traceback frame, a dotted name, an identifier) is looked up
// there, so that the file that defines a name ranks above the many that
// only use it.
//
// The definitions are found by a line scanner per language, from the
// tables below: no parser of each language, but the shapes that well-kept
// code gives definitions. A line is read after its indentation and its
// modifiers ("export", "public static", "async"); a keyword of the
// language then introduces the name that follows it. Scopes (a class, a
// Rust impl, a Ruby module) qualify the definitions indented deeper than
// them, until a line indented no deeper closes them.

// defPrefix starts the definition terms of the text dictionary: no word
// term holds it, as words are split on it.
const defPrefix = "@"

// defKind is what a keyword introduces.
type defKind uint8

const (
	defName    defKind = iota + 1 // a function, type or constant: the next name
	defScope                      // a class-like scope: the next name, which qualifies the definitions inside it
	defImpl                       // a Rust impl: its type (after "for" if any) qualifies what it holds
	defRecv                       // a Go func: a receiver's type qualifies the name
	defBlock                      // Go's const, var, type: a name, or a parenthesised block of names
	defAssign                     // a JavaScript const/let/var: the name, when a function or class is assigned
	defMacro                      // C's #define: the next name
	defTypedef                    // C's typedef: the last name before the semicolon
	defLast                       // C#'s delegate and event, Dart's typedef: the last name before "(", ";", "{" or "="
	defPath                       // Lua's and Julia's function, Kotlin's fun: a name that may be a path ("M.f", "M:f", "Type.f"), its last part the name, the part before its scope
	defModule                     // Elixir's defmodule: a scope named by the last part of a dotted name ("Plug.Conn" is Conn)
	defTop                        // Kotlin's val, Swift's var, OCaml's let: a name, only at the top level or among a scope's members (not a local one)
	defZig                        // Zig's const and var: a scope when a type is assigned ("const Pool = struct {")
	defImplFor                    // Elixir's defimpl: a scope named by the module after "for:", or the enclosing one; it defines no name
)

// defLang is a language's definition shapes.
type defLang struct {
	keywords  map[string]defKind
	modifiers map[string]bool // words that may come before a keyword
	// calls: a line "[type words] name(…)" not ending in ';' defines name
	// (C, C++, Java, C#: definitions without a keyword), inside a scope
	// only when scoped is set.
	calls, scopedCalls bool
	// constants: an upper-case NAME assigned at the start of a line is a
	// constant (Python, Ruby: at the top level or in a class).
	constants bool
	// prototypes: a call's shape that ends before a body opens is a
	// declaration (C, C++: see declaration)
	prototypes bool
	// abstracts: a member of the call's shape that ends in ';' is a
	// definition, an interface's or abstract class's method (C#, Dart)
	abstracts bool
	// attributes: a line's leading "@name" or "@name(…)" words are read
	// past, as modifiers (Swift's @discardableResult public func)
	attributes bool
	// bareDef reads a member line that starts with no keyword for the
	// name it defines, in a language whose definitions have none
	// (Haskell's "name :: Type", Erlang's "name(Args) ->", R's "name <-
	// function"): the name and its scope, or "".
	bareDef func(rest []byte) (name, qual string)
	// clauses: a definition written as consecutive clauses of one name
	// (Erlang, Elixir, Haskell) is one definition
	clauses bool
	// continues are the words that open a line continuing a
	// definition's header: Java's "implements" under "class Foo extends
	// Bar", Scala's "with" (indented deeper than the class's members, such
	// a line was taken for the first of them)
	continues map[string]bool
	comments  []string // line comment openers, whose lines are skipped
	// blocks are the openers and closers of block comments and
	// multi-line strings whose lines are skipped (Haskell's "{-" "-}",
	// Elixir's and Swift's `"""`): a documentation's example of a
	// definition is none
	blocks [][2]string
	// docStrings: a string literal that opens a line with triple quotes
	// is documentation (Python's docstrings)
	docStrings bool

	// the first bytes of the keywords and modifiers, and of the comment
	// openers (made by newDefLangs from them)
	starts, commentStarts [256]bool
}

// bare reports whether a line that starts with c, no keyword's or
// modifier's first byte, may still define a name: one of its members
// shaped as a constant or a function without a keyword, where the
// language has them (see line). Most lines of code do not.
func (l *defLang) bare(c byte, indent int, qual string, member bool) bool {
	return member && (l.constants && (c == '_' || c >= 'A' && c <= 'Z') || l.calls && indent == 0 || l.scopedCalls && qual != "" ||
		l.bareDef != nil)
}

func wordSet(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

func kindSet(s string, k defKind) map[string]defKind {
	m := map[string]defKind{}
	for _, w := range strings.Fields(s) {
		m[w] = k
	}
	return m
}

func mergeKinds(ms ...map[string]defKind) map[string]defKind {
	out := map[string]defKind{}
	for _, m := range ms {
		for k, v := range m {
			out[k] = v
		}
	}
	return out
}

// defLangs maps file extensions to their definition shapes. They are made
// at first use: a command that analyses no file does not build their word
// sets.
var defLangs = sync.OnceValue(newDefLangs)

// defLangOf returns the definition shapes of the file at rel, or nil.
func defLangOf(rel string) *defLang {
	return defLangs()[strings.ToLower(path.Ext(rel))]
}

func newDefLangs() map[string]*defLang {
	defPython := &defLang{
		keywords:   mergeKinds(kindSet("def", defName), kindSet("class", defScope)),
		modifiers:  wordSet("async"),
		constants:  true,
		comments:   []string{"#"},
		docStrings: true,
	}
	defGo := &defLang{
		keywords: mergeKinds(kindSet("func", defRecv), kindSet("type const var", defBlock)),
		comments: []string{"//", "/*", "*"},
	}
	defJS := &defLang{
		keywords: mergeKinds(kindSet("function function* interface type enum namespace", defName),
			kindSet("class", defScope), kindSet("const let var", defAssign)),
		modifiers:   wordSet("export default async declare abstract public private protected static readonly get set override"),
		continues:   wordSet("extends implements"),
		scopedCalls: true,
		comments:    []string{"//", "/*", "*"},
	}
	defJava := &defLang{
		keywords: mergeKinds(kindSet("class interface enum record struct object trait", defScope),
			kindSet("fun val def delegate event", defName)),
		modifiers: wordSet("public private protected internal static final abstract sealed open data inner " +
			"synchronized native default override virtual async partial readonly unsafe extern new companion suspend inline"),
		continues:   wordSet("extends implements permits throws"),
		scopedCalls: true,
		comments:    []string{"//", "/*", "*", "@"},
	}
	defRust := &defLang{
		keywords: mergeKinds(kindSet("fn type const static macro_rules!", defName),
			kindSet("struct enum trait union mod", defScope), kindSet("impl", defImpl)),
		modifiers: wordSet("pub pub(crate) pub(super) pub(self) async unsafe extern const default"),
		comments:  []string{"//", "/*", "*", "#["},
	}
	defC := &defLang{
		keywords: mergeKinds(kindSet("class struct union enum", defScope), kindSet("#define", defMacro),
			kindSet("typedef", defTypedef)),
		modifiers: wordSet("static inline extern virtual explicit constexpr const unsigned signed template<typename " +
			"export friend __inline__ __attribute__"),
		calls:      true,
		prototypes: true,
		comments:   []string{"//", "/*", "*"},
	}
	defRuby := &defLang{
		keywords:  mergeKinds(kindSet("def", defName), kindSet("class module", defScope)),
		modifiers: wordSet("private protected public"),
		constants: true,
		comments:  []string{"#"},
	}
	defPHP := &defLang{
		keywords:  mergeKinds(kindSet("function const", defName), kindSet("class interface trait enum", defScope)),
		modifiers: wordSet("public private protected static final abstract readonly"),
		continues: wordSet("extends implements"),
		comments:  []string{"//", "/*", "*", "#"},
	}
	langs := map[string]*defLang{
		".py": defPython, ".pyi": defPython, ".pyx": defPython,
		".go": defGo,
		".js": defJS, ".jsx": defJS, ".mjs": defJS, ".cjs": defJS, ".ts": defJS, ".tsx": defJS, ".mts": defJS, ".cts": defJS,
		".java": defJava,
		".rs":   defRust,
		".c":    defC, ".h": defC, ".cc": defC, ".cpp": defC, ".cxx": defC, ".hpp": defC, ".hh": defC, ".hxx": defC,
		".rb":  defRuby,
		".php": defPHP,
	}
	for ext, l := range moreDefLangs() {
		langs[ext] = l
	}
	for _, l := range langs {
		for w := range l.keywords {
			l.starts[w[0]] = true
		}
		for w := range l.modifiers {
			l.starts[w[0]] = true
		}
		for _, c := range l.comments {
			l.commentStarts[c[0]] = true
		}
		l.starts['@'] = l.starts['@'] || l.attributes
	}
	return langs
}

// callStarts are words that open a statement, never a definition of the
// shape "type name(…)".
var callStarts = wordSet("if for while switch return else case do new delete throw catch try sizeof await yield " +
	"assert print elif except with not and or goto using import package include")

// scope is a class-like definition whose body is indented deeper.
type scope struct {
	indent int
	member int // the indentation of its first line inside, -1 before it
	name   string
}

// definitions calls emit for each name text defines, in lang's shapes:
// qual is the enclosing scope's name ("" at the top level).
func definitions(lang *defLang, text []byte, emit func(qual, name string)) {
	definitionLines(lang, text, func(_ int, qual, name string) { emit(qual, name) })
}

// definitionLines is definitions that also says on which line (0-based)
// each name is defined.
func definitionLines(lang *defLang, text []byte, emitAt func(line int, qual, name string)) {
	s := defScan{lang: lang, emitAt: emitAt, block: -1, n: -1}
	for len(text) > 0 {
		line := text
		if i := bytes.IndexByte(text, '\n'); i >= 0 {
			line, text = text[:i], text[i+1:]
		} else {
			text = nil
		}
		s.n++
		s.at = s.n
		s.read(line, text)
	}
}

// defScan is definitionLines' state from one line of a text to the next.
type defScan struct {
	lang   *defLang
	emitAt func(line int, qual, name string)
	scopes []scope
	block  int    // the indentation of a Go const/var/type block's lines, while in one, or -1
	closer string // the closer of the block comment or string the line is in
	// header is the parentheses a definition's line left open, its
	// parameters or bases running onto the lines below (Kotlin's "class
	// Cache(", Python's "class A(\n    Base,\n):"), read over headerLines
	// lines so far; headerAt is the definition's line, headerIndent its
	// indentation, and headerScope says that it opened a scope
	header, headerLines, headerAt, headerIndent int
	headerScope                                 bool
	after                                       bool // the line above defined a name or continued its header
	defined                                     bool // the line defined a name
	n, at                                       int  // the line's number, and the one its names are reported on
	lastQual, lastName                          string
}

func (s *defScan) emit(qual, name string) {
	s.defined = true
	if s.lang.clauses && qual == s.lastQual && name == s.lastName {
		return // the next clause of the same definition
	}
	s.lastQual, s.lastName = qual, name
	s.emitAt(s.at, qual, name)
}

// read reads a line; next is the text after it.
func (s *defScan) read(line, next []byte) {
	lang := s.lang
	indent, rest := indentOf(line)
	if s.closer != "" {
		if bytes.Contains(rest, []byte(s.closer)) {
			s.closer = ""
		}
		return
	}
	if s.inHeader(indent, rest, next) {
		return
	}
	s.closer = lang.opensBlock(rest)
	if len(rest) == 0 || lang.comment(rest) || rest[0] == '{' {
		// a brace on a line of its own opens the body above it (C#'s
		// style): it closes no scope
		return
	}
	qual, member := s.scopeOf(indent)
	if s.block >= 0 {
		if rest[0] == ')' {
			s.block = -1
		} else if indent > 0 {
			if n := identAt(rest); n != "" {
				s.emit("", n)
			}
		}
		return
	}
	s.defined = false
	name, opened := lang.line(rest, next, indent, qual, member, &s.block, s.emit)
	if opened {
		s.scopes = append(s.scopes, scope{indent, -1, name})
	}
	if (s.defined || opened) && s.block < 0 {
		s.header, s.headerLines, s.headerAt, s.headerIndent, s.headerScope, s.after = lang.parenDepth(rest), 0, s.n, indent, opened, true
	}
}

// inHeader reports whether a line (rest, after its indentation) continues
// the header of the definition above it. Such a line closes no scope, and
// the one that closes the header ("):", ") : Base {", "implements Handler
// {") none either: the class's members follow. It defines nothing of its
// own; a scope's parameters that are its members (Kotlin's "val size:
// Int," in "class Cache(") are defined on the header's line, so that they
// do not cut the class's unit.
func (s *defScan) inHeader(indent int, rest, next []byte) bool {
	open := s.header > 0 && s.headerLines < maxHeaderLines && (indent > s.headerIndent || len(rest) == 0 || rest[0] == ')')
	if !(open || s.after && s.continues(rest)) {
		s.header, s.after = 0, false
		return false
	}
	s.headerLines++
	if len(rest) == 0 || s.lang.comment(rest) {
		return true // a parameter's doc comment
	}
	if s.headerScope && s.header == 1 {
		block := -1
		s.at = s.headerAt
		s.lang.line(rest, next, indent, s.scopes[len(s.scopes)-1].name, true, &block, s.emit)
	}
	s.header += s.lang.parenDepth(rest)
	return true
}

// continues reports whether a line opens with a word that continues a
// header (defLang.continues), after its modifiers: Kotlin's "private
// constructor(" below "class Adapter<T>".
func (s *defScan) continues(rest []byte) bool {
	w, after := nextWord(rest)
	for s.lang.modifiers[w] {
		w, after = nextWord(after)
	}
	return s.lang.continues[w]
}

// scopeOf closes the scopes a line indented by indent ends, and returns
// the innermost scope's name ("" at the top level) and whether the line is
// at the top level or of that scope's members (not in a body).
func (s *defScan) scopeOf(indent int) (qual string, member bool) {
	for len(s.scopes) > 0 && indent <= s.scopes[len(s.scopes)-1].indent {
		s.scopes = s.scopes[:len(s.scopes)-1]
	}
	if len(s.scopes) == 0 {
		return "", indent == 0
	}
	top := &s.scopes[len(s.scopes)-1]
	if top.member < 0 {
		top.member = indent
	}
	return top.name, indent == top.member
}

// maxHeaderLines bounds the lines a definition's header is read over
// (okhttp's Response has 77, its properties' doc comments): a parenthesis
// left open by mistake (in a string the scan misreads) ends its header
// there, or a line indented no deeper than the definition that does not
// close it.
const maxHeaderLines = 200

// parenDepth returns the parentheses a line opens less those it closes,
// outside its double-quoted strings and before its comment (an opener of
// the language's other than "*", "[" and "@", which also start code).
func (l *defLang) parenDepth(rest []byte) int {
	depth := 0
	quoted := false
	for i := 0; i < len(rest); i++ {
		c := rest[i]
		switch {
		case quoted:
			if c == '\\' {
				i++
			} else if c == '"' {
				quoted = false
			}
		case c == '"':
			quoted = true
		case c == '(':
			depth++
		case c == ')':
			depth--
		case l.commentStarts[c] && l.commentAt(rest[i:]):
			return depth
		}
	}
	return depth
}

// commentAt reports whether b starts with a comment opener of l that
// only opens comments (not "*", "[" or "@": a pointer, an index, an
// annotation).
func (l *defLang) commentAt(b []byte) bool {
	for _, c := range l.comments {
		if c != "*" && c != "[" && c != "@" && bytes.HasPrefix(b, []byte(c)) {
			return true
		}
	}
	return false
}

// opensBlock returns the closer of a block comment or multi-line string
// that the line opens and does not close, or "".
func (l *defLang) opensBlock(rest []byte) string {
	for _, b := range l.blocks {
		if i := bytes.Index(rest, []byte(b[0])); i >= 0 && !bytes.Contains(rest[i+len(b[0]):], []byte(b[1])) {
			return b[1]
		}
	}
	return ""
}

// comment reports whether a line (after its indentation) is a comment.
func (l *defLang) comment(rest []byte) bool {
	if !l.commentStarts[rest[0]] {
		return false
	}
	for _, c := range l.comments {
		if bytes.HasPrefix(rest, []byte(c)) {
			return true
		}
	}
	return false
}

// line reads one line (after its indentation) for a definition, emitting
// it; it returns the name of a scope the line opens. member says whether
// the line is at the top level or of the innermost scope's members (not
// in a body); block is set to the indentation of a Go block's names when
// the line opens one. next is the text after the line.
func (l *defLang) line(rest, next []byte, indent int, qual string, member bool, block *int, emit func(qual, name string)) (string, bool) {
	if !l.starts[rest[0]] && !l.bare(rest[0], indent, qual, member) {
		return "", false
	}
	if l.attributes {
		rest = skipAttributes(rest)
		if len(rest) == 0 {
			return "", false
		}
	}
	first, after := nextWord(rest)
	for l.modifiers[first] {
		first, after = nextWord(after)
	}
	kind, ok := l.keywords[first]
	for ok && kind != defTypedef {
		// a keyword followed by another and a name is its modifier:
		// Kotlin's "enum class", C#'s "record struct", Swift's "class
		// func", OCaml's "let rec", TypeScript's "const enum" (C's
		// "typedef struct" names its type last)
		w, a := nextWord(after)
		k, again := l.keywords[w]
		if !again || identAt(a) == "" {
			break
		}
		kind, after = k, a
	}
	if !ok {
		switch {
		case !member:
		case l.constants && isConstant(first) && bytes.HasPrefix(trimBlanks(after), []byte("=")) &&
			!bytes.HasPrefix(trimBlanks(after), []byte("==")):
			emit(qual, first)
		default:
			if l.bareDef != nil {
				if n, q := l.bareDef(rest); n != "" {
					emit(cmp.Or(q, qual), n)
					break
				}
			}
			if l.calls && indent == 0 || l.scopedCalls && qual != "" {
				if n, q := callDef(rest, l.abstracts && qual != ""); n != "" && !(l.prototypes && declaration(rest, next)) {
					emit(cmp.Or(q, qual), n)
				}
			}
		}
		return "", false
	}
	return l.keyword(kind, after, indent, qual, member, block, emit)
}

// keyword reads what follows a keyword of kind on a line (after) for the
// definition it introduces, as line does.
func (l *defLang) keyword(kind defKind, after []byte, indent int, qual string, member bool, block *int, emit func(qual, name string)) (string, bool) {
	switch kind {
	case defName, defMacro:
		if n := identAt(after); n != "" {
			emit(qual, n)
		}
	case defScope, defModule:
		n := cmp.Or(identAt(after), backquoted(after))
		if l.continues[n] {
			// Dart's "extension on Stream<int> {" has no name: its
			// members are called as the type's, and it defined "on"
			if t := identAt(trimBlanks(after)[len(n):]); t != "" {
				return t, true
			}
			return "", false
		}
		if _, ctx, ok := bytes.Cut(after, []byte("=>")); ok && n == "" {
			n = identAt(ctx) // Haskell's "class (Eq a) => Container f where"
		}
		if kind == defModule {
			n = lastDotted(after)
		}
		if n != "" {
			emit(qual, n)
			return qualified(qual, n), true
		}
	case defImpl:
		if n := implType(after); n != "" {
			return n, true
		}
	case defImplFor:
		if _, mod, ok := bytes.Cut(after, []byte("for:")); ok {
			return lastDotted(mod), true
		}
		return qual, true
	case defLast:
		if n := lastName(after); n != "" {
			emit(qual, n)
		}
	case defPath:
		if n, q := pathName(after); n != "" {
			emit(cmp.Or(q, qual), n)
		}
	case defTop:
		if member {
			if n := identAt(after); n != "" {
				emit(qual, n)
			}
		}
	case defZig:
		if n, scope := zigConst(after); n != "" && member {
			emit(qual, n)
			if scope {
				return qualified(qual, n), true
			}
		}
	case defRecv:
		recv, name := goFunc(after)
		if name != "" {
			emit(recv, name)
		}
	case defBlock:
		t := bytes.TrimLeft(after, " \t")
		if len(t) > 0 && t[0] == '(' {
			*block = indent + 1
		} else if n := identAt(t); n != "" {
			emit("", n)
		}
	case defAssign:
		if member {
			if n := identAt(after); n != "" && assignsCode(after) {
				emit(qual, n)
			}
		}
	case defTypedef:
		if i := bytes.LastIndexByte(after, ';'); i > 0 {
			if n := lastIdent(after[:i]); n != "" {
				emit("", n)
			}
		}
	}
	return "", false
}

// indentOf returns the width of a line's indentation (a tab counts four)
// and the line after it, without a trailing carriage return.
func indentOf(line []byte) (int, []byte) {
	n, i := 0, 0
	for ; i < len(line); i++ {
		switch line[i] {
		case ' ':
			n++
		case '\t':
			n += 4
		default:
			return n, bytes.TrimRight(line[i:], "\r")
		}
	}
	return n, nil
}

func isIdentByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '$'
}

// nextWord returns the first word of b after spaces (letters, digits, _,
// and a keyword's own punctuation: "#define", "macro_rules!", "function*",
// "pub(crate)"; a C++ "template<…>" is the word "template<typename") and
// what follows it.
func nextWord(b []byte) (string, []byte) {
	b = trimBlanks(b)
	i := 0
	if i < len(b) && (b[i] == '#' || b[i] == '@') { // C's #define, Objective-C's @interface
		i++
	}
	for i < len(b) && isIdentByte(b[i]) {
		i++
	}
	w := bstr(b[:i])
	switch {
	case i < len(b) && (b[i] == '!' || b[i] == '*') && (w == "macro_rules" || w == "function"):
		i++
	case (w == "private" || w == "protected") && bytes.HasPrefix(b[i:], []byte("[")): // Scala's private[pkg]
		if j := bytes.IndexByte(b[i:], ']'); j > 0 {
			return w, b[i+j+1:]
		}
	case w == "pub" && bytes.HasPrefix(b[i:], []byte("(")):
		if j := bytes.IndexByte(b[i:], ')'); j > 0 {
			i += j + 1
		}
	case w == "template" && i < len(b) && b[i] == '<':
		if j := bytes.IndexByte(b[i:], '>'); j > 0 {
			return "template<typename", b[i+j+1:]
		}
	}
	return bstr(b[:i]), b[i:]
}

// trimBlanks returns b without its leading spaces and tabs (what
// bytes.TrimLeft(b, " \t") does, without making the set of the two at each
// call, on most lines of a file).
func trimBlanks(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t') {
		b = b[1:]
	}
	return b
}

// bstr returns the bytes of b as a string without copying them: it is
// valid while b is unchanged (the text being analysed is).
func bstr(b []byte) string {
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// identAt returns the identifier at the start of b after spaces and a
// pointer or reference mark, or "".
func identAt(b []byte) string {
	b = bytes.TrimLeft(b, " \t*&")
	i := 0
	for i < len(b) && isIdentByte(b[i]) {
		i++
	}
	if i == 0 || b[0] >= '0' && b[0] <= '9' {
		return ""
	}
	return bstr(b[:i])
}

// lastIdent returns the last identifier of b, or "".
func lastIdent(b []byte) string {
	j := len(b)
	for j > 0 && !isIdentByte(b[j-1]) {
		j--
	}
	i := j
	for i > 0 && isIdentByte(b[i-1]) {
		i--
	}
	if i == j || b[i] >= '0' && b[i] <= '9' {
		return ""
	}
	return bstr(b[i:j])
}

// isConstant reports whether w is an upper-case name (MAX_SIZE, Version
// is not): letters, digits and underscores, at least two letters.
func isConstant(w string) bool {
	letters := 0
	for i := 0; i < len(w); i++ {
		c := w[i]
		switch {
		case c >= 'A' && c <= 'Z':
			letters++
		case c == '_' || c >= '0' && c <= '9' && i > 0:
		default:
			return false
		}
	}
	return letters >= 2
}

// callDef reads a line of the shape "[type words] name(…)" (a C, C++,
// Java or C# function or method, a JavaScript method) for the name it
// defines and the scope it names ("Foo::bar(" in C++). Statements ("if
// (", "return f("), calls ending in ';' (unless abstract is set: a
// member's declaration), and assignments are not definitions.
func callDef(rest []byte, abstract bool) (name, qual string) {
	open, head := paramsOpen(rest)
	if open <= 0 || bytes.HasSuffix(bytes.TrimRight(rest, " \t"), []byte(";")) && !arrowBody(rest) && !(abstract && declared(rest)) ||
		bytes.ContainsAny(head, "=.\"'") {
		return "", ""
	}
	head = cutTypeParams(head)
	first, _ := nextWord(head)
	if callStarts[first] || first != "" && first[0] == '#' { // a preprocessor's line: "#if defined(X)"
		return "", ""
	}
	if h := trimBlanks(head); len(h) > 0 && bytes.IndexByte([]byte(":)},"), h[0]) >= 0 && !bytes.HasPrefix(h, []byte("::")) {
		// a line that continues the one above: a constructor's
		// initializers (Dart's "}) : assert(x != null)", ") : super(msg);"),
		// the end of a block ("} while (0)", "} else if (x)"); C++'s
		// "::std::string name()" is a definition
		return "", ""
	}
	n := lastIdent(head)
	if n == "" || tupleAfter[n] || len(bytes.TrimRight(head, " \t")) == 0 || !isIdentByte(head[len(bytes.TrimRight(head, " \t"))-1]) {
		return "", ""
	}
	before := bytes.TrimRight(head, " \t")
	before = before[:len(before)-len(n)]
	if q, ok := bytes.CutSuffix(before, []byte("::")); ok {
		qual = lastIdent(q)
	}
	return n, qual
}

// paramsOpen returns the index of the "(" that opens the parameters of
// a call's shape (-1 for none) and the text before it: the first "(",
// unless it is a return type's, a tuple or a record (C#'s "public (int,
// string) Parse(…)", Dart's "(int, String) parse(…)" and "Future<(int,
// int)> size()"): at the start of the line, after a modifier or inside
// a type's angle brackets. The parameters open after it; head then
// leaves the tuple out.
func paramsOpen(rest []byte) (open int, head []byte) {
	open = bytes.IndexByte(rest, '(')
	if open < 0 {
		return -1, nil
	}
	before := rest[:open]
	if len(trimBlanks(before)) > 0 && !tupleAfter[lastIdent(bytes.TrimRight(before, " \t"))] &&
		bytes.Count(before, []byte("<")) <= bytes.Count(before, []byte(">")) {
		return open, before
	}
	depth := 0
	for i := open; i < len(rest); i++ {
		switch rest[i] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				next := bytes.IndexByte(rest[i+1:], '(')
				if next < 0 {
					return -1, nil
				}
				return i + 1 + next, append(slices.Clip(before), rest[i+1:i+1+next]...)
			}
		}
	}
	return -1, nil
}

// tupleAfter are the modifiers after which "(" opens a return type.
var tupleAfter = wordSet("public private protected internal static async override virtual abstract sealed new extern unsafe readonly partial")

// arrowBody reports whether a line that ends in ';' is a definition
// whose body is one expression after "=>" (C#'s and Dart's "int Count()
// => _n;", Dart's "Future<void> close() async => …;"), not a statement.
func arrowBody(line []byte) bool {
	i := bytes.Index(line, []byte("=>"))
	if i < 0 {
		return false
	}
	before := bytes.TrimRight(line[:i], " \t")
	before = bytes.TrimSuffix(before, []byte("async"))
	return bytes.HasSuffix(bytes.TrimRight(before, " \t"), []byte(")"))
}

// declared reports whether a line that ends in ';' ends as a method's
// declaration does, its parameters closed and nothing after them: "Task
// FlushAsync(CancellationToken ct);", not a field of a function's type,
// Dart's "final void Function(int)? onDone;".
func declared(line []byte) bool {
	t := bytes.TrimRight(line, " \t")
	t = bytes.TrimRight(t[:len(t)-1], " \t")
	return bytes.HasSuffix(t, []byte(")"))
}

// cutTypeParams returns head, the text before a call's "(", without the
// type parameters that close it: "T max<T extends num>" is "T max"
// (Dart, C#, Swift, TypeScript write them after the name).
func cutTypeParams(head []byte) []byte {
	t := bytes.TrimRight(head, " \t")
	if !bytes.HasSuffix(t, []byte(">")) {
		return head
	}
	depth := 0
	for i := len(t) - 1; i >= 0; i-- {
		switch t[i] {
		case '>':
			depth++
		case '<':
			depth--
			if depth == 0 {
				return t[:i]
			}
		}
	}
	return head
}

// declaration reports whether the C or C++ statement that starts on line
// (a call's shape) ends before a body opens: a prototype whose parameters
// run onto the lines below ("bool reify_defaults(ast_t* a,\n  pass_opt_t*
// opt);"), or one with a comment after its ';'. A header declares what its
// source file defines; counting both as definitions split a name's weight
// between them, and the header that only declares it ranked above the file
// that has its code. The look ahead stops at the first ';' or '{'. Only
// C's shapes ask: a Java or TypeScript interface's method is its API.
func declaration(line, next []byte) bool {
	if i := bytes.IndexAny(line, ";{"); i >= 0 {
		return line[i] == ';'
	}
	i := bytes.IndexAny(next, ";{")
	return i >= 0 && next[i] == ';'
}

// goFunc reads what follows Go's func for the receiver's type and the
// name: "(s *Server) Serve(" gives "Server", "Serve".
func goFunc(after []byte) (recv, name string) {
	t := bytes.TrimLeft(after, " \t")
	if len(t) > 0 && t[0] == '(' {
		end := bytes.IndexByte(t, ')')
		if end < 0 {
			return "", ""
		}
		r := t[1:end]
		if i := bytes.IndexByte(r, '['); i >= 0 {
			r = r[:i]
		}
		recv = lastIdent(r)
		t = t[end+1:]
	}
	return recv, identAt(t)
}

// implType reads a Rust impl's header for the type it is for: "impl<T>
// Display for Wrapper<T> {" gives "Wrapper".
func implType(after []byte) string {
	t := bytes.TrimLeft(after, " \t")
	if len(t) > 0 && t[0] == '<' {
		if j := bytes.IndexByte(t, '>'); j > 0 {
			t = t[j+1:]
		}
	}
	if i := bytes.Index(t, []byte(" for ")); i >= 0 {
		t = t[i+5:]
	}
	return identAt(t)
}

// assignsCode reports whether a JavaScript declaration assigns a function
// or a class: "name = (…) =>", "name = function", "name = class",
// "name = async (".
func assignsCode(after []byte) bool {
	eq := bytes.IndexByte(after, '=')
	if eq < 0 {
		return false
	}
	v := bytes.TrimLeft(after[eq+1:], " \t")
	v = bytes.TrimPrefix(v, []byte("async "))
	return bytes.HasPrefix(v, []byte("function")) || bytes.HasPrefix(v, []byte("class")) ||
		bytes.HasPrefix(v, []byte("(")) || bytes.Contains(v, []byte("=>"))
}

// defTerms calls emit with the definition terms of text, the content of
// the file at rel: for each name, defPrefix and defKey of the name, and
// with its scope defPrefix, the scope's key, a dot and the name's key.
// A term is valid only during the call to emit.
func defTerms(rel string, text []byte, emit func(term string)) {
	lang := defLangOf(rel)
	if lang == nil {
		return
	}
	var bare, qualified []byte
	definitions(lang, text, func(qual, name string) {
		bare = appendDefKey(append(bare[:0], defPrefix...), name)
		if len(bare) == len(defPrefix) || len(bare) > maxTermLen {
			return
		}
		emit(bstr(bare))
		if qual == "" {
			return
		}
		qualified = appendDefKey(append(qualified[:0], defPrefix...), qual)
		if len(qualified) > len(defPrefix) && len(qualified)+len(bare) <= maxTermLen {
			qualified = append(append(qualified, '.'), bare[len(defPrefix):]...)
			emit(bstr(qualified))
		}
	})
}

// defKey is the form names are recorded and looked up in: lower-case,
// without underscores, so that bulk_create, bulkCreate and the words
// "bulk create" joined meet ("Outer.Inner" keeps its dots).
func defKey(name string) string {
	return string(appendDefKey(nil, name))
}

// appendDefKey appends defKey(name) to b.
func appendDefKey(b []byte, name string) []byte {
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c == '_':
		case c >= 'A' && c <= 'Z':
			b = append(b, c+'a'-'A')
		default:
			b = append(b, c)
		}
	}
	return b
}

// docString returns the quotes that open a docstring on the line text
// (after its indentation), in a language that has them (Python: three
// double or three single quotes), or "" (also in no known language, l
// nil).
func (l *defLang) docString(text []byte) string {
	if l == nil || !l.docStrings {
		return ""
	}
	for _, q := range []string{`"""`, `'''`} {
		if bytes.HasPrefix(text, []byte(q)) {
			return q
		}
	}
	return ""
}

// qualified returns name inside the scope qual ("" at the top level).
func qualified(qual, name string) string {
	if qual == "" {
		return name
	}
	return qual + "." + name
}

// skipAttributes returns rest after its leading attributes, "@name" or
// "@name(…)" words (Swift's @discardableResult, @available(*, deprecated)).
func skipAttributes(rest []byte) []byte {
	for len(rest) > 0 && rest[0] == '@' {
		i := 1
		for i < len(rest) && (isIdentByte(rest[i]) || rest[i] == '.' || rest[i] == ':') { // Kotlin's @get:JvmName
			i++
		}
		if i < len(rest) && rest[i] == '(' {
			j := bytes.IndexByte(rest[i:], ')')
			if j < 0 {
				return nil
			}
			i += j + 1
		}
		rest = trimBlanks(rest[i:])
	}
	return rest
}

// backquoted returns the name quoted in backquotes at the start of
// after, without the characters a name cannot hold: Kotlin's "class
// `-JsonUtf8Reader`" (moshi's internal classes) is JsonUtf8Reader. A quoted
// sentence (a test's "fun `reads a null`()") is no name: "".
func backquoted(after []byte) string {
	t := trimBlanks(after)
	if len(t) == 0 || t[0] != '`' {
		return ""
	}
	end := bytes.IndexByte(t[1:], '`')
	if end < 0 || bytes.ContainsAny(t[1:1+end], " \t") {
		return ""
	}
	return identAt(bytes.TrimLeft(t[1:1+end], "-"))
}

// lastDotted returns the last part of the dotted name at the start of
// after: "Phoenix.Router do" gives "Router".
func lastDotted(after []byte) string {
	t := trimBlanks(after)
	i := 0
	for i < len(t) && (isIdentByte(t[i]) || t[i] == '.') {
		i++
	}
	t = t[:i]
	if j := bytes.LastIndexByte(t, '.'); j >= 0 {
		t = t[j+1:]
	}
	return identAt(t)
}

// lastName returns the last name before the first "(", ";", "{" or "="
// of after, without its type parameters: C#'s "delegate void
// Handler<T>(T e)" and "event EventHandler Changed;", Dart's "typedef
// Callback = void Function()".
func lastName(after []byte) string {
	if i := bytes.IndexAny(after, "(;{="); i >= 0 {
		after = after[:i]
	}
	return lastIdent(cutTypeParams(after))
}

// pathName reads a function's name that may be a path: "M.util.f(" (Lua,
// Julia) gives f in util, "M:f(" (a Lua method) f in M, Kotlin's
// "<T> List<T>.second(" second in List. Type parameters before the name
// are skipped, as are those of the receiver's type.
func pathName(after []byte) (name, qual string) {
	t := trimBlanks(after)
	if len(t) > 0 && t[0] == '<' {
		if j := bytes.IndexByte(t, '>'); j > 0 {
			t = trimBlanks(t[j+1:])
		}
	}
	end := 0
	for end < len(t) && (isIdentByte(t[end]) || t[end] == '.' || t[end] == ':' || t[end] == '<' || t[end] == '>') {
		end++
	}
	p := t[:end]
	i := bytes.LastIndexAny(p, ".:")
	if i < 0 {
		return identAt(p), ""
	}
	return identAt(p[i+1:]), lastIdent(cutTypeParams(p[:i]))
}
