package memory_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/taskctl/taskctl/memory"
)

// TestUpdate checks that Update builds an index where there is none,
// refreshes one as Open and Refresh do (reading nothing again when
// nothing changed, reading an edited file), rebuilds on request, and
// reports and rebuilds a corrupt index.
func TestUpdate(t *testing.T) {
	root := writeTree(t, appFiles)
	then := time.Now().Add(-10 * time.Second) // not racy
	for rel := range appFiles {
		os.Chtimes(filepath.Join(root, filepath.FromSlash(rel)), then, then)
	}
	dir := filepath.Join(t.TempDir(), "index")
	update := func(rebuild bool) (*memory.Index, memory.Stats) {
		t.Helper()
		ix, st, err := memory.Update(context.Background(), dir, memory.DirSource(root), rebuild, nil)
		if err != nil {
			t.Fatalf("Update: %v", err)
		}
		return ix, st
	}
	ix, st := update(false)
	if !st.Written || st.Reread != len(appFiles) || st.Files != len(appFiles) || len(st.Warnings) != 0 {
		t.Errorf("first Update: %+v, want every file read and an index written", st)
	}
	want := rels(ix.Search("session token", memory.SearchOptions{}))
	if len(want) == 0 {
		t.Fatalf("Search after the first Update found nothing")
	}

	ix, st = update(false)
	if st.Written || st.Reread != 0 || st.Reused != len(appFiles) || st.Files != len(appFiles) {
		t.Errorf("Update of an unchanged tree: %+v, want every file reused, nothing written", st)
	}
	if got := rels(ix.Search("session token", memory.SearchOptions{})); !slices.Equal(got, want) {
		t.Errorf("Search after an Update that changed nothing: %q, want %q", got, want)
	}

	var edited string
	for rel := range appFiles {
		edited = rel
		break
	}
	if err := os.WriteFile(filepath.Join(root, filepath.FromSlash(edited)), []byte("quokka\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ix, st = update(false)
	if !st.Written || st.Reread != 1 {
		t.Errorf("Update after editing %s: %+v, want it read again and an index written", edited, st)
	}
	if got := rels(ix.Search("quokka", memory.SearchOptions{})); !slices.Equal(got, []string{edited}) {
		t.Errorf("Search(quokka) = %q, want %q", got, edited)
	}

	_, st = update(true)
	if !st.Written || st.Reread != len(appFiles) {
		t.Errorf("Update with rebuild: %+v, want every file read and an index written", st)
	}

	if err := os.WriteFile(filepath.Join(dir, "index.bin"), []byte("hello, world\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ix, st = update(false)
	if len(st.Warnings) != 1 || st.Warnings[0].Code != "INDEX_CORRUPT" || !st.Written || st.Reread != len(appFiles) {
		t.Errorf("Update of a corrupt index: %+v, want one INDEX_CORRUPT and a rebuild", st)
	}
	if ix.Len() != len(appFiles) {
		t.Errorf("Len() after rebuilding a corrupt index = %d, want %d", ix.Len(), len(appFiles))
	}
	if _, warns, err := memory.Open(dir); err != nil || len(warns) != 0 {
		t.Errorf("Open after the rebuild: %v, %v", warns, err)
	}
}

// TestUpdateInMemory: Update with no directory builds an index that
// answers searches and refreshes, and writes nothing anywhere (a project
// whose .taskctl/ cannot be written is still searchable).
func TestUpdateInMemory(t *testing.T) {
	root := writeTree(t, appFiles)
	before, _ := os.ReadDir(".")
	ix, st, err := memory.Update(context.Background(), "", memory.DirSource(root), false, nil)
	if err != nil {
		t.Fatalf("Update: %v", err)
	}
	if st.Written || st.Files != len(appFiles) || ix.Dir() != "" {
		t.Errorf("in-memory Update: %+v, dir %q", st, ix.Dir())
	}
	if len(rels(ix.Search("session token", memory.SearchOptions{}))) == 0 {
		t.Errorf("the in-memory index finds nothing")
	}
	if err := os.WriteFile(filepath.Join(root, "zz.txt"), []byte("quokka\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	st, err = ix.Refresh(context.Background(), memory.DirSource(root), nil)
	if err != nil || st.Reread != 1 || st.Written {
		t.Errorf("in-memory Refresh: %+v, %v; want the new file read and nothing written", st, err)
	}
	if got := rels(ix.Search("quokka", memory.SearchOptions{})); len(got) != 1 || got[0] != "zz.txt" {
		t.Errorf("Search(quokka) = %q after the refresh", got)
	}
	after, _ := os.ReadDir(".")
	if len(after) != len(before) {
		t.Errorf("the working directory went from %d to %d entries", len(before), len(after))
	}
}
