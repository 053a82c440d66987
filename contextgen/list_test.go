package contextgen_test

import (
	"context"
	"slices"
	"testing"

	"github.com/taskctl/taskctl/contextgen"
	"github.com/taskctl/taskctl/template"
)

// TestListIsAssembleListOnly: List selects the files Assemble with ListOnly
// does, in the same order, from the same sources and with the same
// warnings: sources that repeat files, a sensitive name, a name holding a
// secret, an ignored file named literally, a path that does not exist.
func TestListIsAssembleListOnly(t *testing.T) {
	p := fixture(t, map[string]string{
		"a.txt": "a\n", "b.txt": "b\n", "sub/c.go": "package c\n", "sub/d.md": "d\n",
		".env": "X=1\n", "keys/AKIAZ7XQ3PLM4RTV2WQK.txt": "k\n",
		".gitignore": "ignored.log\n", "ignored.log": "i\n",
	})
	first := template.FileSource{Kind: template.SourceLiteral, Paths: []template.PathSpec{
		{Value: "**/*.txt"}, {Value: "sub/*.go"}, {Value: ".env"}, {Value: "ignored.log"}, {Value: "missing.txt"},
	}}
	second := template.FileSource{Kind: template.SourceLiteral, Paths: []template.PathSpec{{Value: "b.txt"}, {Value: "**/*"}}}
	task := &template.Task{Name: "t", Description: "t", Sources: []template.FileSource{first, second}}
	opt := contextgen.Options{Project: p, ListOnly: true}
	doc, err := contextgen.Assemble(context.Background(), task, opt)
	if err != nil {
		t.Fatal(err)
	}
	l, err := contextgen.List(context.Background(), task, opt)
	if err != nil {
		t.Fatal(err)
	}
	var want []contextgen.Listed
	for _, f := range doc.Files {
		want = append(want, contextgen.Listed{Path: f.Path, Rel: f.Rel, Source: f.Source, Score: f.Score, Reason: f.Reason})
	}
	if len(want) < 4 {
		t.Fatalf("Assemble listed %d files: the fixture did not select what the test needs", len(want))
	}
	if !slices.Equal(l.Files, want) {
		t.Errorf("List gave\n%v\nAssemble with ListOnly\n%v", l.Files, want)
	}
	if !slices.Equal(l.Warnings, doc.Warnings) || len(l.Warnings) < 3 {
		t.Errorf("List warned\n%v\nAssemble with ListOnly\n%v", l.Warnings, doc.Warnings)
	}
	if l.Task != doc.Task {
		t.Errorf("task %q, want %q", l.Task, doc.Task)
	}
}
