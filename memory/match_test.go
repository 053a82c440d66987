package memory

import (
	"context"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// mapMatch is matchByMap's answer as a new slice.
func mapMatch(docs []docInfo, entries []walkEntry) []int {
	out := make([]int, len(entries))
	matchByMap(docs, entries, out)
	return out
}

// TestMatchPaths checks matchPaths against maps on documents numbered as
// a cold build numbers them (runs taken from the front and the back of the
// walk), then as refreshes append, tombstone and rename them, and in
// random order; with walks in order and not, with duplicates.
func TestMatchPaths(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for round := range 300 {
		n := rng.IntN(200)
		paths := make([]string, n)
		for i := range paths {
			paths[i] = fmt.Sprintf("d%d/%s/f%03d.go", rng.IntN(4), []string{"a", "a-b", "a.b", "ab"}[rng.IntN(4)], i)
		}
		slices.Sort(paths)
		paths = slices.Compact(paths)
		// numbered as workers taking from both ends of the walk give them
		var order []string
		front, back := 0, len(paths)
		var fromBack []string
		for front < back {
			if rng.IntN(2) == 0 {
				order = append(order, paths[front])
				front++
			} else {
				back--
				fromBack = append(fromBack, paths[back])
			}
		}
		order = append(order, fromBack...)
		switch round % 4 {
		case 1: // later refreshes appended some, and others changed or left
			for range rng.IntN(20) {
				order = append(order, fmt.Sprintf("new/%d.go", rng.IntN(1000)))
			}
		case 2:
			rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		case 3: // a duplicate live path (never written, but decoded)
			if len(order) > 0 {
				order = append(order, order[rng.IntN(len(order))])
			}
		}
		docs := make([]docInfo, len(order))
		for i, p := range order {
			docs[i] = docInfo{rel: p}
			if rng.IntN(10) == 0 {
				docs[i].flags = docDeleted
			}
			if rng.IntN(10) == 0 {
				docs[i].flags = docSkipped
			}
		}
		var entries []walkEntry
		for _, p := range paths {
			if rng.IntN(8) != 0 {
				entries = append(entries, walkEntry{rel: p})
			}
			if rng.IntN(20) == 0 {
				entries = append(entries, walkEntry{rel: p}) // the walker gave it twice
			}
			if rng.IntN(10) == 0 {
				entries = append(entries, walkEntry{rel: p + "x"})
			}
		}
		if round%5 == 4 {
			rng.Shuffle(len(entries), func(i, j int) { entries[i], entries[j] = entries[j], entries[i] })
		}
		got, want := matchPaths(docs, entries), mapMatch(docs, entries)
		if !slices.Equal(got, want) {
			t.Fatalf("round %d: matchPaths = %v, want %v", round, got, want)
		}
	}
}

// shuffledSource walks its files in a random order, some twice.
type shuffledSource struct {
	Source
	rng *rand.Rand
}

func (s shuffledSource) Walk(ctx context.Context, fn func(rel string, size int64, mtime time.Time) error) error {
	type file struct {
		rel   string
		size  int64
		mtime time.Time
	}
	var files []file
	err := s.Source.Walk(ctx, func(rel string, size int64, mtime time.Time) error {
		files = append(files, file{rel, size, mtime})
		if s.rng.IntN(10) == 0 {
			files = append(files, file{rel, size, mtime})
		}
		return nil
	})
	if err != nil {
		return err
	}
	s.rng.Shuffle(len(files), func(i, j int) { files[i], files[j] = files[j], files[i] })
	for _, f := range files {
		if err := fn(f.rel, f.size, f.mtime); err != nil {
			return err
		}
	}
	return nil
}

// TestUnorderedWalk checks that a source whose walk is not in order of
// path, and gives some paths twice, indexes as an ordered one does, and
// that refreshing with it finds nothing changed.
func TestUnorderedWalk(t *testing.T) {
	root := t.TempDir()
	goldenTree(t, root)
	then := time.Now().Add(-10 * time.Second) // not racy for the second refresh
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			os.Chtimes(p, then, then)
		}
		return nil
	})
	dirs := []string{t.TempDir(), t.TempDir()}
	srcs := []Source{DirSource(root), shuffledSource{DirSource(root), rand.New(rand.NewPCG(5, 6))}}
	for k, dir := range dirs {
		ix, _, err := Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ix.Refresh(context.Background(), srcs[k], nil); err != nil {
			t.Fatal(err)
		}
		st, err := ix.Refresh(context.Background(), srcs[k], nil)
		if err != nil || st.Written || st.Reread != 0 || st.Reused != st.Files {
			t.Errorf("source %d: second refresh: %+v, %v; want every file reused, nothing written", k, st, err)
		}
	}
	if a, b := canonicalDump(t, dirs[0]), canonicalDump(t, dirs[1]); a != b {
		t.Errorf("an unordered walk indexes differently:\n%s\nwant\n%s", b, a)
	}
}
