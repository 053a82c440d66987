package memory

import "bytes"

// The definition shapes of the languages read after the first ones
// (defs.go's newDefLangs): Kotlin, Scala and C# apart from Java, whose
// table read them until their own forms were missed (Kotlin's "enum
// class", "fun <T> List<T>.second()", Scala's "case class", C#'s
// delegates), and Dart, Swift, Lua and Teal, Haskell, Elixir, Erlang,
// Julia, OCaml, Zig, R and Objective-C. A file of one of them was cut
// into windows of lines with no names; read, it has units named by its
// definitions, and its names meet a query's as Python's and Go's do.
//
// Shell and Perl are left out: a file that has definitions counts as code
// (defLangOf), and a short request demotes a project's scripts as its
// tooling (codeExts).
func moreDefLangs() map[string]*defLang {
	langs := map[string]*defLang{}
	for _, m := range []map[string]*defLang{jvmDefLangs(), scriptDefLangs(), functionalDefLangs(), nativeDefLangs()} {
		for ext, l := range m {
			langs[ext] = l
		}
	}
	return langs
}

// jvmDefLangs are Kotlin's, Scala's, C#'s and Dart's shapes: classes whose
// members are indented, methods with or without a keyword.
func jvmDefLangs() map[string]*defLang {
	defKotlin := &defLang{
		keywords: mergeKinds(kindSet("class interface object", defScope), kindSet("fun", defPath),
			kindSet("typealias", defName), kindSet("val var", defTop)),
		modifiers: wordSet("public private protected internal abstract final open sealed data inner enum annotation value " +
			"companion override suspend inline infix operator tailrec external lateinit const expect actual"),
		continues:  wordSet("constructor"),
		attributes: true,
		comments:   []string{"//", "/*", "*"},
		blocks:     [][2]string{{`"""`, `"""`}},
	}
	defScala := &defLang{
		keywords: mergeKinds(kindSet("class object trait enum", defScope), kindSet("def type", defName),
			kindSet("val var", defTop)),
		modifiers:  wordSet("private protected final abstract sealed implicit lazy override case inline opaque transparent open package"),
		continues:  wordSet("extends with derives"),
		attributes: true,
		comments:   []string{"//", "/*", "*"},
		blocks:     [][2]string{{`"""`, `"""`}},
	}
	defCSharp := &defLang{
		keywords: mergeKinds(kindSet("class interface enum record struct", defScope), kindSet("delegate event", defLast)),
		modifiers: wordSet("public private protected internal static sealed abstract virtual override async partial " +
			"readonly unsafe extern new const volatile file required"),
		scopedCalls: true,
		abstracts:   true,
		comments:    []string{"//", "/*", "*", "["}, // "[": an attribute's line
	}
	defDart := &defLang{
		keywords:    mergeKinds(kindSet("class mixin enum extension", defScope), kindSet("typedef", defLast)),
		modifiers:   wordSet("abstract base final sealed interface static external late const factory"),
		continues:   wordSet("extends with implements on"),
		bareDef:     dartGetter,
		calls:       true,
		scopedCalls: true,
		abstracts:   true,
		attributes:  true,
		comments:    []string{"//", "/*", "*"},
		blocks:      [][2]string{{`"""`, `"""`}, {`'''`, `'''`}},
	}
	return map[string]*defLang{".kt": defKotlin, ".kts": defKotlin, ".scala": defScala, ".sc": defScala, ".cs": defCSharp, ".dart": defDart}
}

// scriptDefLangs are Swift's, Lua's (and Teal's), Julia's and R's shapes.
func scriptDefLangs() map[string]*defLang {
	defSwift := &defLang{
		keywords: mergeKinds(kindSet("class struct enum protocol actor", defScope), kindSet("extension", defImpl),
			kindSet("func typealias", defName), kindSet("var let", defTop)),
		modifiers: wordSet("public private fileprivate internal open package static final override mutating nonmutating " +
			"convenience required lazy weak unowned dynamic indirect nonisolated optional"),
		attributes: true,
		comments:   []string{"//", "/*", "*"},
		blocks:     [][2]string{{`"""`, `"""`}},
	}
	defLua := &defLang{
		// Teal, typed Lua, adds records, enums, interfaces and types
		keywords:  mergeKinds(kindSet("function", defPath), kindSet("record enum interface type", defName)),
		modifiers: wordSet("local global"),
		bareDef:   luaAssign,
		comments:  []string{"--"},
		blocks:    [][2]string{{"[[", "]]"}},
	}
	defJulia := &defLang{
		keywords:  mergeKinds(kindSet("function macro", defPath), kindSet("struct type module const", defName)),
		modifiers: wordSet("mutable abstract primitive"),
		bareDef:   juliaShort,
		comments:  []string{"#"},
		blocks:    [][2]string{{`"""`, `"""`}, {"#=", "=#"}},
	}
	defR := &defLang{
		bareDef:  rAssign,
		comments: []string{"#"},
	}
	return map[string]*defLang{".swift": defSwift, ".lua": defLua, ".tl": defLua, ".jl": defJulia, ".r": defR}
}

// functionalDefLangs are Haskell's, Elixir's, Erlang's and OCaml's shapes:
// definitions written as clauses, or bound at the top level.
func functionalDefLangs() map[string]*defLang {
	defHaskell := &defLang{
		keywords: mergeKinds(kindSet("data newtype type family", defName), kindSet("class", defScope)),
		bareDef:  haskellSignature,
		clauses:  true,
		comments: []string{"--", "{-"},
		blocks:   [][2]string{{"{-", "-}"}},
	}
	defElixir := &defLang{
		keywords: mergeKinds(kindSet("defmodule defprotocol", defModule), kindSet("defimpl", defImplFor),
			kindSet("def defp defmacro defmacrop defguard defguardp defdelegate", defName)),
		clauses:  true,
		comments: []string{"#"},
		blocks:   [][2]string{{`"""`, `"""`}, {`'''`, `'''`}},
	}
	defErlang := &defLang{
		bareDef:  erlangDef,
		clauses:  true,
		comments: []string{"%"},
	}
	defOCaml := &defLang{
		keywords: mergeKinds(kindSet("let and val external exception rec", defTop), kindSet("type", defName),
			kindSet("module", defScope)),
		comments: []string{"(*"},
		blocks:   [][2]string{{"(*", "*)"}},
	}
	return map[string]*defLang{".hs": defHaskell, ".ex": defElixir, ".exs": defElixir, ".erl": defErlang, ".hrl": defErlang, ".ml": defOCaml, ".mli": defOCaml}
}

// nativeDefLangs are Zig's and Objective-C's shapes.
func nativeDefLangs() map[string]*defLang {
	defZig := &defLang{
		keywords:  mergeKinds(kindSet("fn", defName), kindSet("const var", defZig)),
		modifiers: wordSet("pub export extern inline noinline threadlocal"),
		comments:  []string{"//"},
	}
	defObjC := &defLang{
		keywords: mergeKinds(kindSet("@interface @implementation @protocol", defName), kindSet("struct union enum", defScope),
			kindSet("#define", defMacro), kindSet("typedef", defTypedef)),
		modifiers:  wordSet("static inline extern const unsigned signed"),
		bareDef:    objcMethod,
		calls:      true,
		prototypes: true,
		comments:   []string{"//", "/*", "*"},
	}
	return map[string]*defLang{".zig": defZig, ".m": defObjC, ".mm": defObjC}
}

// luaAssign reads a Lua function assigned to a name: "M.util.f =
// function(" gives f in util, "local handler = function(" handler.
func luaAssign(rest []byte) (name, qual string) {
	lhs, rhs, ok := bytes.Cut(rest, []byte("="))
	if !ok || !bytes.HasPrefix(trimBlanks(rhs), []byte("function")) || bytes.ContainsAny(lhs, "([\"'") {
		return "", ""
	}
	if w, after := nextWord(lhs); w == "local" || w == "global" { // (Teal's global)
		lhs = after
	}
	return pathName(lhs)
}

// dartGetter reads a Dart getter, "int get retries => 3;", "Stream<int>
// get stream {" or an abstract "bool get isEmpty;", for its name. (A
// setter has the shape of a call and is read as one.)
func dartGetter(rest []byte) (name, qual string) {
	i := bytes.Index(rest, []byte(" get "))
	if i <= 0 || bytes.IndexByte(rest[:i], '=') >= 0 {
		return "", ""
	}
	after := trimBlanks(rest[i+len(" get "):])
	n := identAt(after)
	if n == "" {
		return "", ""
	}
	after = trimBlanks(after[len(n):])
	if bytes.HasPrefix(after, []byte("=>")) || bytes.HasPrefix(after, []byte("{")) || bytes.HasPrefix(after, []byte(";")) {
		return n, ""
	}
	return "", ""
}

// haskellSignature reads a Haskell type signature, "name :: Type" or
// "name, other :: Type", for the (first) name it gives a type: a
// function's or a class method's. Equations are not read: a function
// of several clauses has one signature.
func haskellSignature(rest []byte) (name, qual string) {
	n := identAt(rest)
	if n == "" || n[0] >= 'A' && n[0] <= 'Z' {
		return "", ""
	}
	after := trimBlanks(rest[len(n):])
	for len(after) > 0 && after[0] == '\'' { // foldl'
		after = trimBlanks(after[1:])
	}
	if bytes.HasPrefix(after, []byte("::")) || bytes.HasPrefix(after, []byte(",")) && bytes.Contains(after, []byte("::")) {
		return n, ""
	}
	return "", ""
}

// erlangDef reads an Erlang line at the top level: a function's clause,
// "name(Args) ->" (its name), or an attribute that names a definition,
// "-record(name,", "-type name(", "-define(NAME", "-spec name(".
func erlangDef(rest []byte) (name, qual string) {
	if a, ok := bytes.CutPrefix(rest, []byte("-")); ok {
		w, after := nextWord(a)
		switch w {
		case "record", "define":
			return identAt(bytes.TrimPrefix(trimBlanks(after), []byte("("))), ""
		case "type", "opaque", "spec", "callback":
			return identAt(after), ""
		}
		return "", ""
	}
	n := identAt(rest)
	if n == "" || n[0] < 'a' || n[0] > 'z' || !bytes.HasPrefix(rest[len(n):], []byte("(")) {
		return "", ""
	}
	return n, ""
}

// juliaShort reads Julia's short function form at the top level, "f(x)
// = …" or "Base.show(io::IO, x::T) = …", for its name and the module
// that qualifies it.
func juliaShort(rest []byte) (name, qual string) {
	open := bytes.IndexByte(rest, '(')
	if open <= 0 || bytes.ContainsAny(rest[:open], " \t=") {
		return "", ""
	}
	closing := bytes.IndexByte(rest, ')')
	if closing < open {
		return "", ""
	}
	after := trimBlanks(rest[closing+1:])
	if !bytes.HasPrefix(after, []byte("=")) || bytes.HasPrefix(after, []byte("==")) {
		return "", ""
	}
	return pathName(rest[:open])
}

// rAssign reads an R function assigned to a name: "name <- function(" or
// "name = function(". The name is whole, dots and all (an S3 method,
// print.summary).
func rAssign(rest []byte) (name, qual string) {
	i := 0
	for i < len(rest) && (isIdentByte(rest[i]) || rest[i] == '.') {
		i++
	}
	if i == 0 || rest[0] >= '0' && rest[0] <= '9' {
		return "", ""
	}
	after := trimBlanks(rest[i:])
	switch {
	case bytes.HasPrefix(after, []byte("<<-")):
		after = after[3:]
	case bytes.HasPrefix(after, []byte("<-")):
		after = after[2:]
	case bytes.HasPrefix(after, []byte("=")) && !bytes.HasPrefix(after, []byte("==")):
		after = after[1:]
	default:
		return "", ""
	}
	if !bytes.HasPrefix(trimBlanks(after), []byte("function")) {
		return "", ""
	}
	return bstr(rest[:i]), ""
}

// objcMethod reads an Objective-C method's line, "- (void)fetch:(NSURL
// *)url {" or "+ (instancetype)shared;", for its name's first part.
func objcMethod(rest []byte) (name, qual string) {
	if len(rest) < 2 || rest[0] != '-' && rest[0] != '+' {
		return "", ""
	}
	t := trimBlanks(rest[1:])
	if len(t) > 0 && t[0] == '(' {
		end := bytes.IndexByte(t, ')')
		if end < 0 {
			return "", ""
		}
		t = t[end+1:]
	}
	return identAt(t), ""
}

// zigConst reads what follows Zig's const or var for the name it
// defines: a type ("Pool = struct {", "Kind = enum(u8) {", "Error =
// error{"), which is a scope when its members follow, or a function
// value. A plain constant or an import is no definition.
func zigConst(after []byte) (name string, scope bool) {
	n := identAt(after)
	if n == "" {
		return "", false
	}
	_, value, ok := bytes.Cut(after, []byte("="))
	if !ok {
		return "", false
	}
	w, _ := nextWord(value)
	for w == "packed" || w == "extern" {
		value = trimBlanks(value)[len(w):]
		w, _ = nextWord(value)
	}
	switch w {
	case "struct", "enum", "union", "opaque":
		return n, true
	case "error", "fn":
		return n, false
	}
	return "", false
}
