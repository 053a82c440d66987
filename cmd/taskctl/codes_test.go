package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestCodesDocumented: every warning or error code the sources give a
// user is in the README's tables (README: "the codes are stable"). Codes
// are found as they are written: Code: "X", code: "X", CodeX = "X" and a
// warnf call's code argument.
func TestCodesDocumented(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`(?:[Cc]ode:\s*|Code[A-Za-z]*\s*=\s*|warnf\([^"\n]*)"([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)"`)
	seen := map[string]string{}
	for _, dir := range []string{"cmd", "contextgen", "project", "shellexec", "template", "workflow", "memory", "schema"} {
		err := filepath.WalkDir(filepath.Join("../..", dir), func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && d.Name() == "testdata" {
				return fs.SkipDir
			}
			if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return nil
			}
			src, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			for _, m := range re.FindAllSubmatch(src, -1) {
				seen[string(m[1])] = path
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(seen) < 20 {
		t.Fatalf("found only %d codes: %v", len(seen), seen)
	}
	for code, path := range seen {
		if !strings.Contains(string(readme), "`"+code+"`") {
			t.Errorf("code %s (%s) is not in the README", code, path)
		}
	}
}
