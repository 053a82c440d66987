package contextgen_test

import (
	"context"
	"testing"

	"github.com/taskctl/taskctl/contextgen"
	"github.com/taskctl/taskctl/template"
)

// TestAFileComesOnce: a file that several path specs and sources name is
// in the document once, as the first one that named it took it: the first
// glob's files are taken without an index of paths, and what comes after
// them is checked against them.
func TestAFileComesOnce(t *testing.T) {
	p := fixture(t, map[string]string{"a.txt": "one\ntwo\n", "b.txt": "b\n", "c.md": "c\n"})
	first := template.FileSource{Kind: template.SourceLiteral, Paths: []template.PathSpec{
		{Value: "**/*.txt"},
		{Value: "a.txt", MaxLines: 1}, // read options of its own: a batch of its own
		{Value: "c.md"},
	}}
	second := template.FileSource{Kind: template.SourceLiteral, Paths: []template.PathSpec{{Value: "b.txt"}, {Value: "*"}}}
	task := &template.Task{Name: "t", Description: "t", Sources: []template.FileSource{first, second}}
	doc, err := contextgen.Assemble(context.Background(), task, contextgen.Options{Project: p})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range doc.Files {
		got = append(got, f.Rel)
		if f.Rel == "a.txt" && (f.Truncated || f.Content != "one\ntwo\n") {
			t.Errorf("a.txt taken with the second spec's max_lines: truncated %v, content %q", f.Truncated, f.Content)
		}
	}
	want := []string{"a.txt", "b.txt", "c.md"}
	if len(got) != len(want) {
		t.Fatalf("files %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("files %q, want %q", got, want)
		}
	}
}
