package memory

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSegmentedBuild: an index built in batches flushed to segments and
// merged is the index built in one piece, whatever the batch size (down to
// a file a batch), and a refresh that changes, adds and removes files in
// segments too (the old index merged with them, its documents renumbered
// or left as tombstones) gives the index a build from nothing gives. No
// scratch file is left behind.
func TestSegmentedBuild(t *testing.T) {
	root := t.TempDir()
	goldenTree(t, root)
	_, dir := buildIndex(t, root)
	whole := canonicalDump(t, dir)

	defer func(b int64) { segmentBytes = b }(segmentBytes)
	for _, b := range []int64{1, 300, 4 << 10, 64 << 10} {
		segmentBytes = b
		_, dir := buildIndex(t, root)
		if diff := dumpDiff(whole, canonicalDump(t, dir), 20); diff != "" {
			t.Errorf("batches of %d bytes: the index differs (-whole +segmented):\n%s", b, diff)
		}
		assertNoScratch(t, dir)
	}
	segmentBytes = 1 << 30
	defer func(n int) { batchFiles = n }(batchFiles)
	for _, n := range []int{1, 7} {
		batchFiles = n
		_, dir := buildIndex(t, root)
		if diff := dumpDiff(whole, canonicalDump(t, dir), 20); diff != "" {
			t.Errorf("batches of %d files: the index differs (-whole +segmented):\n%s", n, diff)
		}
	}
	batchFiles = 1 << 30

	// refreshed in segments: files changed, added and removed
	segmentBytes = 1 << 30
	ix, dir := buildIndex(t, root)
	segmentBytes = 2 << 10
	var changed int
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			switch changed++; changed % 5 {
			case 0:
				os.Remove(p)
			case 1:
				writeFile(t, root, strings.TrimPrefix(p, root+"/"), "rewritten segmentation merged postings\n")
			}
		}
		return nil
	})
	writeFile(t, root, "new/added.go", "package added\n\nfunc SegmentMerge() {}\n")
	st, err := ix.Refresh(context.Background(), DirSource(root), nil)
	if err != nil {
		t.Fatal(err)
	}
	if !st.Written || st.Reread == 0 || st.Removed == 0 {
		t.Fatalf("refresh: %+v", st)
	}
	segmentBytes = 1 << 30
	_, fresh := buildIndex(t, root)
	if diff := dumpDiff(canonicalDump(t, fresh), canonicalDump(t, dir), 20); diff != "" {
		t.Errorf("refreshed in segments: the index differs from a build (-build +refreshed):\n%s", diff)
	}
	assertNoScratch(t, dir)
	// and it searches as the build does
	res := ix.Search("SegmentMerge", SearchOptions{Limit: 3})
	if len(res) == 0 || res[0].Rel != "new/added.go" {
		t.Errorf("search after a segmented refresh: %v", res)
	}
}

func assertNoScratch(t *testing.T, dir string) {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if strings.Contains(e.Name(), scratchFile) {
			t.Errorf("scratch file left in the index directory: %s", e.Name())
		}
	}
}

// TestSegmentedBuildCleanup: a segmented build that is cancelled leaves no
// scratch file, and scratch files a killed writer left are removed by the
// next writer.
func TestSegmentedBuildCleanup(t *testing.T) {
	root := t.TempDir()
	goldenTree(t, root)
	defer func(b int64) { segmentBytes = b }(segmentBytes)
	segmentBytes = 2 << 10
	dir := t.TempDir()
	ix, _, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	calls := 0
	_, err = ix.Refresh(ctx, DirSource(root), func(done, total int) {
		if calls++; calls == total/2 {
			cancel()
		}
	})
	if err == nil {
		t.Fatal("a cancelled build returned no error")
	}
	assertNoScratch(t, dir)
	left := filepath.Join(dir, "."+scratchFile+".0123456789ab.tmp")
	if err := os.WriteFile(left, []byte("left by a killed writer"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := ix.Refresh(context.Background(), DirSource(root), nil); err != nil {
		t.Fatal(err)
	}
	assertNoScratch(t, dir)
}
