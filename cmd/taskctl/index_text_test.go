package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"
)

// TestSearchFindsUTF16Files: a UTF-16 file (with a byte-order mark, as
// Windows tools write them) is indexed from its text, as assemble reads it,
// whether or not the secret scan is on; its best line is quoted decoded.
// The index skipped every such file as binary (its NUL bytes).
func TestSearchFindsUTF16Files(t *testing.T) {
	proj := t.TempDir()
	writeFiles(t, proj, map[string]string{
		".git/HEAD": "ref: refs/heads/main\n",
		"notes.md":  "release notes\n",
	})
	units := utf16.Encode([]rune("\ufeffa zebra\nthe quokka sleeps\n"))
	raw := make([]byte, 0, 2*len(units))
	for _, u := range units {
		raw = append(raw, byte(u), byte(u>>8))
	}
	if err := os.WriteFile(filepath.Join(proj, "animals.txt"), raw, 0o644); err != nil {
		t.Fatal(err)
	}
	config := filepath.Join(proj, ".taskctl", "config.xml")
	if err := os.MkdirAll(filepath.Dir(config), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, scan := range []bool{true, false} {
		setting := "<config><assemble><scan_secrets>" + strconv.FormatBool(scan) + "</scan_secrets></assemble></config>\n"
		if err := os.WriteFile(config, []byte(setting), 0o644); err != nil {
			t.Fatal(err)
		}
		code, out, errs := taskctl(t, "--project-dir", proj, "search", "quokka", "--explain")
		if code != 0 {
			t.Fatalf("scan %v: search: exit %d: %s%s", scan, code, out, errs)
		}
		if !strings.Contains(out, filepath.Join(proj, "animals.txt")) || !strings.Contains(out, "line 2: the quokka sleeps") {
			t.Errorf("scan %v: search quokka:\n%s", scan, out)
		}
	}
}
