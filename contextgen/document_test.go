package contextgen_test

import (
	"bytes"
	"context"
	"testing"

	"github.com/taskctl/taskctl/contextgen"
)

// TestIsDocument: every style taskctl renders, with and without token
// counts, relative or absolute, is known by its first lines; files that
// only look alike are not.
func TestIsDocument(t *testing.T) {
	p := fixture(t, map[string]string{"a.go": "package a\n", "b.md": "# b\n"})
	for _, style := range []string{contextgen.StyleXML, contextgen.StyleMarkdown, contextgen.StylePlain} {
		for _, counted := range []bool{true, false} {
			for _, relative := range []bool{true, false} {
				opt := contextgen.Options{Project: p, Style: style, Header: true, Relative: relative}
				if counted {
					opt.Counter = counter(t)
				}
				doc, err := contextgen.Assemble(context.Background(), literalTask("a.go", "b.md"), opt)
				if err != nil {
					t.Fatal(err)
				}
				var b bytes.Buffer
				if err := doc.Render(&b, style); err != nil {
					t.Fatal(err)
				}
				// A plain document with neither counts nor a root starts
				// with its first file, as head(1) prints: nothing marks it.
				want := style != contextgen.StylePlain || counted || relative
				if got := contextgen.IsDocument(b.Bytes()); got != want {
					t.Errorf("%s counted=%v relative=%v: IsDocument = %v, want %v\n%s", style, counted, relative, got, want, b.Bytes())
				}
			}
		}
	}
	for _, text := range []string{
		"", "# Context: notes\n\nA context document starts with <context task=\"x\">.\n",
		"<context task=\"x\">\n", "root: /var/www\n", "3 files, in three parts\n",
		"# Context: x\nsee below\n2 files, 10 bytes\n",
	} {
		if contextgen.IsDocument([]byte(text)) {
			t.Errorf("IsDocument(%q) = true", text)
		}
	}
}
