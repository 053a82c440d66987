package memory_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/taskctl/taskctl/memory"
)

// A request verb that opens a request names nothing ("find", "list"); after
// a content word it is the request's own ("skip list"), and with its
// neighbour it spells the compound the code writes (skiplist).
func TestRequestVerbsAfterContent(t *testing.T) {
	root := writeTree(t, withFiller(map[string]string{
		"src/zset.c": "/* Sorted sets are kept in a skiplist, used for ranges. */\nint zslInsert(zskiplist *zsl) { return skiplistInsert(zsl); }\n",
		"src/cmd.c":  "/* the sorted sets used by a command */\nint runCommand(void) { return 0; }\n",
		"src/find.c": "/* the find results: find them, and show them */\nint findShow(void) { return 0; }\n",
	}))
	ix, _ := build(t, root)
	got := rels(ix.Search("skip list used by sorted sets", memory.SearchOptions{}))
	if len(got) == 0 || got[0] != "src/zset.c" {
		t.Errorf("skip list: ranking = %v, want src/zset.c first", got)
	}
	got = rels(ix.Search("find the sorted sets", memory.SearchOptions{}))
	if slices.Contains(got, "src/find.c") {
		t.Errorf("find the sorted sets: the opening verb matched src/find.c: %v", got)
	}
}

// A file named after several of a request's words, in any order, is named
// after the request: "range of lines" is line_range.rs, above a file that
// says the words more often.
func TestNamedAfterParts(t *testing.T) {
	root := writeTree(t, withFiller(map[string]string{
		"src/line_range.rs": "pub struct LineRange { lower: usize, upper: usize }\n\nimpl LineRange {\n    pub fn from(s: &str) -> LineRange { todo!() }\n}\n",
		"src/controller.rs": "// print the range of lines the user asked for; print lines, print ranges\n" +
			"fn print_file_ranges(ranges: LineRanges) { print_lines(ranges) }\nfn print_lines(lines: LineRanges) {}\n",
		"src/PetValidator.java": "class PetValidator { void validate(Pet pet) {} }\n",
		"src/Pet.java":          "class Pet { String name; void setName(String name) {} // the pet's name, and its form\n}\n",
	}))
	ix, _ := build(t, root)
	ms := ix.Search("print only a range of lines", memory.SearchOptions{Explain: true})
	got := rels(ms)
	if len(got) == 0 || got[0] != "src/line_range.rs" {
		t.Fatalf("range of lines: ranking = %v, want src/line_range.rs first", got)
	}
	if !slices.Contains(ms[0].Reason.Notes, "named after line range") {
		t.Errorf("reason of line_range.rs: notes %v, want \"named after line range\"", ms[0].Reason.Notes)
	}
	got = rels(ix.Search("validator for the pet form", memory.SearchOptions{}))
	if len(got) == 0 || got[0] != "src/PetValidator.java" {
		t.Errorf("validator for the pet form: ranking = %v, want src/PetValidator.java first", got)
	}
	// one word of two is not the name
	ms = ix.Search("the pet's name", memory.SearchOptions{Explain: true})
	for _, m := range ms {
		if m.Rel == "src/PetValidator.java" && slices.ContainsFunc(m.Reason.Notes, func(n string) bool { return strings.HasPrefix(n, "named after") }) {
			t.Errorf("PetValidator.java named after one of its words: %v", m.Reason.Notes)
		}
	}
}

// A tool file that a request names by its job passes the request's
// language filter: the formatting settings of "the Rust code" are
// rustfmt.toml's.
func TestToolFilePassesLanguageFilter(t *testing.T) {
	root := writeTree(t, withFiller(map[string]string{
		"rustfmt.toml":     "max_width = 100\nedition = \"2021\"\n",
		"src/settings.rs":  "// formatting settings of the output\npub struct Settings { formatting: bool }\n",
		"src/format.rs":    "// formatting of numbers\npub fn format_number(n: u32) -> String { n.to_string() }\n",
		"docs/settings.md": "# Settings\n\nFormatting settings.\n",
	}))
	ix, _ := build(t, root)
	got := rels(ix.Search("formatting settings for the Rust code", memory.SearchOptions{}))
	if !slices.Contains(got, "rustfmt.toml") {
		t.Errorf("ranking = %v, want rustfmt.toml among them", got)
	}
	// the filter still holds for other files that are not Rust
	if slices.Contains(got, "docs/settings.md") {
		t.Errorf("ranking = %v: a markdown file passed the Rust filter", got)
	}
}

// Example code is demoted in a short request as in a long text, unless the
// request asks for examples; a package deep in the tree named "samples"
// is no example directory.
func TestExamplesDemotedForRequests(t *testing.T) {
	root := writeTree(t, withFiller(map[string]string{
		"lib/response.js":                            "/**\n * Respond in the format the client accepts.\n */\nres.format = function(obj) { return negotiate(obj) }\n",
		"examples/negotiation/index.js":              "// content negotiation: respond with the format the client accepts\napp.get('/', function(req, res) { res.format({ html: html, json: json }) })\n",
		"src/main/java/org/samples/shop/Format.java": "class Format { /** respond in the format the client accepts */ void respond() {} }\n",
	}))
	ix, _ := build(t, root)
	ms := ix.Search("respond in the format the client accepts", memory.SearchOptions{Explain: true})
	checkOnlyNoted(t, ms, "example code demoted", "examples/negotiation/index.js")
	ms = ix.Search("examples of content negotiation", memory.SearchOptions{Explain: true})
	if len(ms) == 0 || ms[0].Rel != "examples/negotiation/index.js" || slices.Contains(ms[0].Reason.Notes, "example code demoted") {
		t.Errorf("asking for examples: %v", ms)
	}
}

// Vendored code (a top-level deps/, vendor/, third_party/) is demoted in a
// short request: the request is about the project.
func TestVendoredDemotedForRequests(t *testing.T) {
	root := writeTree(t, withFiller(map[string]string{
		"deps/jemalloc/src/arena.c": "/* release values on a background thread of the allocator */\nvoid backgroundRelease(void) {}\n",
		"src/lazyfree.c":            "/* release values on a background thread, lazily */\nvoid lazyRelease(void) {}\n",
		"src/deps/graph.c":          "/* release the background graph */\nvoid graphRelease(void) {}\n",
	}))
	ix, _ := build(t, root)
	ms := ix.Search("release values on a background thread", memory.SearchOptions{Explain: true})
	got := rels(ms)
	if len(got) < 2 || got[0] != "src/lazyfree.c" {
		t.Fatalf("ranking = %v, want src/lazyfree.c first", got)
	}
	checkOnlyNoted(t, ms, "vendored code demoted", "deps/jemalloc/src/arena.c")
}

// checkFirst fails t for each query of want whose first match is not the
// file want gives it.
func checkFirst(t *testing.T, ix *memory.Index, want map[string]string) {
	t.Helper()
	for q, rel := range want {
		got := rels(ix.Search(q, memory.SearchOptions{}))
		if len(got) == 0 || got[0] != rel {
			t.Errorf("Search(%q) = %v, want %s first", q, got, rel)
		}
	}
}

// checkOnlyNoted fails t for each of ms that has note and is not the file
// rel, or is rel and has not.
func checkOnlyNoted(t *testing.T, ms []memory.Match, note, rel string) {
	t.Helper()
	for _, m := range ms {
		noted := slices.Contains(m.Reason.Notes, note)
		if want := m.Rel == rel; noted != want {
			t.Errorf("%s: %q %v, want %v (notes %v)", m.Rel, note, noted, want, m.Reason.Notes)
		}
	}
}

// withFiller adds to files unrelated files, so that the words of a test's
// files are rare in the tree as they would be in a project.
func withFiller(files map[string]string) map[string]string {
	for _, name := range []string{"net", "disk", "auth", "user", "clock", "mail", "queue", "shell"} {
		files["misc/"+name+".c"] = "/* " + name + " handling */\nint " + name + "Open(void) { return 0; }\n"
	}
	return files
}

// Tool files of several ecosystems are found by the tool's name, or by
// their job beside a word asking for configuration; the job's word alone
// does not lift them.
func TestToolFilesAcrossEcosystems(t *testing.T) {
	root := writeTree(t, withFiller(map[string]string{
		".goreleaser.yml":  "builds:\n  - goos: [linux, darwin]\narchives:\n  - format: tar.gz\n",
		"package.json":     "{\n  \"name\": \"app\",\n  \"scripts\": {\"test\": \"mocha\"}\n}\n",
		".editorconfig":    "root = true\n[*]\nindent_style = tab\n",
		"cmd/release.go":   "package cmd\n\n// release publishes a release of the packages and their dependencies.\nfunc release(deps []string) {}\n",
		"src/deps.js":      "// resolve the dependencies of a package\nfunction resolveDependencies(pkg) { return pkg.dependencies }\n",
		"src/indent.js":    "// indentation of the output: whitespace per level\nfunction indent(level) { return ' '.repeat(level) }\n",
		".github/renovate": "not a tool file: renovate's name is renovate.json\n",
	}))
	ix, _ := build(t, root)
	checkFirst(t, ix, map[string]string{
		"release configuration":               ".goreleaser.yml",
		"goreleaser settings":                 ".goreleaser.yml",
		"npm scripts":                         "package.json",
		"dependency manifest config":          "package.json",
		"indentation and whitespace settings": ".editorconfig",
	})
	for q, notWant := range map[string]string{
		"publish a release of the packages": ".goreleaser.yml",
		"resolve the dependencies":          "package.json",
	} {
		got := rels(ix.Search(q, memory.SearchOptions{}))
		if len(got) > 0 && got[0] == notWant {
			t.Errorf("Search(%q) = %v: %s first from its job's word alone", q, got, notWant)
		}
	}
}

// The wider thesaurus: "check … before saving" finds the validator
// through check≈validate and save≈persist, shown in the reason, and an
// exact word still counts more than its partner.
func TestWiderConcepts(t *testing.T) {
	root := writeTree(t, withFiller(map[string]string{
		"owner/pet_validator.py": "def validate_pet(pet):\n    \"\"\"Validate a pet's name and birth date before it is persisted.\"\"\"\n",
		"owner/pet.py":           "class Pet:\n    \"\"\"A pet: its name, its birth date, its owner.\"\"\"\n",
		"owner/checks.py":        "def check_name(name):\n    \"\"\"Check a name before saving it.\"\"\"\n",
	}))
	ix, _ := build(t, root)
	ms := ix.Search("check the birth date before saving", memory.SearchOptions{Explain: true})
	got := rels(ms)
	i := slices.Index(got, "owner/pet_validator.py")
	if i < 0 || i > 1 {
		t.Fatalf("ranking = %v, want owner/pet_validator.py in the first two", got)
	}
	if !strings.Contains(ms[i].Reason.String(), "≈valid") {
		t.Errorf("reason %q names no concept partner of check", ms[i].Reason.String())
	}
	// the exact word first: checks.py says check and saving themselves
	got = rels(ix.Search("check a name before saving", memory.SearchOptions{}))
	if len(got) == 0 || got[0] != "owner/checks.py" {
		t.Errorf("ranking = %v, want owner/checks.py first", got)
	}
}

// Example directories are among the first three of a path: docs/wcs/examples/
// is one (a doc that names the request's language is not demoted as a doc,
// but as an example).
func TestExampleDirectoriesNearTheTop(t *testing.T) {
	root := writeTree(t, withFiller(map[string]string{
		"docs/wcs/examples/cube.py": "# an example cube: slice the world coordinates\ncube = slice_world(3)\n",
		"lib/wcs/slice.py":          "def slice_world(n):\n    \"\"\"Slice the world coordinates.\"\"\"\n",
	}))
	ix, _ := build(t, root)
	ms := ix.Search("slice the world coordinates in Python code", memory.SearchOptions{Explain: true})
	if len(ms) != 2 {
		t.Fatalf("ranking = %v, want both Python files", rels(ms))
	}
	checkOnlyNoted(t, ms, "example code demoted", "docs/wcs/examples/cube.py")
}

// A stop word in a file's name is not asked for: lines_in_range.rs is
// named after "print only a range of lines", whose "in" is not said.
func TestNamedAfterPartsSkipsStopWords(t *testing.T) {
	root := writeTree(t, withFiller(map[string]string{
		"src/lines_in_range.rs": "pub struct LineRange { lower: usize, upper: usize }\n",
		"src/controller.rs": "// print the range of lines the user asked for; print lines, print ranges\n" +
			"fn print_file_ranges(ranges: LineRanges) { print_lines(ranges) }\nfn print_lines(lines: LineRanges) {}\n",
	}))
	ix, _ := build(t, root)
	ms := ix.Search("print only a range of lines", memory.SearchOptions{Explain: true})
	for _, m := range ms {
		if m.Rel == "src/lines_in_range.rs" {
			if !slices.Contains(m.Reason.Notes, "named after lines range") {
				t.Fatalf("reason of lines_in_range.rs: notes %v, want \"named after lines range\"", m.Reason.Notes)
			}
			return
		}
	}
	t.Fatalf("lines_in_range.rs not found: %v", rels(ms))
}

// Tool files of test runners, code generators and installers: named by
// the tool, found by their job beside a word asking for configuration. A
// test runner's configuration is no test file, so "test" in the request
// does not filter it away; an installer is matched by its name's end.
func TestToolFilesOfRunnersAndInstallers(t *testing.T) {
	root := writeTree(t, withFiller(map[string]string{
		"vitest.config.ts":          "import { defineConfig } from 'vitest/config'\nexport default defineConfig({ test: { globals: true } })\n",
		"src/router.test.ts":        "// the runner runs the router's unit tests\ntest('route', () => { run() })\n",
		"src/runner.ts":             "// run the handlers of a request in order: the request runner\nexport function runHandlers() {}\n",
		"buf.gen.yaml":              "version: v2\nplugins:\n  - remote: buf.build/protocolbuffers/go\n    out: lib\n",
		"proto/api.proto":           "// settings of the API, generated code\nmessage Settings { string name = 1; }\n",
		"windows/wix/app.wxs":       "<Wix><Package Name=\"app\"><MajorUpgrade /></Package></Wix>\n",
		"src/display/window.rs":     "// the window of the Windows build: its definition\npub struct Window {}\n",
		".github/workflows/rel.yml": "on: [push]\njobs:\n  windows:\n    runs-on: windows-latest\n",
	}))
	ix, _ := build(t, root)
	checkFirst(t, ix, map[string]string{
		"unit test runner configuration":    "vitest.config.ts",
		"protobuf code generation settings": "buf.gen.yaml",
		"Windows MSI installer definition":  "windows/wix/app.wxs",
	})
	// without a word asking for configuration, the tests are what is
	// asked for
	got := rels(ix.Search("tests of the router", memory.SearchOptions{}))
	if slices.Contains(got, "vitest.config.ts") {
		t.Errorf("tests of the router: ranking %v holds the runner's configuration", got)
	}
}

// A version written apart from its name is the name the code joins it to:
// "HTTP/2" is http2.py, above http.py, which has only "http".
func TestVersionCompounds(t *testing.T) {
	root := writeTree(t, withFiller(map[string]string{
		"handlers/http.py":  "class HTTPDownloadHandler:\n    \"\"\"Download over HTTP: every download.\"\"\"\n",
		"handlers/http2.py": "class H2DownloadHandler:\n    \"\"\"Streams of one connection.\"\"\"\n",
		"handlers/ftp.py":   "class FTPDownloadHandler:\n    \"\"\"Download over FTP.\"\"\"\n",
	}))
	ix, _ := build(t, root)
	ms := ix.Search("HTTP/2 multiplexed downloads", memory.SearchOptions{Explain: true})
	got := rels(ms)
	if len(got) == 0 || got[0] != "handlers/http2.py" {
		t.Fatalf("ranking = %v, want handlers/http2.py first", got)
	}
	if !strings.Contains(ms[0].Reason.String(), "http 2") {
		t.Errorf("reason %q does not show the compound http 2", ms[0].Reason.String())
	}
}

// A file named after a partner of a request's word (retry≈backoff) is
// named after the request, less surely than after its own word: it ranks
// above a file that has the words as often, and the reason says why.
func TestNamedAfterPartner(t *testing.T) {
	root := writeTree(t, withFiller(map[string]string{
		"upload/backoff.go": "package upload\n\n// wait longer before each upload of a part that failed\nfunc wait(part int) {}\n",
		"upload/parts.go":   "package upload\n\n// upload the parts of a file; a part that failed is retried, and retried again\nfunc parts(part int) {}\n",
		"upload/retry.go":   "package upload\n\n// the request of a part\nfunc request(part int) {}\n",
	}))
	ix, _ := build(t, root)
	ms := ix.Search("retry an upload that failed", memory.SearchOptions{Explain: true})
	got := rels(ms)
	if len(got) < 2 || got[0] != "upload/retry.go" || got[1] != "upload/backoff.go" {
		t.Fatalf("ranking = %v, want upload/retry.go (its own word), then upload/backoff.go (its partner)", got)
	}
	if !slices.Contains(ms[1].Reason.Notes, "named after retry≈backoff") {
		t.Errorf("notes of backoff.go: %v, want \"named after retry≈backoff\"", ms[1].Reason.Notes)
	}
}

// Manual pages are documentation (syncthing.7, alacritty.5.scd, files
// under man/), and "man page" asks for them; a role word that a request's
// subject is about ("for the configuration file") is its topic, not a
// filter. A catalogue of translated interface strings holds every
// request's words: it is demoted, unless translations are asked for.
func TestManPagesAndCatalogues(t *testing.T) {
	root := writeTree(t, withFiller(map[string]string{
		"extra/man/app.5.scd":          "app(5)\n\n# NAME\n\napp - the configuration file of app\n\n# SYNTAX\n\nkeys of the configuration file\n",
		"Makefile":                     "MANPAGE = extra/man/app.1.scd\nman:\n\tscdoc < $(MANPAGE) > app.1 # the man page\n",
		"man/app-versioning.7":         ".SH STAGGERED\nversions older than the maximum age are deleted\n",
		"lib/versioner/staggered.go":   "package versioner\n\n// Staggered keeps fewer versions the older they are.\nfunc Staggered(maxAge int) {}\n",
		"gui/assets/lang/lang-de.json": "{\"Keep fewer old versions\": \"Weniger alte Versionen behalten\", \"older\": \"älter\"}\n",
		"gui/assets/lang/lang-fr.json": "{\"Keep fewer old versions\": \"Garder moins de versions\", \"older\": \"plus vieux\"}\n",
		"lib/config/configuration.go":  "package config\n\n// the configuration file\nfunc Load() {}\n",
	}))
	ix, _ := build(t, root)
	got := rels(ix.Search("man page for the configuration file", memory.SearchOptions{}))
	if len(got) == 0 || got[0] != "extra/man/app.5.scd" {
		t.Errorf("man page: ranking = %v, want extra/man/app.5.scd first", got)
	}
	ms := ix.Search("keep fewer old versions", memory.SearchOptions{Explain: true})
	if got := rels(ms); len(got) == 0 || got[0] != "lib/versioner/staggered.go" {
		t.Errorf("keep fewer old versions: ranking = %v, want lib/versioner/staggered.go first", got)
	}
	for _, m := range ms {
		if m.Rel == "gui/assets/lang/lang-de.json" && !slices.Contains(m.Reason.Notes, "translations demoted") {
			t.Errorf("notes of the German catalogue: %v, want \"translations demoted\"", m.Reason.Notes)
		}
		if m.Rel == "man/app-versioning.7" && !slices.Contains(m.Reason.Notes, "documentation demoted") {
			t.Errorf("notes of the man page: %v, want \"documentation demoted\"", m.Reason.Notes)
		}
	}
	for _, m := range ix.Search("translations of keep fewer old versions", memory.SearchOptions{Explain: true}) {
		if strings.HasPrefix(m.Rel, "gui/assets/lang/") && slices.Contains(m.Reason.Notes, "translations demoted") {
			t.Errorf("asking for translations: %s demoted: %v", m.Rel, m.Reason.Notes)
		}
	}
}

// An entry of a change log kept as a file of its own (restic's
// changelog/0.16.0/issue-4199, towncrier's newsfragments/) is
// documentation: a request about the code ranks the code above it.
func TestChangeLogEntries(t *testing.T) {
	root := writeTree(t, withFiller(map[string]string{
		"changelog/0.16.0_2023-07-31/issue-4199": "Bugfix: limit the upload speed on slow network connections\n\nThe upload limiter now limits the network speed of uploads.\n",
		"newsfragments/123.feature":              "The upload speed is limited on slow networks.\n",
		"internal/limiter/limiter.go":            "package limiter\n\n// Limiter caps the upload speed on the network.\nfunc Upload(rate int) {}\n",
	}))
	ix, _ := build(t, root)
	ms := ix.Search("limit the upload speed on the network", memory.SearchOptions{Explain: true})
	if got := rels(ms); len(got) == 0 || got[0] != "internal/limiter/limiter.go" {
		t.Errorf("ranking = %v, want internal/limiter/limiter.go first", got)
	}
	for _, m := range ms {
		if !strings.HasPrefix(m.Rel, "internal/") && !slices.Contains(m.Reason.Notes, "documentation demoted") {
			t.Errorf("%s: notes %v, want \"documentation demoted\"", m.Rel, m.Reason.Notes)
		}
	}
}

// Documentation is demoted in a short request as in a long text: its
// prose says every request's words (a man page's section, a change log's
// lines), while the code that does the work says few of them. A prose
// file a request names by what it is (the changelog), or a template it
// asks for, is not.
func TestDocumentationDemotedInRequests(t *testing.T) {
	root := writeTree(t, withFiller(map[string]string{
		"src/ipc.rs": "// listen on the socket for messages of other instances\npub fn listen(socket: &Path) {}\n",
		"docs/features.md": "# Features\n\nSend commands to a running instance over a socket: `app msg` sends commands to " +
			"the running instance. Commands are sent over the socket.\n",
		"CHANGELOG.md":                         "# Changelog\n\n## 0.2\n\n- Send commands over the socket\n",
		"docs/release_notes.rst":               "Release notes\n=============\n\nVersion 0.2.\n",
		".github/ISSUE_TEMPLATE/bug_report.md": "---\nname: Bug report\n---\n\nDescribe the bug. Which commands did you send?\n",
	}))
	ix, _ := build(t, root)
	got := rels(ix.Search("send commands to a running instance over a socket", memory.SearchOptions{}))
	if len(got) == 0 || got[0] != "src/ipc.rs" {
		t.Errorf("ranking = %v, want src/ipc.rs first", got)
	}
	for q, want := range map[string]string{
		"the changelog":                  "CHANGELOG.md",
		"release notes":                  "docs/release_notes.rst",
		"issue template for bug reports": ".github/ISSUE_TEMPLATE/bug_report.md",
	} {
		ms := ix.Search(q, memory.SearchOptions{Explain: true})
		if len(ms) == 0 || ms[0].Rel != want {
			t.Errorf("Search(%q) = %v, want %s first", q, rels(ms), want)
		} else if slices.Contains(ms[0].Reason.Notes, "documentation demoted") {
			t.Errorf("Search(%q): %s demoted though asked for: %v", q, want, ms[0].Reason.Notes)
		}
	}
}

// A request of one line that opens as a task list's line does ("[ ] items
// render as checkboxes", about rendering task lists) is the request, not a
// template's confirmation: it is searched, not dropped.
func TestOneLineTaskListRequest(t *testing.T) {
	root := writeTree(t, withFiller(map[string]string{
		"render/tasklist.go": "package render\n\n// render the items of a task list as checkboxes\nfunc TaskList() {}\n",
		"render/table.go":    "package render\n\n// render a table\nfunc Table() {}\n",
	}))
	ix, _ := build(t, root)
	checkFirst(t, ix, map[string]string{
		"[ ] items render as checkboxes":               "render/tasklist.go",
		"- [x] task list items render as checkboxes\n": "render/tasklist.go",
	})
}

// A role word is a tool file's job word: "unit test configuration" asks
// for the test runner's configuration (vitest.config.ts), which passes the
// filter to tests as a tool file the request names.
func TestRoleWordNamesToolJob(t *testing.T) {
	root := writeTree(t, withFiller(map[string]string{
		"vitest.config.ts":   "import { defineConfig } from 'vitest/config'\nexport default defineConfig({ test: { globals: true } })\n",
		"src/router.test.ts": "// the router's unit tests\ntest('route', () => { run() })\n",
		"src/config.ts":      "// the configuration of the router\nexport const config = {}\n",
	}))
	ix, _ := build(t, root)
	got := rels(ix.Search("unit test configuration", memory.SearchOptions{}))
	if len(got) == 0 || got[0] != "vitest.config.ts" {
		t.Errorf("unit test configuration: ranking = %v, want vitest.config.ts first", got)
	}
}

// The governance and maintainers files are asked for by their names and
// not demoted then; SECURITY.md and SUPPORT.md are not asked for by
// "security" or "support", words of requests for code.
func TestProseFilesNamedByWhatTheyAre(t *testing.T) {
	root := writeTree(t, withFiller(map[string]string{
		"GOVERNANCE.md":  "# Governance\n\nHow the project decides: maintainers vote.\n",
		"MAINTAINERS.md": "# Maintainers\n\nThe people who review and merge.\n",
		"SECURITY.md":    "# Security\n\nReport a vulnerability privately. TLS support is tested.\n",
		"SUPPORT.md":     "# Support\n\nAsk questions in the forum.\n",
		"tls/config.go":  "package tls\n\n// security settings of TLS connections: support for TLS 1.3\nfunc Config() {}\n",
	}))
	ix, _ := build(t, root)
	for q, want := range map[string]string{"project governance": "GOVERNANCE.md", "list of maintainers": "MAINTAINERS.md"} {
		ms := ix.Search(q, memory.SearchOptions{Explain: true})
		if len(ms) == 0 || ms[0].Rel != want || slices.Contains(ms[0].Reason.Notes, "documentation demoted") {
			t.Errorf("Search(%q) = %v, want %s first and not demoted", q, rels(ms), want)
		}
	}
	for _, m := range ix.Search("security support for TLS", memory.SearchOptions{Explain: true}) {
		if (m.Rel == "SECURITY.md" || m.Rel == "SUPPORT.md") && !slices.Contains(m.Reason.Notes, "documentation demoted") {
			t.Errorf("%s: notes %v, want \"documentation demoted\"", m.Rel, m.Reason.Notes)
		}
	}
}

// A file in no programming language is demoted in a short request that
// asks for no configuration, unless it is a tool's file: a platform's
// build script has the words of a request about the code.
func TestOtherFilesDemotedInRequests(t *testing.T) {
	root := writeTree(t, withFiller(map[string]string{
		"src/tool_dirhie.c":            "/* create the missing directories of a path before writing a file */\nint create_dirs(const char *path) { return 0; }\n",
		"projects/vms/build_notes.com": "$! create missing directories before writing the notes file\n$ create/directory [.notes]\n$ write sys$output \"path\"\n",
		"Dockerfile.relay":             "FROM alpine\n# the relay server's container image\nCOPY relay /bin/relay\n",
		"relay/server.go":              "// Package relay is the relay server: it relays connections for the image.\npackage relay\n",
		"deploy/app.service":           "[Unit]\nDescription=worker\n[Service]\nExecStart=/usr/bin/app worker\n",
		"worker/worker.py":             "# the worker process: runs jobs as they come\ndef run_worker(): pass\n",
		"app.gemspec":                  "Gem::Specification.new do |s|\n  s.name = 'app' # gem packaging of the worker\nend\n",
		"Rakefile":                     "desc 'release tasks of the worker'\ntask :release do\nend\n",
	}))
	ix, _ := build(t, root)
	ms := ix.Search("create missing directories before writing a file", memory.SearchOptions{Explain: true})
	if got := rels(ms); len(got) == 0 || got[0] != "src/tool_dirhie.c" {
		t.Errorf("ranking = %v, want src/tool_dirhie.c first", got)
	}
	checkOnlyNoted(t, ms, "not code: demoted", "projects/vms/build_notes.com")
	// asked for configuration, the script is not demoted
	ms = ix.Search("build configuration for missing directories", memory.SearchOptions{Explain: true})
	checkOnlyNoted(t, ms, "not code: demoted", "")
	// a tool's file is not demoted, and one whose tool the request names
	// is named after it
	ms = ix.Search("container image for the relay server", memory.SearchOptions{Explain: true})
	checkOnlyNoted(t, ms, "not code: demoted", "")
	if !slices.Contains(rels(ms), "Dockerfile.relay") {
		t.Errorf("container image for the relay server: %v", rels(ms))
	}
	ms = ix.Search("systemd unit for running the worker", memory.SearchOptions{Explain: true})
	checkOnlyNoted(t, ms, "named after systemd", "deploy/app.service")
	// Ruby's package definition and task file are tools' files, as
	// setup.py and a Makefile are
	// (the notes file, which release≃note of the commit table brings in,
	// is demoted as it should be)
	ms = ix.Search("gem packaging and the worker's release tasks", memory.SearchOptions{Explain: true})
	checkOnlyNoted(t, ms, "not code: demoted", "projects/vms/build_notes.com")
	for _, rel := range []string{"app.gemspec", "Rakefile"} {
		if !slices.Contains(rels(ms), rel) {
			t.Errorf("gem packaging and the worker's release tasks: %v lacks %s", rels(ms), rel)
		}
	}
}

// A request that converts from or to a format is about the code that does
// it: its format words and its "config file" filter nothing.
func TestConversionRequestsDoNotFilter(t *testing.T) {
	root := writeTree(t, withFiller(map[string]string{
		"src/migrate/yaml.rs": "/// Migrate a legacy YAML config file to TOML.\npub fn migrate(path: &Path) -> Result<()> { Ok(()) }\n",
		"ci/build.yml":        "steps:\n  - run: cargo build --config old.toml\n  - run: convert yaml\n",
		"Cargo.toml":          "[dependencies]\ntoml = \"0.8\"\nserde_yaml = \"0.9\"\n",
	}))
	ix, _ := build(t, root)
	checkFirst(t, ix, map[string]string{
		"convert an old YAML config file to TOML": "src/migrate/yaml.rs",
	})
	// without a conversion, "YAML config" still filters
	got := rels(ix.Search("YAML config for the build", memory.SearchOptions{}))
	if slices.Contains(got, "src/migrate/yaml.rs") {
		t.Errorf("YAML config for the build: %v holds a Rust file", got)
	}
}

// A request that names a format means its files even when the format
// word does not filter: "SQL table definitions" does not demote the
// schema as a file that is not code.
func TestNamedFormatNotDemoted(t *testing.T) {
	root := writeTree(t, withFiller(map[string]string{
		"db/schema.sql":  "CREATE TABLE vets (id INTEGER);\nCREATE TABLE owners (id INTEGER);\n",
		"model/Vet.java": "@Table(name = \"vets\")\nclass Vet { /** the table definitions of vets */ }\n",
		"build/rules.mk": "# table definitions build\ntables: schema\n",
	}))
	ix, _ := build(t, root)
	ms := ix.Search("SQL table definitions", memory.SearchOptions{Explain: true})
	checkOnlyNoted(t, ms, "not code: demoted", "build/rules.mk")
}

// A request about a shell finds the code named after it: "shell" there
// is the program, not a filter to shell scripts.
func TestShellRequestFindsCode(t *testing.T) {
	root := writeTree(t, withFiller(map[string]string{
		"src/modules/nix_shell.rs": "// Shows whether the nix-shell environment is pure or impure.\npub fn module() -> bool { true }\n",
		"install/install.sh":       "#!/bin/sh\n# installs the binary into the environment, with nix if there\necho nix\n",
		"src/modules/python.rs":    "// Shows the Python version.\npub fn module() -> bool { false }\n",
	}))
	ix, _ := build(t, root)
	got := rels(ix.Search("indicator for a Nix shell environment, pure or impure", memory.SearchOptions{}))
	if len(got) == 0 || got[0] != "src/modules/nix_shell.rs" {
		t.Errorf("ranking = %v, want src/modules/nix_shell.rs first", got)
	}
	got = rels(ix.Search("shell scripts that install the binary", memory.SearchOptions{}))
	if len(got) == 0 || got[0] != "install/install.sh" {
		t.Errorf("shell scripts: ranking = %v, want install/install.sh first", got)
	}
}

// A prefixed word no file has matches its base ("rewrap": wrap); a word
// the tree has is never read without its prefix ("report" is no "port").
func TestPrefixedWordTheIndexLacks(t *testing.T) {
	root := writeTree(t, withFiller(map[string]string{
		"grid/resize.rs":  "// Resize the grid to the window: wrap lines that no longer fit.\nfn wrap_line(window: usize) -> usize { window }\n",
		"display/view.rs": "// Lines of the window.\nfn lines(window: usize) -> usize { window }\n",
		"net/port.rs":     "// The port a server listens on.\nfn port() -> u16 { 80 }\n",
		"net/report.rs":   "// A report of the session.\nfn report() {}\n",
	}))
	ix, _ := build(t, root)
	ms := ix.Search("rewrap lines when the window gets narrower", memory.SearchOptions{Explain: true})
	if len(ms) == 0 || ms[0].Rel != "grid/resize.rs" {
		t.Fatalf("rewrap: ranking = %v, want grid/resize.rs first", rels(ms))
	}
	got := rels(ix.Search("report of the session", memory.SearchOptions{}))
	if slices.Contains(got, "net/port.rs") {
		t.Errorf("report: ranking = %v, port.rs matched a word the tree has, read without its prefix", got)
	}
}

// A file whose extension the request says is in the format it names, and
// not demoted as a file in no language: "fish shell init script" means
// the .fish script.
func TestRequestSaysTheFileExtension(t *testing.T) {
	root := writeTree(t, withFiller(map[string]string{
		"src/init/starship.fish": "# the init script for fish: installs the prompt functions\nfunction fish_prompt\n    starship prompt\nend\n",
		"src/init/mod.rs":        "// init for each shell\npub fn init(shell: &str) -> &str { shell }\n",
	}))
	ix, _ := build(t, root)
	ms := ix.Search("fish shell init script that installs the prompt functions", memory.SearchOptions{Explain: true})
	for _, m := range ms {
		if m.Rel == "src/init/starship.fish" && slices.Contains(m.Reason.Notes, "not code: demoted") {
			t.Errorf("starship.fish notes = %v: the request says its extension", m.Reason.Notes)
		}
	}
	if len(ms) == 0 || ms[0].Rel != "src/init/starship.fish" {
		t.Errorf("ranking = %v, want src/init/starship.fish first", rels(ms))
	}
}

// A word that only looks prefixed is not read without its letters:
// "redirect" is no "direct" again (here the stem of "direction"), "unless"
// no "less", "discover" no "cover". alacritty's "redirect stderr to the
// log file" brought its search's direction code above its logger.
func TestLexicalisedPrefixNotStripped(t *testing.T) {
	root := writeTree(t, withFiller(map[string]string{
		"src/logging.rs": "// Writes the log to a file, or to stderr.\nfn log_file(stderr: bool) -> bool { stderr }\n",
		"src/search.rs":  "// The direction a search runs in: each match is logged.\nfn direction(log: bool) -> bool { log }\n",
		"src/sort.rs":    "// Sort with a less function.\nfn less(a: u8, b: u8) -> bool { a < b }\n",
		"src/cover.rs":   "// What a cover page has.\nfn cover() {}\n",
	}))
	ix, _ := build(t, root)
	for q, word := range map[string]string{
		"redirect stderr to the log file": "redirect",
		"unless the sort is stable":       "unless",
		"discover the page layout":        "discover",
	} {
		for _, m := range ix.Search(q, memory.SearchOptions{}) {
			for field, terms := range m.Reason.Terms {
				for _, term := range terms {
					if strings.HasPrefix(term, word+"~") {
						t.Errorf("%q: %s matches %s in its %s", q, m.Rel, term, field)
					}
				}
			}
		}
	}
}

// A language word that names no type of file is the ecosystem of what a
// request asks for: it leaves out code in other languages, not the
// configuration a project in that language keeps. "lua linter settings"
// finds .luacheckrc; "Lua files" still keeps only Lua files.
func TestEcosystemWordKeepsConfiguration(t *testing.T) {
	root := writeTree(t, withFiller(map[string]string{
		".luacheckrc":      "-- linter settings: globals and ignored warnings\nstd = 'min'\nglobals = { 'linter', 'settings' }\nignore = { '212' }\n",
		"src/lint.lua":     "-- the lint command checks a rockspec\nlocal function lint(rockspec) return true end\n",
		"tools/linter.py":  "# linter settings, globals and ignored warnings of the Python helper\nSETTINGS = {}\n",
		"docs/settings.md": "# Settings\n\nThe linter settings and ignored warnings.\n",
	}))
	ix, _ := build(t, root)
	got := rels(ix.Search("lua linter settings for globals and ignored warnings", memory.SearchOptions{}))
	if len(got) == 0 || got[0] != ".luacheckrc" {
		t.Errorf("lua linter settings: ranking = %v, want .luacheckrc first", got)
	}
	if slices.Contains(got, "tools/linter.py") || slices.Contains(got, "docs/settings.md") {
		t.Errorf("lua linter settings: ranking = %v, code in another language or a page passed the Lua filter", got)
	}
	got = rels(ix.Search("Lua files with linter settings", memory.SearchOptions{}))
	if slices.Contains(got, ".luacheckrc") {
		t.Errorf("Lua files: ranking = %v, a file in no language passed the filter", got)
	}
}

// A language word that kept only files in no language was not a filter:
// "FastCGI transport for PHP" in a project without PHP code searches all
// files, not its test data.
func TestEcosystemWordWithoutItsCode(t *testing.T) {
	root := writeTree(t, withFiller(map[string]string{
		"modules/fastcgi/fastcgi.go":       "// Package fastcgi is a FastCGI transport for the reverse proxy.\npackage fastcgi\n\ntype Transport struct{}\n",
		"testdata/php_fastcgi.caddyfile":   "php_fastcgi localhost:9000 # fastcgi transport for php\n",
		"testdata/php_fastcgi_2.caddyfile": "php_fastcgi localhost:9001 # fastcgi transport for php, again\n",
	}))
	ix, _ := build(t, root)
	got := rels(ix.Search("FastCGI transport for PHP", memory.SearchOptions{}))
	if !slices.Contains(got, "modules/fastcgi/fastcgi.go") {
		t.Errorf("ranking = %v, want modules/fastcgi/fastcgi.go among them", got)
	}
}

// A language after "into" is what the code asked for makes: "compile the
// Teal sources into the committed Lua files" asks for the script that
// compiles, not for Lua files.
func TestLanguageProducedInto(t *testing.T) {
	root := writeTree(t, withFiller(map[string]string{
		"teal.sh":          "#!/bin/sh\n# compile the Teal sources into Lua\nfor f in src/*.tl; do tl gen \"$f\"; done\n",
		"src/build.lua":    "-- build a rock\nlocal function build(rockspec) return true end\n",
		"src/compiler.lua": "-- the committed files\nlocal committed = {}\n",
	}))
	ix, _ := build(t, root)
	got := rels(ix.Search("compile the Teal sources into the committed Lua files", memory.SearchOptions{}))
	if len(got) == 0 || got[0] != "teal.sh" {
		t.Errorf("ranking = %v, want teal.sh first", got)
	}
	got = rels(ix.Search("the committed Lua files of the compiler", memory.SearchOptions{}))
	if slices.Contains(got, "teal.sh") {
		t.Errorf("Lua files, no \"into\": ranking = %v, teal.sh passed the filter", got)
	}
}
