package memory_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/taskctl/taskctl/memory"
)

// filtering is a memory.FilteringSource over a directory that replaces
// SECRET with [X] and counts the files it filters.
type filtering struct {
	memory.Source
	id    string
	calls *atomic.Int64
}

func (f filtering) Filter(data []byte) []byte {
	f.calls.Add(1)
	return bytes.ReplaceAll(data, []byte("SECRET"), []byte("[X]"))
}

func (f filtering) FilterID() string { return f.id }

// TestFilteringSource checks that the index filters what it analyses and
// nothing else: a file touched but not changed is read and hashed, not
// filtered again; a file whose filter shortens it is not read again on
// every refresh; a changed file is filtered; another filter ID analyses
// every file again; and the filtered-out text is not found.
func TestFilteringSource(t *testing.T) {
	root := writeTree(t, map[string]string{
		"a.txt": "alpha SECRET beta\n",
		"b.txt": "gamma delta\n",
	})
	then := time.Now().Add(-10 * time.Second)
	touch := func(rel string, when time.Time) {
		if err := os.Chtimes(filepath.Join(root, rel), when, when); err != nil {
			t.Fatal(err)
		}
	}
	touch("a.txt", then)
	touch("b.txt", then)
	dir := filepath.Join(t.TempDir(), "index")
	var calls atomic.Int64
	update := func(id string) (*memory.Index, memory.Stats) {
		t.Helper()
		calls.Store(0)
		ix, st, err := memory.Update(context.Background(), dir, filtering{memory.DirSource(root), id, &calls}, false, nil)
		if err != nil {
			t.Fatalf("Update: %v", err)
		}
		return ix, st
	}
	step := func(name, id string, wantCalls, wantReread int) *memory.Index {
		t.Helper()
		ix, st := update(id)
		if n := int(calls.Load()); n != wantCalls || st.Reread != wantReread {
			t.Errorf("%s: %d files filtered, %d read again, want %d and %d (%+v)", name, n, st.Reread, wantCalls, wantReread, st)
		}
		return ix
	}

	ix := step("first build", "v1", 2, 2)
	if got := rels(ix.Search("secret", memory.SearchOptions{})); len(got) != 0 {
		t.Errorf("Search(secret) = %q: the filtered-out word is indexed", got)
	}
	if got := rels(ix.Search("alpha", memory.SearchOptions{})); len(got) != 1 || got[0] != "a.txt" {
		t.Errorf("Search(alpha) = %q, want a.txt", got)
	}
	step("nothing changed", "v1", 0, 0)
	touch("a.txt", then.Add(5*time.Second))
	step("a.txt touched", "v1", 0, 0)
	step("after the touch", "v1", 0, 0)
	if err := os.WriteFile(filepath.Join(root, "b.txt"), []byte("gamma epsilon\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	touch("b.txt", then.Add(7*time.Second))
	ix = step("b.txt edited", "v1", 1, 1)
	if got := rels(ix.Search("epsilon", memory.SearchOptions{})); len(got) != 1 || got[0] != "b.txt" {
		t.Errorf("Search(epsilon) = %q, want b.txt", got)
	}
	step("another filter", "v2", 2, 2)
	step("another filter, again", "v2", 0, 0)
}

// failing is a Source over a directory that cannot read one file.
type failing struct {
	memory.Source
	bad string
}

func (f failing) ReadFile(rel string) ([]byte, error) {
	if rel == f.bad {
		return nil, &os.PathError{Op: "open", Path: rel, Err: os.ErrPermission}
	}
	return f.Source.ReadFile(rel)
}

// TestUnreadableFileIsReported: a file the source cannot read is listed,
// not indexed, and a PATH_UNREADABLE warning names it (it was skipped in
// silence); a filter that finds no text (nil) leaves a file listed and
// unindexed too.
func TestUnreadableFileIsReported(t *testing.T) {
	root := writeTree(t, map[string]string{"a.txt": "alpha\n", "b.txt": "beta\n"})
	_, st, err := memory.Update(context.Background(), filepath.Join(t.TempDir(), "index"), failing{memory.DirSource(root), "b.txt"}, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Warnings) != 1 || st.Warnings[0].Code != "PATH_UNREADABLE" || st.Warnings[0].Path != filepath.Join(root, "b.txt") ||
		!strings.Contains(st.Warnings[0].Message, "permission denied") {
		t.Errorf("warnings %+v, want one PATH_UNREADABLE for b.txt", st.Warnings)
	}
	if st.Files != 1 || st.Skipped != 1 {
		t.Errorf("files %d, skipped %d; want 1 and 1", st.Files, st.Skipped)
	}
	// Refreshed, the skipped file is kept as skipped: it is not among
	// the files reused, which are indexed files.
	dir := filepath.Join(t.TempDir(), "index")
	for range 2 {
		_, st, err = memory.Update(context.Background(), dir, failing{memory.DirSource(root), "b.txt"}, false, nil)
		if err != nil {
			t.Fatal(err)
		}
	}
	if st.Files != 1 || st.Skipped != 1 || st.Reused != 1 || st.Reread != 0 {
		t.Errorf("refresh: %+v, want 1 file reused, 1 skipped", st)
	}

	var calls atomic.Int64
	ix, st, err := memory.Update(context.Background(), filepath.Join(t.TempDir(), "index"), nilText{filtering{memory.DirSource(root), "v", &calls}}, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	// (a.txt may match "beta" through a mined partner, alpha: b.txt must not)
	if st.Files != 1 || st.Skipped != 1 || slices.Contains(rels(ix.Search("beta", memory.SearchOptions{})), "b.txt") {
		t.Errorf("files %d, skipped %d, beta found %q: want b.txt, which the filter finds no text in, listed and not indexed",
			st.Files, st.Skipped, rels(ix.Search("beta", memory.SearchOptions{})))
	}
}

// nilText filters b.txt to nothing, as a decoder does binary content.
type nilText struct{ filtering }

func (n nilText) Filter(data []byte) []byte {
	if bytes.HasPrefix(data, []byte("beta")) {
		return nil
	}
	return n.filtering.Filter(data)
}

// TestBinaryFileIsNoWarning: a binary file is listed and not indexed, as
// the policy's walk yields it, and that is no news: it was a
// PATH_UNREADABLE warning ("binary file") on every build, for a file that
// reads fine.
func TestBinaryFileIsNoWarning(t *testing.T) {
	root := writeTree(t, map[string]string{"a.txt": "alpha\n", "logo.png": "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"})
	_, st, err := memory.Update(context.Background(), filepath.Join(t.TempDir(), "index"), memory.DirSource(root), false, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Warnings) != 0 {
		t.Errorf("warnings %+v, want none", st.Warnings)
	}
	if st.Files != 1 || st.Skipped != 1 {
		t.Errorf("files %d, skipped %d; want 1 and 1", st.Files, st.Skipped)
	}
}
