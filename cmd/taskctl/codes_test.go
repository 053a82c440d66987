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

// codesPage is the page of the documentation that holds the tables of
// codes (the README links it).
const codesPage = "../../docs/codes.md"

// documentedCodes returns the codes the documentation lists: those in
// backquotes in codesPage's section of codes, from "`error.code` is one
// of" to the end of the table of warning codes.
func documentedCodes(t *testing.T) map[diag.Code]bool {
	t.Helper()
	page, err := os.ReadFile(codesPage)
	if err != nil {
		t.Fatal(err)
	}
	text := string(page)
	start := strings.Index(text, "`error.code` is one of")
	if start < 0 {
		t.Fatalf(`%s: no "error.code is one of" paragraph`, codesPage)
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

// TestCodesDocumented: the tables of codes in docs/codes.md and
// diag.Codes, the registry, list the same codes (docs/codes.md: "the
// codes are stable").
func TestCodesDocumented(t *testing.T) {
	documented := documentedCodes(t)
	registry := map[diag.Code]bool{}
	for _, in := range diag.Codes() {
		registry[in.Code] = true
		if !documented[in.Code] {
			t.Errorf("code %s (%s) is not in the tables of %s", in.Code, in.Description, codesPage)
		}
	}
	for code := range documented {
		if !registry[code] {
			t.Errorf("%s documents %s, which diag.Codes does not list", codesPage, code)
		}
	}
	if len(registry) < 40 || len(documented) < 40 {
		t.Fatalf("%d codes in the registry, %d in %s: the scan is broken", len(registry), len(documented), codesPage)
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
