package contextgen_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/taskctl/taskctl/contextgen"
)

// TestContentOfManyFiles: files read one after another into shared blocks
// keep each its own content, whether it fits in what is left of a block,
// fills one exactly, or is larger than any block; an empty file is read as
// empty.
func TestContentOfManyFiles(t *testing.T) {
	files := map[string]string{"empty.txt": ""}
	sizes := []int{1, 100, 4095, 4096, 4097, 30 << 10, 64 << 10, 200 << 10, 1 << 20, 3 << 20, 9 << 20}
	for round := range 3 {
		for i, n := range sizes {
			rel := fmt.Sprintf("d%d/f%02d.txt", round, i)
			line := fmt.Sprintf("%s line of a file of %d bytes\n", rel, n)
			files[rel] = strings.Repeat(line, n/len(line)+1)[:n]
		}
	}
	p := fixture(t, files)
	doc, err := contextgen.Assemble(context.Background(), literalTask("**/*"), contextgen.Options{Project: p})
	if err != nil {
		t.Fatal(err)
	}
	if len(doc.Files) != len(files) {
		t.Fatalf("%d files assembled, want %d", len(doc.Files), len(files))
	}
	for _, f := range doc.Files {
		if want := files[f.Rel]; f.Content != want {
			t.Errorf("%s: %d bytes of content starting %.40q, want %d starting %.40q", f.Rel, len(f.Content), f.Content, len(want), want)
		}
	}
}
