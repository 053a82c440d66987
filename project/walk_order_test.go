package project_test

import (
	"context"
	"io/fs"
	"slices"
	"testing"

	"github.com/taskctl/taskctl/project"
)

// TestWalkOrder checks that Walk and WalkCached yield files in order of
// Rel, each once, in a tree whose names sort differently as paths and as
// names ("a-b" < "a/x" < "a0" although "a" < "a-b" as names), with
// symlinks to files whose Rel lies elsewhere in the order, one of them to
// a file the walk also reaches directly.
func TestWalkOrder(t *testing.T) {
	dir := realTemp(t)
	writeTree(t, dir,
		"a/x", "a/b/c", "a/b-c", "a/b.c", "a/b0", "a/ba/z",
		"a-b", "a-c/w", "a.b", "a0", "a!", "a~/y", "b", "A/q",
		"z/link-to-a0 -> ../a0",
		"z/link-to-deep -> ../a/ba/z",
		"link-to-b -> b",
		"m/n/o/p",
	)
	want := []string{"A/q", "a!", "a-b", "a-c/w", "a.b", "a/b-c", "a/b.c", "a/b/c", "a/b0", "a/ba/z", "a/x", "a0", "a~/y", "b", "m/n/o/p"}
	for _, cached := range []bool{false, true, true} {
		p := open(t, project.Options{WorkingDir: dir, ProjectDir: dir})
		var got []string
		fn := func(c project.Candidate, _ fs.FileInfo) error {
			got = append(got, c.Rel)
			return nil
		}
		var err error
		if cached {
			_, err = p.WalkCached(context.Background(), nil, fn)
		} else {
			err = p.Walk(context.Background(), fn)
		}
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, want) {
			t.Errorf("cached %v: walk yields\n%q\nwant\n%q", cached, got, want)
		}
	}
}
