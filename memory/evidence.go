package memory

import (
	"math"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/taskctl/taskctl/internal/lazyregexp"
)

// Evidence is what a query names exactly: a function in a traceback frame,
// a name imported, a dotted name (a.b.C.meth), a CamelCase or snake_case
// identifier. Each is looked up among the files' definitions (defs.go):
// a file that defines it scores for it, above files that only mention it.
// The modules that imports and dotted names spell (django.db.models.query)
// are looked up among the files' paths, as mentions.

// Kinds of evidence, strongest first, with their weights.
const (
	evFrame  = "traceback frame"
	evImport = "import"
	evDotted = "dotted name"
	evIdent  = "identifier"
)

var evidenceWeight = map[string]float64{evFrame: 1.0, evImport: 1.0, evDotted: 1.0, evIdent: 0.6}

// A name that more than commonDefShare of the files define, and more than
// commonDefDF, is no evidence: __init__, get, run are defined everywhere.
// Its weight would be small beside a rarer name's, but a report that gives
// no other would lift every file that defines it by the whole defShare.
const (
	commonDefShare = 0.02
	commonDefDF    = 5
)

// maxEvidence bounds the names of a query looked up.
const maxEvidence = 48

// evidence is one name the query gives.
type evidence struct {
	key   string  // defKey of the name, qualified ("queryset.bulkcreate") or not
	shown string  // the name as the query has it
	kind  string  // evFrame, evImport …
	tf    float64 // how often the query gives it
}

var (
	// File "/x/django/db/models/query.py", line 12, in bulk_create
	frameRe = lazyregexp.New(`File "([^"]+)", line \d+, in ([A-Za-z_<][A-Za-z0-9_>]*)`)
	// pytest: src/_pytest/python.py:123: in collect
	pytestFrameRe = lazyregexp.New(`(?m)^([\w./\\-]+\.py):\d+: in ([A-Za-z_<][A-Za-z0-9_>]*)`)
	// from a.b import C, D as E / import a.b.c
	fromRe   = lazyregexp.New(`(?m)^[ \t>]*from[ \t]+([A-Za-z_][\w.]*)[ \t]+import[ \t]+\(?([\w, \t]+)`)
	importRe = lazyregexp.New(`(?m)^[ \t>]*import[ \t]+([A-Za-z_][\w.]*)`)
	// a.b.C.meth, not a file name (x.py) nor a number
	dottedRe = lazyregexp.New(`[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+`)
	identRe  = lazyregexp.New(`[A-Za-z_][A-Za-z0-9_]*`)
	// a C++ or Rust path: Command::override_usage, crate::parser::Parser
	scopedRe = lazyregexp.New(`[A-Za-z_][A-Za-z0-9_]*(?:::[A-Za-z_][A-Za-z0-9_]*)+`)
	// a frame of a JVM stack trace: at com.x.y.Foo$Bar.method(Foo.java:12),
	// the class's package, the method and the file
	javaFrameRe = lazyregexp.New(`^\s*at\s+((?:[\w$]+\.)+)[\w$<>]+\(([\w$]+\.(?:java|kt|scala|groovy))(?::\d+)?\)`)
	// a frame of a V8 stack trace: at fn (/a/b/c.js:12:3), or the path alone
	v8FrameRe = lazyregexp.New(`^\s*at\s+(?:[^()]*\()?([^\s()]+\.(?:js|mjs|cjs|jsx|ts|tsx|coffee)):\d+(?::\d+)?\)?\s*$`)
	// a frame of a V8 stack trace that names no file: a built-in's (at
	// Array.forEach (<anonymous>), (native), (index 0)) or one of Node's
	// own modules, as Node 16 and later print them (node:internal/…:95:5)
	v8NoFileFrameRe = lazyregexp.New(`^\s*at\s+(?:[^()]*\((?:<anonymous>|native|index \d+|node:[^\s()]+)\)|node:\S+)\s*$`)
)

// receivers are the first words of dotted names that name a local value,
// not a module or class: self.x says x is a member of some class, and
// Rust's Self::Output an associated type of whatever the impl is for.
var receivers = map[string]bool{
	"self": true, "cls": true, "this": true, "super": true, "np": true, "pd": true, "plt": true, "Self": true,
}

// stdRoots are the roots of paths into a language's standard library
// (C++'s std::vector, Rust's std::sync::Arc, core::fmt, alloc::vec): they
// name no file of the project.
var stdRoots = map[string]bool{"std": true, "core": true, "alloc": true}

// findEvidence reads q for evidence and for the module paths its imports
// and dotted names may spell: each chain is a dotted name's parts, of
// which the longest prefix that is a module of the index is taken
// (resolveModules).
//
// frames are the files of the query's traceback frames, outermost first.
func findEvidence(q string) (evs []evidence, chains [][]string, frames []string) {
	r := &evidenceReader{seen: map[string]int{}, modSeen: map[string]bool{}}
	frames = r.frames(q)
	r.imports(q)
	for _, d := range dottedRe.Re().FindAllString(q, -1) {
		if !looksLikeFile(d) {
			r.dotted(strings.Split(d, "."))
		}
	}
	for _, p := range scopedPaths(q) {
		r.dotted(p)
	}
	for _, w := range identRe.Re().FindAllString(q, -1) {
		if isIdentifierLike(w) {
			r.add(w, evIdent)
		}
	}
	return r.evs, r.chains, frames
}

// evidenceReader gathers a query's evidence, each key once (its tf
// counting the repeats), and the module chains of its names.
type evidenceReader struct {
	evs     []evidence
	seen    map[string]int // key → index in evs
	chains  [][]string
	modSeen map[string]bool
}

// add adds the name shown as evidence of kind, or counts it again; a
// repeat keeps the strongest kind it was seen as.
func (r *evidenceReader) add(shown, kind string) {
	key := defKey(shown)
	if len(key) < 3 || len(key) > maxTermLen || stopWords[key] {
		return
	}
	if i, ok := r.seen[key]; ok {
		r.evs[i].tf++
		if evidenceWeight[kind] > evidenceWeight[r.evs[i].kind] {
			r.evs[i].kind = kind
		}
		return
	}
	if len(r.evs) >= maxEvidence {
		return
	}
	r.seen[key] = len(r.evs)
	r.evs = append(r.evs, evidence{key: key, shown: shown, kind: kind, tf: 1})
}

// addModule adds a dotted name as a module chain, up to 32 of them.
func (r *evidenceReader) addModule(dotted string) {
	dotted = strings.Trim(dotted, ".")
	if strings.Contains(dotted, ".") && !r.modSeen[dotted] && len(r.chains) < 32 {
		r.modSeen[dotted] = true
		r.chains = append(r.chains, strings.Split(dotted, "."))
	}
}

// frames returns the files of q's traceback frames (Python's and
// pytest's, then the JVM's and V8's), adding each Python frame's function
// as evidence.
func (r *evidenceReader) frames(q string) []string {
	var frames []string
	for _, re := range []*regexp.Regexp{frameRe.Re(), pytestFrameRe.Re()} {
		for _, m := range re.FindAllStringSubmatch(q, -1) {
			if len(frames) < maxFrames {
				frames = append(frames, strings.ReplaceAll(m[1], "\\", "/"))
			}
			if m[2] != "<module>" {
				r.add(m[2], evFrame)
			}
		}
	}
	return appendJavaFrames(frames, q)
}

// imports adds the names q imports and their modules.
func (r *evidenceReader) imports(q string) {
	for _, m := range fromRe.Re().FindAllStringSubmatch(q, -1) {
		for _, name := range strings.Split(m[2], ",") {
			if f := strings.Fields(name); len(f) > 0 {
				r.add(f[0], evImport)
				r.addModule(m[1] + "." + f[0])
			}
		}
	}
	for _, m := range importRe.Re().FindAllStringSubmatch(q, -1) {
		r.addModule(m[1])
	}
}

// dotted reads a name's parts: its last part, its last two as a qualified
// name, and the module chain; a member of a receiver (self.x,
// Self::Output) is an identifier only, if spelled as one.
func (r *evidenceReader) dotted(parts []string) {
	if receivers[parts[0]] {
		if len(parts) == 2 {
			if isIdentifierLike(parts[1]) {
				r.add(parts[1], evIdent)
			}
			return
		}
		parts = parts[1:]
	}
	n := len(parts)
	r.add(parts[n-1], evDotted)
	if n >= 2 {
		r.add(parts[n-2]+"."+parts[n-1], evDotted)
		r.addModule(strings.Join(parts, "."))
	}
}

// scopedPaths returns the parts of the C++ and Rust paths of q
// (Command::override_usage, crate::parser::Parser), which are read as
// dotted names are: the definitions are qualified by their class or impl
// (Command.override_usage), and the path may spell a module. A path that
// goes on from a file name (pytest's tests/test_x.py::TestX::test_y) is
// not one.
func scopedPaths(q string) [][]string {
	var out [][]string
	for _, m := range scopedRe.Re().FindAllStringIndex(q, -1) {
		if m[0] > 0 && strings.IndexByte("./\\", q[m[0]-1]) >= 0 {
			continue
		}
		parts := strings.Split(q[m[0]:m[1]], "::")
		if stdRoots[parts[0]] {
			continue
		}
		if parts[0] == "crate" { // the crate's root: the rest is its path
			parts = parts[1:]
		}
		out = append(out, parts)
	}
	return out
}

// maxFrames is how many traceback frames a query is read for.
const maxFrames = 64

// appendJavaFrames appends to frames the files of the frames of the JVM
// and V8 stack traces in q, up to maxFrames in all. When there are too many, the
// innermost (last) are kept: the root cause's are.
func appendJavaFrames(frames []string, q string) []string {
	jf := javaFrames(q)
	if n := max(maxFrames-len(frames), 0); len(jf) > n {
		jf = jf[len(jf)-n:]
	}
	return append(frames, jf...)
}

// javaFrames returns the files of the frames of the JVM stack traces in q
// (com/x/y/Foo.java of "at com.x.y.Foo.m(Foo.java:12)"), and of V8's
// (v8FrameFile), in the order of Python's tracebacks, innermost last: a
// JVM prints each trace, and each "Caused by:" below it, innermost first,
// and so does V8.
func javaFrames(q string) []string {
	var files, run []string
	flush := func() {
		for i := len(run) - 1; i >= 0; i-- {
			files = append(files, run[i])
		}
		run = run[:0]
	}
	for _, line := range strings.Split(q, "\n") {
		f, frame := jvmFrameFile(line), false
		if f == "" {
			f, frame = v8FrameFile(line)
		}
		switch {
		case f != "":
			run = append(run, f)
		case !frame:
			flush() // "Caused by: …", "... 12 more": the trace ends
		}
	}
	flush()
	return files
}

// jvmFrameFile returns the file of a JVM stack trace's frame ("at
// com.x.y.Foo.m(Foo.java:12)": com/x/y/Foo.java), or "".
func jvmFrameFile(line string) string {
	m := javaFrameRe.Re().FindStringSubmatch(line)
	if m == nil {
		return ""
	}
	pkg := strings.Split(strings.TrimSuffix(m[1], "."), ".")
	pkg = pkg[:len(pkg)-1] // the class, Foo or Foo$Bar
	return path.Join(append(pkg, m[2])...)
}

// v8FrameFile returns the file of a frame of a V8 stack trace (Node.js's
// and Chrome's, innermost first as a JVM's: "at check
// (/home/u/app/node_modules/eslint/lib/rules/semi.js:73:25)", or the path
// alone, or an ES module's file: URL), slashes forward and without a
// drive, or "". A frame of Node's own modules ("events.js:95:20",
// "node:internal/…") or of a built-in ("<anonymous>") names no directory
// and no file of the project: it is a frame (frame is true) without a
// file, and the trace goes on past it.
func v8FrameFile(line string) (file string, frame bool) {
	m := v8FrameRe.Re().FindStringSubmatch(line)
	if m == nil {
		return "", v8NoFileFrameRe.Re().MatchString(line)
	}
	f := strings.ReplaceAll(m[1], "\\", "/")
	f = strings.TrimPrefix(f, "file://") // file:///home/u/app/cli.mjs
	if len(f) > 3 && f[0] == '/' && f[2] == ':' && f[3] == '/' {
		f = f[1:] // file:///C:/Users/…
	}
	if len(f) > 2 && f[1] == ':' && f[2] == '/' {
		f = f[2:] // C:\Users\…
	}
	if !strings.Contains(f, "/") || strings.Contains(f, ":") {
		return "", true
	}
	return f, true
}

// deepestFrame returns the innermost of the traceback frames' files that
// is a file of the index, or "": where the error surfaced in the project.
// A JVM exception's own class (MismatchedInputException.java, its
// factory's frame innermost) is where the error was made, not where it
// surfaced, and is passed over.
func (st *state) deepestFrame(frames []string) string {
	for i := len(frames) - 1; i >= 0; i-- {
		f := frames[i]
		if throwableFile(f) {
			continue
		}
		st.hasModule("") // builds st.mods
		for _, d := range st.mods[path.Base(moduleStem(f))] {
			if pathMentioned(st.docs[d].rel, f) {
				return st.docs[d].rel
			}
		}
	}
	return ""
}

// throwableFile reports whether f is the file of a JVM exception or error
// class, by the convention of its name.
func throwableFile(f string) bool {
	stem := strings.TrimSuffix(path.Base(f), path.Ext(f))
	switch path.Ext(f) {
	case ".java", ".kt", ".scala", ".groovy":
		return strings.HasSuffix(stem, "Exception") || strings.HasSuffix(stem, "Error")
	}
	return false
}

// isIdentifierLike reports whether w is spelled as code, not prose:
// camelCase or CamelCase with a capital after the first letter, or
// snake_case with an underscore between letters.
func isIdentifierLike(w string) bool {
	if len(w) < 4 {
		return false
	}
	lower, upperAfter, under := false, false, false
	for i := 0; i < len(w); i++ {
		c := w[i]
		switch {
		case c >= 'a' && c <= 'z':
			lower = true
		case c >= 'A' && c <= 'Z' && i > 0:
			upperAfter = true
		case c == '_' && i > 0 && i < len(w)-1:
			under = true
		}
	}
	return lower && (upperAfter || under)
}

// defHit is a definition a document has for one piece of evidence.
type defHit struct {
	ev     int // index in the query's evidence
	weight float64
}

// defScores looks the evidence up among the definitions: it returns, per
// document, the evidence weight it defines (each piece's weight times the
// IDF of its definition among live documents, a qualified name counting
// for its bare name as well), the documents' hits, and the total weight
// of the evidence some document defines.
func (st *state) defScores(evs []evidence) (acc map[uint32]float64, hits map[uint32][]defHit, total float64) {
	acc, hits = map[uint32]float64{}, map[uint32][]defHit{}
	N := float64(st.live)
	for i, e := range evs {
		list := st.text.find(defPrefix + e.key)
		if list == nil {
			continue
		}
		var docs []uint32
		it := newIter(list, len(st.docs))
		for it.next() {
			if !st.dead[it.doc] {
				docs = append(docs, it.doc)
			}
		}
		if len(docs) == 0 {
			continue
		}
		df := float64(len(docs))
		if df > max(commonDefDF, commonDefShare*N) {
			continue // __init__, get, run: a name this common names no file
		}
		idf := math.Log(1 + (N-df+0.5)/(df+0.5))
		w := evidenceWeight[e.kind] * idf * (1 + math.Log(e.tf))
		total += w
		for _, d := range docs {
			acc[d] += w
			hits[d] = append(hits[d], defHit{i, w})
		}
	}
	return acc, hits, total
}

// moduleMentioned reports whether module path m (a/b/c, from a.b.c) names
// rel: rel without its extension is m or ends with /m, or rel is the
// package file of directory m (__init__.py, index.js, mod.rs).
func moduleMentioned(rel, m string) bool {
	stem := moduleStem(rel)
	return stem == m || strings.HasSuffix(stem, "/"+m)
}

// resolveModules returns, of each chain of dotted parts, the longest
// prefix of two parts or more that names a module of the index, as a
// slash path.
func (st *state) resolveModules(chains [][]string) []string {
	var out []string
	for _, c := range chains {
		for k := len(c); k >= 2; k-- {
			m := strings.Join(c[:k], "/")
			if st.hasModule(m) {
				if !slices.Contains(out, m) {
					out = append(out, m)
				}
				break
			}
		}
	}
	return out
}

// hasModule reports whether a live document is module m (moduleMentioned).
func (st *state) hasModule(m string) bool {
	st.modOnce.Do(func() {
		st.mods = map[string][]uint32{}
		for d, doc := range st.docs {
			if !st.dead[d] {
				k := moduleStem(doc.rel)
				st.mods[path.Base(k)] = append(st.mods[path.Base(k)], uint32(d))
			}
		}
	})
	for _, d := range st.mods[path.Base(m)] {
		if moduleMentioned(st.docs[d].rel, m) {
			return true
		}
	}
	return false
}

// moduleStem is rel without its extension, or the directory of a package
// file (__init__.py, index.js, mod.rs).
func moduleStem(rel string) string {
	stem := strings.TrimSuffix(rel, path.Ext(rel))
	switch path.Base(stem) {
	case "__init__", "index", "mod":
		stem = path.Dir(stem)
	}
	return stem
}
