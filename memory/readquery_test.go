package memory_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/taskctl/taskctl/memory"
)

// termsOf returns every query term that matched m, whatever the field.
func termsOf(m memory.Match) []string {
	var ts []string
	for _, field := range m.Reason.Terms {
		ts = append(ts, field...)
	}
	return ts
}

// "linter" and "linters" name a linter's configuration, as its tool's
// name does: "which linters run on the Go code" asks for no configuration
// in words, and finds .golangci.yml past the request's Go filter.
func TestLintersNameTheLintConfig(t *testing.T) {
	root := writeTree(t, withFiller(map[string]string{
		".golangci.yml": "linters:\n  enable:\n    - govet\n    - errcheck\n",
		"lint/run.go":   "package lint\n\n// Run runs the checks over the code.\nfunc Run(code string) error { return nil }\n",
	}))
	ix, _ := build(t, root)
	got := rels(ix.Search("which linters run on the Go code", memory.SearchOptions{}))
	if len(got) == 0 || got[0] != ".golangci.yml" {
		t.Errorf("ranking = %v, want .golangci.yml first", got)
	}
}

// In a long text a request verb names nothing wherever it stands ("I find
// that …", "the log shows …"): neither is a term of the query.
func TestRequestVerbsInLongTexts(t *testing.T) {
	root := writeTree(t, withFiller(map[string]string{
		"cache/expire.go": "package cache\n\n// expire drops the cache entries whose deadline passed.\nfunc expire(entries map[string]int64) {}\n",
		"ui/show.go":      "package ui\n\n// showFind shows the entries you find; show them all, find them all.\nfunc showFind(entries []string) {}\n",
	}))
	ix, _ := build(t, root)
	report := "Cache entries expire too early\n\nI find that the cache drops entries before their deadline: the log " +
		"shows the expiry running every second instead of every minute, and the entries are gone when a lookup " +
		"comes. Expected the expiry to keep entries until their deadline passes, as the documentation says."
	ms := ix.Search(report, memory.SearchOptions{Explain: true})
	if len(ms) == 0 {
		t.Fatal("no match")
	}
	for _, m := range ms {
		if ts := termsOf(m); slices.Contains(ts, "find") || slices.Contains(ts, "show") {
			t.Errorf("%s matched a request verb: terms %v", m.Rel, ts)
		}
	}
}

// Maven's site (src/site/, at the top or in a module) and xdoc/ or xdocs/
// pages (checkstyle keeps its site in src/xdocs/) are documentation, demoted as docs are in a request that does not ask for
// them; the class they describe is not.
func TestMavenSiteIsDocs(t *testing.T) {
	page := "<document><body><section name=\"Tailer\">The tailer follows a rotated file.</section></body></document>\n"
	root := writeTree(t, withFiller(map[string]string{
		"src/site/site.xml":                page,
		"io/src/site/resources/tailer.xml": page,
		"legacy/xdoc/tailer.xml":           page,
		"src/xdocs/tailer.xml":             page,
		"src/main/java/org/io/Tailer.java": "package org.io;\n\n/** The tailer follows a rotated file. */\npublic class Tailer {}\n",
	}))
	ix, _ := build(t, root)
	ms := ix.Search("tailer follows a rotated file", memory.SearchOptions{Explain: true})
	if len(ms) != 5 {
		t.Fatalf("ranking = %v, want the five files", rels(ms))
	}
	for _, m := range ms {
		demoted := slices.Contains(m.Reason.Notes, "documentation demoted")
		if want := !strings.HasSuffix(m.Rel, ".java"); demoted != want {
			t.Errorf("%s: documentation demoted %v, want %v (notes %v)", m.Rel, demoted, want, m.Reason.Notes)
		}
	}
}

// A filter that leaves nothing is dropped and its word searched for: the
// word is a term of the query again ("python" in a tree without Python).
func TestDroppedFilterWordIsATerm(t *testing.T) {
	root := writeTree(t, withFiller(map[string]string{
		"embed/python.c": "/* run the embedded python interpreter on a parser's output */\nint runPython(void) { return 0; }\n",
		"parse/parser.c": "/* the parser of the configuration */\nint parse(void) { return 0; }\n",
	}))
	ix, _ := build(t, root)
	ms := ix.Search("Python parser", memory.SearchOptions{Explain: true})
	if len(ms) == 0 || ms[0].Rel != "embed/python.c" {
		t.Fatalf("ranking = %v, want embed/python.c first (it says both words)", rels(ms))
	}
	if !slices.Contains(termsOf(ms[0]), "python") {
		t.Errorf("terms of embed/python.c = %v, want python among them", termsOf(ms[0]))
	}
}

// A long text's title counts twice: of two words each said once in the
// text and each in a file of its own, the title's ranks its file first.
func TestReportTitleCountsTwice(t *testing.T) {
	root := writeTree(t, withFiller(map[string]string{
		"a/buffer.go":   "package a\n\n// buffer holds bytes.\nfunc buffer() {}\n",
		"z/rotation.go": "package z\n\n// rotation turns bytes.\nfunc rotation() {}\n",
	}))
	ix, _ := build(t, root)
	report := "Rotation\n\nAfter upgrading yesterday evening our nightly jobs started misbehaving quite badly; " +
		"operators noticed dashboards going blank while the buffer looked normal, then everything recovered " +
		"without anyone intervening manually whatsoever."
	got := rels(ix.Search(report, memory.SearchOptions{}))
	i, j := slices.Index(got, "z/rotation.go"), slices.Index(got, "a/buffer.go")
	if i < 0 || j < 0 || i > j {
		t.Errorf("ranking = %v, want z/rotation.go (the title's word) above a/buffer.go", got)
	}
}

// An error class's own frame, as an exception's, is where the error was
// made, not where it surfaced: the frame below it is the innermost of the
// project.
func TestJavaTraceSkipsErrorClassFrame(t *testing.T) {
	root := writeTree(t, map[string]string{
		"src/main/java/com/lib/ConfigError.java": "package com.lib;\n\npublic class ConfigError extends Error {\n" +
			"    static ConfigError of(String key) { return new ConfigError(); }\n}\n",
		"src/main/java/com/lib/Loader.java": "package com.lib;\n\npublic class Loader {\n" +
			"    void load(String key) { throw ConfigError.of(key); }\n}\n",
	})
	ix, _ := build(t, root)
	report := "Loading a configuration without a port fails\n\nWhen the configuration file leaves out the port the " +
		"loader throws instead of taking the default port, and the service never starts:\n\n" +
		"```\nException in thread \"main\" com.lib.ConfigError: port\n" +
		"\tat com.lib.ConfigError.of(ConfigError.java:4)\n" +
		"\tat com.lib.Loader.load(Loader.java:4)\n" +
		"\tat com.app.Main.main(Main.java:8)\n```\n"
	ms := ix.Search(report, memory.SearchOptions{})
	if !slices.Contains(rels(ms), "src/main/java/com/lib/Loader.java") {
		t.Fatalf("ranking = %v, want Loader.java among them", rels(ms))
	}
	const note = "innermost traceback frame in the project"
	for _, m := range ms {
		noted := slices.Contains(m.Reason.Notes, note)
		if want := m.Rel == "src/main/java/com/lib/Loader.java"; noted != want {
			t.Errorf("%s: %q %v, want %v (notes %v)", m.Rel, note, noted, want, m.Reason.Notes)
		}
	}
}
