package contextgen_test

import (
	"testing"

	"github.com/taskctl/taskctl/contextgen"
)

// TestTree: directories first at each level, each directory once, its
// entries two spaces in, whatever order the files come in.
func TestTree(t *testing.T) {
	d := &contextgen.Document{}
	for _, rel := range []string{"b.go", "src/z.go", "a.md", "src/lib/x.go", "src/a.go", "docs/guide.md"} {
		d.Files = append(d.Files, &contextgen.File{Rel: rel})
	}
	want := "docs/\n  guide.md\nsrc/\n  lib/\n    x.go\n  a.go\n  z.go\na.md\nb.go\n"
	if got := d.Tree(); got != want {
		t.Fatalf("Tree() =\n%s\nwant\n%s", got, want)
	}
}
