package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestDocsLinked: every page under docs/ is linked from the README, and
// every relative link of the README and of those pages names a file that
// exists (the README is short; the manual is in docs/, findable from it).
func TestDocsLinked(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	pages, err := filepath.Glob("../../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	if len(pages) < 5 {
		t.Fatalf("only %d pages under docs/: the glob is broken", len(pages))
	}
	for _, page := range pages {
		if !strings.Contains(string(readme), "](docs/"+filepath.Base(page)+")") {
			t.Errorf("README does not link docs/%s", filepath.Base(page))
		}
	}
	link := regexp.MustCompile(`\]\(([^)#\s]+)(?:#[^)\s]*)?\)`)
	checked := 0
	for _, file := range append([]string{"../../README.md"}, pages...) {
		text, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range link.FindAllStringSubmatch(string(text), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			checked++
			if _, err := os.Stat(filepath.Join(filepath.Dir(file), target)); err != nil {
				t.Errorf("%s links %s, which does not exist", file, target)
			}
		}
	}
	if checked < len(pages) {
		t.Fatalf("checked %d links for %d pages: the scan is broken", checked, len(pages))
	}
}
