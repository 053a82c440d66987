package memory

import (
	"path"
	"slices"
	"strings"

	"github.com/taskctl/taskctl/internal/lazyregexp"
)

// longQuery is the number of content words above which a query is read as
// running text (a bug report, a commit message) rather than a request:
// file-type words and path scopes then only boost, never filter.
const longQuery = 15

// langExts maps language and format words to file extensions.
var langExts = map[string][]string{
	"python": {".py", ".pyi", ".pyx"}, "py": {".py", ".pyi"},
	"go": {".go"}, "golang": {".go"},
	"typescript": {".ts", ".tsx", ".mts", ".cts"}, "ts": {".ts", ".tsx"}, "tsx": {".tsx"},
	"javascript": {".js", ".jsx", ".mjs", ".cjs"}, "js": {".js", ".jsx", ".mjs", ".cjs"}, "jsx": {".jsx"},
	"rust": {".rs"}, "java": {".java"}, "kotlin": {".kt", ".kts"}, "scala": {".scala"},
	"ruby": {".rb"}, "php": {".php"}, "swift": {".swift"}, "cpp": {".cc", ".cpp", ".cxx", ".hpp", ".hh", ".h"},
	"shell": {".sh", ".bash", ".zsh"}, "bash": {".sh", ".bash"}, "sh": {".sh"},
	"markdown": {".md", ".markdown", ".mdx"}, "md": {".md"}, "rst": {".rst"},
	"yaml": {".yaml", ".yml"}, "yml": {".yaml", ".yml"}, "json": {".json"}, "toml": {".toml"},
	"xml": {".xml", ".xsd"}, "html": {".html", ".htm"}, "css": {".css", ".scss", ".sass", ".less"},
	"sql": {".sql"}, "proto": {".proto"}, "protobuf": {".proto"}, "terraform": {".tf", ".tfvars"},
	"hcl": {".hcl", ".tf"}, "lua": {".lua"}, "perl": {".pl", ".pm"}, "elixir": {".ex", ".exs"},
	"haskell": {".hs"}, "csharp": {".cs"}, "dart": {".dart"}, "vue": {".vue"}, "svelte": {".svelte"},
}

// ambiguous language words count only when a type noun follows them
// ("Go files", "go code"), never alone ("go to the page"). "shell" is the
// program a command runs in ("the current shell session", "a Nix shell",
// "fish shell") more often than its scripts' language: "shell scripts"
// filters, "the shell's prompt" does not.
var ambiguous = map[string]bool{"go": true, "py": true, "ts": true, "js": true, "sh": true, "md": true, "rst": true, "yml": true, "shell": true}

// formats are data and markup formats: a subject more often than a file
// type ("serialize responses to JSON", "parse the YAML"), they filter only
// when a type noun or a role word follows them ("JSON files", "markdown
// docs", "yaml config").
var formats = map[string]bool{
	"json": true, "yaml": true, "yml": true, "toml": true, "xml": true, "html": true, "css": true,
	"markdown": true, "md": true, "rst": true, "sql": true, "proto": true, "protobuf": true, "hcl": true,
}

var typeNouns = map[string]bool{
	"file": true, "files": true, "code": true, "source": true, "sources": true, "module": true, "modules": true,
	"package": true, "packages": true, "script": true, "scripts": true, "program": true, "programs": true,
}

// Roles are kinds of file across languages.
const (
	roleTest = 1 << iota
	roleDoc
	roleConfig
)

var roleWords = map[string]int{
	"test": roleTest, "tests": roleTest, "testing": roleTest, "spec": roleTest, "specs": roleTest, "unittest": roleTest, "unittests": roleTest,
	"doc": roleDoc, "docs": roleDoc, "documentation": roleDoc, "readme": roleDoc, "readmes": roleDoc, "guide": roleDoc, "guides": roleDoc,
	"config": roleConfig, "configs": roleConfig, "configuration": roleConfig, "configurations": roleConfig, "settings": roleConfig,
}

// testKinds name kinds of tests: "unit tests", "integration tests".
var testKinds = map[string]bool{"unit": true, "integration": true, "e2e": true, "end-to-end": true, "regression": true, "smoke": true}

var negators = map[string]bool{"not": true, "no": true, "non": true, "except": true, "excluding": true, "without": true, "exclude": true, "ignore": true, "ignoring": true}

// topicWords follow a role word that names what is wanted: "tests for
// login", "docs about sessions", "config of the server".
var topicWords = map[string]bool{
	"for": true, "about": true, "of": true, "on": true, "that": true, "which": true, "with": true,
	"covering": true, "related": true, "regarding": true, "concerning": true, "describing": true,
	"explaining": true, "mentioning": true, "testing": true, "exercising": true, "in": true, "under": true,
	"where": true, "touching": true, "using": true, "around": true, "to": true,
}

var scopeWords = map[string]bool{"in": true, "under": true, "within": true, "inside": true, "beneath": true, "below": true, "from": true}

var dirNouns = map[string]bool{"directory": true, "dir": true, "folder": true, "package": true, "module": true, "tree": true, "subtree": true}

// queryNoise are words of requests ("files related to …") that name nothing.
var queryNoise = map[string]bool{
	"file": true, "files": true, "code": true, "source": true, "sources": true, "related": true, "relating": true,
	"regarding": true, "concerning": true, "directory": true, "folder": true, "dir": true,
}

// requestVerbs open a request ("find the …", "show me …", "list …") and
// name nothing there; after a content word they are the request's own
// words ("skip list", "show the diff"), and kept.
var requestVerbs = map[string]bool{"find": true, "show": true, "list": true, "look": true, "looking": true}

// isNoise reports whether words[i] names nothing: a word of queryNoise, or
// a request verb before any content word (in a long text, anywhere: a
// report's "I find that …", "the log shows …").
func isNoise(words []string, i int, long bool) bool {
	w := words[i]
	if queryNoise[w] {
		return true
	}
	if !requestVerbs[w] {
		return false
	}
	if long {
		return true
	}
	for _, v := range words[:i] {
		if !stopWords[v] && !queryNoise[v] && !requestVerbs[v] {
			return false
		}
	}
	return true
}

// parsed is a query after analysis.
type parsed struct {
	long      bool
	hist      *history // the project's commits, nil for none
	langs     []string // extensions; filter when short, boost when long
	langWord  []string
	langTyped bool     // a language word named a type of file ("Lua files", "Ruby code"), not an ecosystem ("Lua linter settings")
	roles     int      // wanted roles
	roleWords []string // the words that set roles, for a search again without them
	notRoles  int      // unwanted roles
	scopes    []string
	mentions  []string
	modules   []string          // module paths the query's dotted names spell (a/b/c), of the index
	deepest   string            // the file of the innermost traceback frame that is in the index
	evidence  []evidence        // names the query gives exactly, looked up among definitions
	subjects  map[string]bool   // a short query's terms, which a file may be named after
	heads     map[string]bool   // the first two letters of each of subjects (partsSubject)
	partners  map[string]string // a short query's partner terms, each to its label ("retry≈backoff")
	kebabs    map[string]bool   // a long text's names spelled with hyphens, whole (kebabNames)
	suffixed  map[string]bool   // a long text's class names that lead a code file's name (suffixedNames)
	words     []word            // content words, in order
	phrases   map[string][]int  // a long text's plain words, each term to its places in the prose (prosePhrases)
}

// word is a content word of a query, lower-case and as the query spells
// it: the lower-case form is what rules and word lists compare; the terms
// are read from the spelled form, so that ObjectUtils gives the parts and
// the whole form the index has for it (object, util, objectutils), not the
// stem of a lower-cased word (objectutil). Kept as one pair, the two forms
// cannot get out of step.
type word struct {
	lower, cased string
}

// addWords appends words, spelled as the query spells them, to p's.
func (p *parsed) addWords(spelled ...string) {
	for _, w := range spelled {
		p.words = append(p.words, word{lower: strings.ToLower(w), cased: w})
	}
}

// lowerWords returns p's words, lower-case, in order.
func (p *parsed) lowerWords() []string {
	lower := make([]string, len(p.words))
	for i, w := range p.words {
		lower[i] = w.lower
	}
	return lower
}

// hasWord reports whether the lower-case word w is one of p's words.
func (p *parsed) hasWord(w string) bool {
	return slices.ContainsFunc(p.words, func(x word) bool { return x.lower == w })
}

// dirHas reports whether a directory component of rel equals (ignoring
// case) one of names. It does not allocate.
func dirHas(rel string, names ...string) bool {
	for {
		c, rest, ok := strings.Cut(rel, "/")
		if !ok {
			return false // c is the base name
		}
		for _, n := range names {
			if strings.EqualFold(c, n) {
				return true
			}
		}
		rel = rest
	}
}

func baseName(rel string) string {
	if i := strings.LastIndexByte(rel, '/'); i >= 0 {
		return rel[i+1:]
	}
	return rel
}

// extOf returns the extension of the base name of rel, with its dot.
func extOf(rel string) string {
	b := baseName(rel)
	if i := strings.LastIndexByte(b, '.'); i > 0 {
		return b[i:]
	}
	return ""
}

func hasSuffixFold(s, suffix string) bool {
	return len(s) >= len(suffix) && strings.EqualFold(s[len(s)-len(suffix):], suffix)
}

func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}

// isTest reports whether rel is test code (by name or by a test directory)
// or test data (under testdata/ or fixtures/).
func isTest(rel string) bool { return isTestCode(rel) || isTestData(rel) }

func isTestData(rel string) bool {
	return dirHas(rel, "testdata", "fixtures", "__fixtures__", "__snapshots__")
}

func isTestCode(rel string) bool {
	if toolWordsOf(rel) != nil {
		return false // .github/workflows/tests.yml is CI configuration
	}
	base := baseName(rel)
	stem := strings.TrimSuffix(base, extOf(rel))
	for _, suf := range []string{"_test", ".test", ".spec", "_spec"} {
		if hasSuffixFold(stem, suf) {
			return true
		}
	}
	if hasPrefixFold(stem, "test_") || strings.EqualFold(stem, "conftest") || strings.EqualFold(stem, "tests") || strings.EqualFold(stem, "test") {
		return true
	}
	for _, suf := range []string{"Test.java", "Tests.java", "Test.kt"} {
		if strings.HasSuffix(base, suf) {
			return true
		}
	}
	return dirHas(rel, "test", "tests", "__tests__", "spec", "specs", "e2e")
}

func isDoc(rel string) bool {
	switch strings.ToLower(extOf(rel)) {
	case ".md", ".markdown", ".mdx", ".rst", ".adoc", ".txt", ".org":
		return true
	case ".ejs", ".hbs", ".handlebars", ".mustache", ".tmpl", ".tpl", ".erb", ".j2", ".jinja", ".njk", ".liquid":
		// a template of prose (needs-info.md.ejs, a bot's comment on an
		// issue) is prose
		return isDoc(strings.TrimSuffix(rel, extOf(rel)))
	case "":
		if proseNames[strings.ToLower(baseName(rel))] {
			return true
		}
	}
	return isChangeLog(rel) || isManPage(rel) || dirHas(rel, "doc", "docs", "documentation", "website", "xdoc", "xdocs") ||
		strings.HasPrefix(rel, "src/site/") || strings.Contains(rel, "/src/site/") // Maven's site
}

// isReportTemplate reports whether rel is a template of the project's
// issues or pull requests: GitHub's and GitLab's (.github/ISSUE_TEMPLATE/,
// PULL_REQUEST_TEMPLATE.md, .gitlab/issue_templates/), or documentation
// named after issues or bug reports (templates/bug-report.md,
// templates/issue-create.md.ejs, checkstyle's src/xdocs/report_issue.xml:
// how to write one).
// A code file is not one: Gitea's modules/structs/issue_template.go is
// code about templates.
func isReportTemplate(rel string) bool {
	if defLangOf(rel) != nil {
		return false
	}
	lower := strings.ToLower(rel)
	for _, t := range []string{"issue_template", "pull_request_template", "merge_request_template"} {
		if strings.Contains(lower, t) {
			return true
		}
	}
	if !isDoc(rel) || isChangeLog(rel) {
		// an entry of a change log is named after its issue (restic's
		// changelog/0.16.0/issue-4199): it says what changed, in the
		// code's words
		return false
	}
	name := strings.ToLower(baseName(rel))
	// "issue" as a word of the name: not docs/acme-issuer.md
	words := strings.FieldsFunc(name, func(r rune) bool { return r < 'a' || r > 'z' })
	return slices.Contains(words, "issue") || strings.Contains(name, "bug-report") || strings.Contains(name, "bug_report")
}

// isManPage reports whether rel is a manual page or its source: a file
// under man/ that is not code, or one whose extension is a manual's
// section (syncthing.7, git.1p) or a man page format (scdoc, ronn).
func isManPage(rel string) bool {
	ext := strings.ToLower(extOf(rel))
	switch {
	case ext == ".scd" || ext == ".ronn" || ext == ".man":
		return true
	case len(ext) >= 2 && len(ext) <= 3 && ext[1] >= '1' && ext[1] <= '9' && (len(ext) == 2 || ext[2] >= 'a' && ext[2] <= 'z'):
		return true
	}
	return dirHas(rel, "man") && defLangOf(rel) == nil
}

// isCatalogue reports whether rel is a catalogue of a user interface's
// translated strings (lang/lang-de.json, locale/fr/LC_MESSAGES/x.po): it
// holds every phrase the interface shows, so every request's words.
func isCatalogue(rel string) bool {
	switch strings.ToLower(extOf(rel)) {
	case ".po", ".pot", ".xliff", ".xlf", ".arb":
		return true
	}
	return defLangOf(rel) == nil && dirHas(rel, "lang", "langs", "locale", "locales", "i18n", "l10n", "translations")
}

// translationWords ask for a user interface's translations.
var translationWords = map[string]bool{
	"translation": true, "translations": true, "translate": true, "translated": true, "i18n": true, "l10n": true,
	"locale": true, "locales": true, "language": true, "languages": true, "localization": true, "localisation": true,
}

// changeLogNames are the stems of a project's change logs and release
// notes, whatever their format: CHANGES.md, changes.xml (Maven's),
// release-notes.vm. Each lists every change in one line of prose, so a
// report's words all meet there.
var changeLogNames = map[string]bool{
	"changes": true, "changelog": true, "change-log": true, "news": true, "history": true,
	"release-notes": true, "release_notes": true, "releasenotes": true,
}

// isChangeLog reports whether rel is a change log or an entry of one: a
// file named as one, or under a directory of entries, that is not code
// (memory/history.go is code).
func isChangeLog(rel string) bool {
	if defLangOf(rel) != nil {
		return false
	}
	stem := strings.ToLower(strings.TrimSuffix(baseName(rel), extOf(rel)))
	// or an entry of one, a file of its own: restic's
	// changelog/0.16.0/issue-4199, towncrier's newsfragments/, changesets
	return changeLogNames[stem] || dirHas(rel, "changelog", "changelogs", "changelog.d", "newsfragments", "changes.d", ".changeset", ".changes")
}

// isExample reports whether rel is under a directory of examples,
// tutorials or demos: code that documents, by showing it in use. Only the
// first three directories are looked at: a project keeps its examples
// near the top (examples/, docs/wcs/examples/), while a directory deeper
// down names a package ("org/springframework/samples/petclinic" is the
// whole of a sample application's code).
func isExample(rel string) bool {
	top, n := 0, 0
	for i := 0; i < len(rel) && n < 3; i++ {
		if rel[i] == '/' {
			top, n = i+1, n+1
		}
	}
	return dirHas(rel[:top], "example", "examples", "_examples", "tutorial", "tutorials", "demo", "demos", "sample", "samples", "gallery")
}

// vendorDirs are the top-level directories where projects keep copies of
// other projects' code (redis's deps/jemalloc, Go's vendor/).
var vendorDirs = map[string]bool{
	"vendor": true, "vendored": true, "third_party": true, "third-party": true, "thirdparty": true,
	"deps": true, "external": true, "extern": true, "node_modules": true,
}

// isVendored reports whether rel is under a top-level directory of
// vendored code.
func isVendored(rel string) bool {
	top, _, ok := strings.Cut(rel, "/")
	return ok && vendorDirs[strings.ToLower(top)]
}

// proseNames are the names of a project's prose files that have no
// extension: its licence, its change log, its authors.
var proseNames = map[string]bool{
	"license": true, "licence": true, "copying": true, "notice": true, "authors": true, "contributors": true,
	"changelog": true, "changes": true, "history": true, "news": true, "readme": true, "contributing": true,
}

func isConfig(rel string) bool {
	switch strings.ToLower(extOf(rel)) {
	case ".yaml", ".yml", ".toml", ".json", ".ini", ".cfg", ".conf", ".properties", ".env", ".hcl", ".tfvars":
		return true
	}
	switch strings.ToLower(baseName(rel)) {
	case "makefile", "dockerfile", ".editorconfig", "setup.cfg", "go.mod", "package.json", "pyproject.toml", "cargo.toml":
		return true
	}
	return toolWordsOf(rel) != nil // .flake8, Jenkinsfile, CODEOWNERS
}

func roleOf(rel string) int {
	r := 0
	if isTestCode(rel) {
		r |= roleTest
	}
	if isDoc(rel) {
		r |= roleDoc
	}
	if isConfig(rel) {
		r |= roleConfig
	}
	return r
}

func hasExt(rel string, exts []string) bool {
	e := strings.ToLower(extOf(rel))
	for _, x := range exts {
		if e == x {
			return true
		}
	}
	return false
}

// parseQuery finds file-type words, path scopes and file mentions in q and
// returns the words left for scoring. dirExists says whether a slash path
// is a directory of the index.
func parseQuery(q string, a *analyzer, dirExists func(string) bool) parsed {
	var p parsed
	p.findPaths(q, dirExists)
	// Words, for types and content. A conventional-commit label ("test:",
	// "docs(api):") says what kind of change a text describes, not what
	// kind of file is wanted; it is dropped.
	var words, cased []string
	a.words(fenceInfo.Re().ReplaceAllString(dropLabel(q), "```"), func(w string) {
		words = append(words, strings.ToLower(w))
		cased = append(cased, w)
	})
	consumed := p.findTypes(words, dirExists)
	for i := range words {
		if !consumed[i] && !isNoise(words, i, p.long) {
			p.addWords(cased[i])
		}
	}
	return p
}

// fenceInfo is a markdown code fence with its info string ("```shell",
// "```python"): how a report is laid out, not what it asks for.
var fenceInfo = lazyregexp.New("```[\\w+-]*")

// findPaths finds, in the whitespace fields of q, the path scopes ("in
// src/api/") and the files the query mentions ("head.go", "tsdb/head.go").
func (p *parsed) findPaths(q string, dirExists func(string) bool) {
	fields := strings.Fields(q)
	for i, f := range fields {
		t := cleanPathToken(f)
		if t == "" {
			t = linkedPath(f)
		}
		if t == "" {
			continue
		}
		if i > 0 && scopeWords[strings.ToLower(fields[i-1])] && strings.Contains(f, "/") {
			s := strings.Trim(strings.TrimPrefix(t, "./"), "/")
			if s != "" && dirExists(s) {
				p.scopes = append(p.scopes, s)
				continue
			}
		}
		if strings.Contains(t, "/") || looksLikeFile(t) {
			if len(p.mentions) < 32 {
				p.mentions = append(p.mentions, strings.TrimPrefix(t, "./"))
			}
		}
	}
}

// topicOf reports whether words[i], a role word, is what an earlier
// content word is about ("the man page for the configuration file", "docs
// about the config"): a topic, not a file type to filter by.
func topicOf(words []string, i, firstContent int) bool {
	if firstContent < 0 || i <= firstContent+1 {
		return false
	}
	prev := words[i-1]
	return topicWords[prev] || (prev == "the" || prev == "a" || prev == "an") && topicWords[words[i-2]]
}

// findTypes reads the words of the query (lower-case) for its length, the
// file types and roles it asks for or against ("Python files", "not
// tests") and scopes named as directories ("in the api directory"), and
// returns which words those took.
func (p *parsed) findTypes(words []string, dirExists func(string) bool) (consumed []bool) {
	content := 0
	for i, w := range words {
		if !stopWords[w] && !isNoise(words, i, true) {
			content++
		}
	}
	p.long = content > longQuery
	firstContent := -1
	for i, w := range words {
		if !stopWords[w] && !isNoise(words, i, p.long) && !negators[w] {
			firstContent = i
			break
		}
	}
	consumed = make([]bool, len(words))
	converts := !p.long && converting(words)
	for i, w := range words {
		next := ""
		if i+1 < len(words) {
			next = words[i+1]
		}
		prev := ""
		if i > 0 {
			prev = words[i-1]
		}
		// "in the api directory"
		if dirNouns[next] && i > 0 && (scopeWords[prev] || prev == "the" && i > 1 && scopeWords[words[i-2]]) && dirExists(w) {
			p.scopes = append(p.scopes, w)
			consumed[i] = true
			continue
		}
		neg := negators[prev]
		if strings.HasPrefix(w, "non-") || strings.HasPrefix(w, "non_") {
			w, neg = w[4:], true
		}
		if w == "man" && (next == "page" || next == "pages") && !p.long {
			// "the man page for the configuration file": manuals are
			// documentation (isManPage)
			p.roles |= roleDoc
			p.roleWords = append(p.roleWords, "man "+next)
			consumed[i], consumed[i+1] = true, true
			continue
		}
		if r, ok := roleWords[w]; ok && !topicOf(words, i, firstContent) {
			_, afterLang := langExts[prev]
			// A query that opens with a role word filters on it when the
			// word names what is wanted ("tests for login", "docs"), not
			// when it is the subject of a sentence ("tests fail because").
			opens := i == firstContent && (next == "" || topicWords[next])
			typed := typeNouns[next] || opens || afterLang || testKinds[prev]
			switch {
			case neg:
				p.notRoles |= r
				consumed[i] = true
			case !p.long && typed && !(converts && r == roleConfig):
				// a configuration file converted from or to a format is
				// the data the code converts, not the file wanted
				p.roles |= r
				p.roleWords = append(p.roleWords, w)
				consumed[i] = true
			case p.long && r == roleTest:
				consumed[i] = true // "the tests fail": said in passing
			case i == firstContent:
				consumed[i] = true // "tests fail because ...": the subject, said in passing
			}
			continue
		}
		_, roleNext := roleWords[next]
		if exts, ok := langExts[w]; ok && !(converts && formats[w]) && !(!p.long && producedInto(words, i)) &&
			(!ambiguous[w] && !formats[w] || typeNouns[next] || formats[w] && roleNext) {
			if typeNouns[next] || roleNext {
				p.langTyped = true
			}
			if !slices.Contains(p.langWord, w) {
				p.langs = append(p.langs, exts...)
				p.langWord = append(p.langWord, w)
			}
			consumed[i] = true
		}
	}
	return consumed
}

// converting reports whether the words (lower-case) convert data from or
// to a format ("convert an old YAML config file to TOML", "read the
// settings from JSON"): the request is about the code that does it, and
// its format words are subjects, never a filter on files of the format.
func converting(words []string) bool {
	for i := 1; i < len(words); i++ {
		if formats[words[i]] && conversionWords[words[i-1]] {
			return true
		}
	}
	return false
}

// producedInto reports whether words[i], a language word, is what a short
// request's code makes something into ("compile the Teal sources into the
// committed Lua files", "bundle the tool into one single Lua file"):
// "into" at most three words before it, with no other language word
// between. The files of that language are the product; the code that
// makes them (a build script, a bundler) is what is asked for, in
// whatever language it is written. "to" and "from" say it only just
// before a format (converting): "add type hints to Python files" asks for
// the Python files.
func producedInto(words []string, i int) bool {
	for j := i - 1; j >= 0 && j >= i-4; j-- {
		if words[j] == "into" {
			return true
		}
		if _, ok := langExts[words[j]]; ok {
			return false
		}
	}
	return false
}

var conversionWords = map[string]bool{"to": true, "into": true, "from": true}

// dropLabel removes a leading "word:" or "word(scope):" label whose word
// is a role word.
func dropLabel(q string) string {
	t := strings.TrimLeft(q, " \t\r\n")
	i := 0
	for i < len(t) && (t[i] >= 'a' && t[i] <= 'z' || t[i] >= 'A' && t[i] <= 'Z') {
		i++
	}
	if _, ok := roleWords[strings.ToLower(t[:i])]; !ok || i == 0 {
		return q
	}
	rest := t[i:]
	if strings.HasPrefix(rest, "(") {
		j := strings.IndexByte(rest, ')')
		if j < 0 {
			return q
		}
		rest = rest[j+1:]
	}
	rest = strings.TrimPrefix(rest, "!")
	if !strings.HasPrefix(rest, ":") {
		return q
	}
	return rest[1:]
}

// cleanPathToken strips quotes, brackets, trailing punctuation and line
// suffixes (":12", ":12:3", "#L12", and ":12:" as warnings and compilers
// print them: "x/y.py:470: FutureWarning") from a whitespace field, and
// turns a Windows path's backslashes into slashes.
func cleanPathToken(f string) string {
	f = strings.Trim(f, "\"'`()[]{}<>,;")
	if i := strings.Index(f, "#L"); i > 0 {
		f = f[:i]
	}
	for {
		f = strings.TrimRight(f, ".:")
		i := strings.LastIndexByte(f, ':')
		if i <= 0 || !allDigits([]byte(f[i+1:])) {
			break
		}
		f = f[:i]
	}
	if strings.Contains(f, "\\") && !strings.Contains(f, "/") {
		f = strings.ReplaceAll(f, "\\", "/")
	}
	if strings.Contains(f, "://") {
		return ""
	}
	return f
}

// linkedPath returns the path of a file that a link in field f shows in a
// repository's tree, "" if it has none: GitHub's and GitLab's
// https://host/owner/repo/blob/REF/a/b.py#L34 (also /tree/, /-/blob/,
// and inside a markdown link "[text](url)") is a/b.py.
func linkedPath(f string) string {
	i := strings.Index(f, "://")
	if i < 0 {
		return ""
	}
	u := f[i+3:]
	for _, seg := range []string{"/blob/", "/tree/"} {
		if j := strings.Index(u, seg); j >= 0 {
			_, rest, ok := strings.Cut(u[j+len(seg):], "/") // after the ref
			if !ok {
				return ""
			}
			if k := strings.IndexAny(rest, "?#"); k >= 0 {
				rest = rest[:k]
			}
			return cleanPathToken(rest)
		}
	}
	return ""
}

// looksLikeFile reports whether t is a bare file name with a known extension.
func looksLikeFile(t string) bool {
	ext := strings.ToLower(path.Ext(t))
	if len(ext) < 2 || ext == t {
		return false
	}
	for _, exts := range langExts {
		for _, x := range exts {
			if x == ext {
				return true
			}
		}
	}
	return false
}
