package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/taskctl/taskctl/internal/diag"
)

// readmeCodes returns the codes the README documents: those in backquotes
// in its section of codes, from "`error.code` is one of" to the end of
// the table of warning codes.
func readmeCodes(t *testing.T) map[diag.Code]bool {
	t.Helper()
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(readme)
	start := strings.Index(text, "`error.code` is one of")
	if start < 0 {
		t.Fatal(`README: no "error.code is one of" paragraph`)
	}
	section := text[start:]
	if end := strings.Index(section, "\n## "); end >= 0 {
		section = section[:end]
	}
	codes := map[diag.Code]bool{}
	for _, m := range regexp.MustCompile("`([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*)`").FindAllStringSubmatch(section, -1) {
		codes[diag.Code(m[1])] = true
	}
	return codes
}

// TestCodesDocumented: the README's tables of codes and diag.Codes, the
// registry, list the same codes (README: "the codes are stable").
func TestCodesDocumented(t *testing.T) {
	documented := readmeCodes(t)
	registry := map[diag.Code]bool{}
	for _, in := range diag.Codes() {
		registry[in.Code] = true
		if !documented[in.Code] {
			t.Errorf("code %s (%s) is not in the README's tables", in.Code, in.Description)
		}
	}
	for code := range documented {
		if !registry[code] {
			t.Errorf("the README documents %s, which diag.Codes does not list", code)
		}
	}
	if len(registry) < 40 || len(documented) < 40 {
		t.Fatalf("%d codes in the registry, %d in the README: the scan is broken", len(registry), len(documented))
	}
}

// TestCodesSpelledOnce: no code is spelled outside internal/diag. Two
// scans: the forms a code used to be written in (Code: "X", code: "X",
// CodeX = "X", a warnf call's code argument), which must find every code
// in internal/diag and none elsewhere; and any string literal that is a
// registered code, in any non-test Go file but internal/diag's.
func TestCodesSpelledOnce(t *testing.T) {
	registry := map[string]bool{}
	for _, in := range diag.Codes() {
		registry[string(in.Code)] = true
	}
	form := regexp.MustCompile(`(?:[Cc]ode:\s*|Code[A-Za-z]*\s*=\s*|warnf\([^"\n]*)"([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)"`)
	literal := regexp.MustCompile(`"([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*)"`)
	inDiag := map[string]bool{}
	err := filepath.WalkDir("../..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && path != "../.." {
			return fs.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if filepath.Dir(path) == filepath.Join("../..", "internal", "diag") {
			for _, m := range form.FindAllSubmatch(src, -1) {
				inDiag[string(m[1])] = true
			}
			return nil
		}
		for _, m := range form.FindAllSubmatch(src, -1) {
			t.Errorf("%s: code %s spelled outside internal/diag", path, m[1])
		}
		for _, m := range literal.FindAllSubmatch(src, -1) {
			if registry[string(m[1])] {
				t.Errorf("%s: code %s spelled outside internal/diag: use the diag constant", path, m[1])
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for code := range registry {
		if !inDiag[code] && strings.Contains(code, "_") {
			t.Errorf("code %s: the scan did not find its declaration in internal/diag", code)
		}
	}
	if len(inDiag) < 40 {
		t.Fatalf("found only %d codes in internal/diag: %v", len(inDiag), inDiag)
	}
}
