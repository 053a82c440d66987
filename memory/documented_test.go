package memory_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/taskctl/taskctl/memory"
)

// documentedIn returns the "documented in" note of the match for rel, or "".
func documentedIn(ms []memory.Match, rel string) string {
	for _, m := range ms {
		if m.Rel != rel {
			continue
		}
		for _, n := range m.Reason.Notes {
			if strings.HasPrefix(n, "documented in ") {
				return n
			}
		}
	}
	return ""
}

// The code named as a documentation page that a short request matches
// scores what the page scores: the page says what the feature does in the
// request's words, the code (fatbinary/) in its own. A page whose name
// many code files have names no feature, a README is no page, and a long
// text is not lifted so.
func TestDocumentedCode(t *testing.T) {
	page := "# Fat binaries\n\nCombine the Intel and ARM executables of a build into a single file that runs on both.\n"
	root := writeTree(t, withFiller(map[string]string{
		"docs/features/fatbinaries.md":         page,
		"internal/pipe/fatbinary/fatbinary.go": "package fatbinary\n\n// Run merges the slices with lipo.\nfunc Run(paths []string) error { return lipo(\"-create\", paths) }\n",
		"internal/pipe/fatbinary/targets.go":   "package fatbinary\n\nfunc targets(goos string) []string { return []string{goos + \"_amd64\", goos + \"_arm64\"} }\n",
		"internal/pipe/archive/archive.go":     "package archive\n\n// Run puts the executables into one tarball.\nfunc Run(paths []string) error { return nil }\n",
		"docs/util.md":                         "# Utilities\n\nCombine Intel and ARM executables into a single file.\n",
		"internal/a/util.go":                   "package a\n\nfunc helper() {}\n",
		"internal/b/util.go":                   "package b\n\nfunc helper() {}\n",
		"internal/c/util.go":                   "package c\n\nfunc helper() {}\n",
		"README.md":                            "# Tool\n\nCombine Intel and ARM executables into a single file, and more.\n",
		"internal/readme/readme.go":            "package readme\n\nfunc show() {}\n",
	}))
	ix, _ := build(t, root)
	ms := ix.Search("combine the Intel and ARM executables into a single file", memory.SearchOptions{Explain: true})
	got := rels(ms)
	i, j := slices.Index(got, "internal/pipe/fatbinary/fatbinary.go"), slices.Index(got, "internal/pipe/archive/archive.go")
	if i < 0 || j >= 0 && j < i {
		t.Fatalf("ranking = %v, want internal/pipe/fatbinary/fatbinary.go above internal/pipe/archive/archive.go", got)
	}
	if n := documentedIn(ms, "internal/pipe/fatbinary/fatbinary.go"); n != "documented in docs/features/fatbinaries.md" {
		t.Errorf("fatbinary.go: note %q, want \"documented in docs/features/fatbinaries.md\"", n)
	}
	for _, rel := range []string{"internal/a/util.go", "internal/readme/readme.go"} {
		if n := documentedIn(ms, rel); n != "" {
			t.Errorf("%s: %q; a page named as three code files, or a README, documents none of them", rel, n)
		}
	}
	long := "When I combine the Intel and ARM executables into a single file, the build fails on the second " +
		"machine with an error about the slices, and the archive step then stops without a message at all.\n" +
		"Steps to reproduce: build for darwin amd64 and arm64, merge the outputs, run the release pipeline again."
	ms = ix.Search(long, memory.SearchOptions{Explain: true})
	if n := documentedIn(ms, "internal/pipe/fatbinary/fatbinary.go"); n != "" {
		t.Errorf("a long text lifted fatbinary.go: %q", n)
	}
	// a search scoped away from the page (--include 'internal/**') does not read it
	ms = ix.Search("combine the Intel and ARM executables into a single file", memory.SearchOptions{Explain: true, Include: []string{"internal/**"}})
	if n := documentedIn(ms, "internal/pipe/fatbinary/fatbinary.go"); n != "" {
		t.Errorf("a page the globs leave out lifted fatbinary.go: %q", n)
	}
}

// codeNamed's pass over the paths skips a name that does not lead with
// its key's head (nameHead): every name whose nameKey is the key must lead
// with it, or the code it names is never lifted. A short stem changes its
// last letters too ("using" is "use", "pty" "pti").
func FuzzNameHead(f *testing.F) {
	for _, name := range []string{"universalbinaries.md", "universalbinary", "Report-Sizes.md", "using.js", "Usings.cs",
		"pty.go", "tty", "Spy.java", "copy.go", "relational.py", "possibility.rs", "hoping.c", "Über_Größe.go", "İstanbul.md"} {
		f.Add(name)
	}
	f.Fuzz(func(t *testing.T, name string) {
		key := memory.NameKey(name)
		if key == "" {
			return
		}
		if head := memory.NameHead(key); !memory.LeadsWith(name, head) {
			t.Errorf("NameKey(%q) = %q, but the name does not lead with its head %q", name, key, head)
		}
	})
}
