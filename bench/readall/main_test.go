package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadList: every file of the list is read to its end, whatever its
// size against the buffer; what cannot be read is named and skipped, and
// the last name may lack its NUL.
func TestReadList(t *testing.T) {
	dir := t.TempDir()
	sizes := map[string]int{"empty": 0, "small": 10, "buffer": 256 << 10, "large": 1<<20 + 7}
	var list []string
	want := int64(0)
	for name, n := range sizes {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(strings.Repeat("x", n)), 0o644); err != nil {
			t.Fatal(err)
		}
		list = append(list, filepath.Join(dir, name))
		want += int64(n)
	}
	list = append(list, filepath.Join(dir, "missing"), dir, "")
	var stderr strings.Builder
	files, total, failed := readList(strings.NewReader(strings.Join(list, "\x00")), &stderr)
	if files != len(sizes) || total != want {
		t.Errorf("readList read %d files, %d bytes; want %d, %d", files, total, len(sizes), want)
	}
	if !failed || !strings.Contains(stderr.String(), "missing") || strings.Count(stderr.String(), "readall:") != 2 {
		t.Errorf("readList failed %v, reported:\n%s\nwant the missing file and the directory named", failed, stderr.String())
	}
}
