package main

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/taskctl/taskctl/engine"
)

// countingWriter counts the writes it is given, failing from the failAt-th
// on when failAt is above 0.
type countingWriter struct {
	strings.Builder
	writes, failAt int
}

func (w *countingWriter) Write(p []byte) (int, error) {
	w.writes++
	if w.failAt > 0 && w.writes >= w.failAt {
		return 0, errors.New("disk full")
	}
	return w.Builder.Write(p)
}

// TestPrintPathsBuffers: --paths writes its lines through one buffer, not
// a write per path (a write(2) each when stdout is a pipe), and every path
// arrives, one a line.
func TestPrintPathsBuffers(t *testing.T) {
	var files []engine.ListedFile
	var want strings.Builder
	for i := range 5000 {
		f := engine.ListedFile{Path: fmt.Sprintf("/work/project/dir%03d/file%04d.go", i%100, i)}
		files = append(files, f)
		want.WriteString(f.Path + "\n")
	}
	w := &countingWriter{}
	if err := printPaths(w, files); err != nil {
		t.Fatal(err)
	}
	if w.String() != want.String() {
		t.Fatalf("printPaths wrote %d bytes, want %d", w.Len(), want.Len())
	}
	if max := want.Len()/(64<<10) + 1; w.writes > max {
		t.Errorf("printPaths made %d writes for %d bytes, want at most %d", w.writes, want.Len(), max)
	}

	failing := &countingWriter{failAt: 2}
	if err := printPaths(failing, files); err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Errorf("printPaths into a failing writer: %v, want its error", err)
	}
}
