package memory_test

import (
	"context"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/taskctl/taskctl/memory"
)

func refresh(t *testing.T, ix *memory.Index, root string) memory.Stats {
	t.Helper()
	st, err := ix.Refresh(context.Background(), memory.DirSource(root), nil)
	if err != nil {
		t.Fatalf("Refresh: %v", err)
	}
	return st
}

func TestPersistAndReopen(t *testing.T) {
	root := writeTree(t, appFiles)
	ix, dir := build(t, root)
	want := rels(ix.Search("session token", memory.SearchOptions{}))
	ix2, warns, err := memory.Open(dir)
	if err != nil || len(warns) != 0 {
		t.Fatalf("Open = %v, %v", warns, err)
	}
	if got := rels(ix2.Search("session token", memory.SearchOptions{})); !slices.Equal(got, want) {
		t.Errorf("after reopening: %q, want %q", got, want)
	}
	if ix2.Len() != len(appFiles) {
		t.Errorf("Len() = %d, want %d", ix2.Len(), len(appFiles))
	}
	if b, err := os.ReadFile(filepath.Join(dir, ".gitignore")); err != nil || string(b) != "*\n" {
		t.Errorf(".gitignore in the index dir = %q, %v; want \"*\\n\"", b, err)
	}
	// The project itself is untouched.
	ents, _ := os.ReadDir(root)
	for _, e := range ents {
		if e.Name() == ".taskctl" || strings.HasPrefix(e.Name(), "index") {
			t.Errorf("Refresh wrote %s into the project", e.Name())
		}
	}
}

func TestIncrementalRefresh(t *testing.T) {
	root := writeTree(t, appFiles)
	ix, dir := build(t, root)

	st := refresh(t, ix, root)
	if st.Reread != 0 || st.Written || st.Files != len(appFiles) {
		t.Errorf("refresh of an unchanged tree: %+v, want nothing reread or written", st)
	}

	// Touch without changing content: read and hashed, not analysed.
	p := filepath.Join(root, "src/billing/invoice.py")
	later := time.Now().Add(time.Hour)
	os.Chtimes(p, later, later)
	st = refresh(t, ix, root)
	if st.Reread != 0 || st.Reused != len(appFiles) {
		t.Errorf("after touching one file: %+v, want Reread 0", st)
	}

	// Edit one file.
	os.WriteFile(p, []byte("def refund_payment(order):\n    return stripe_refund(order)\n"), 0o644)
	st = refresh(t, ix, root)
	if st.Reread != 1 {
		t.Errorf("after editing one file: Reread %d, want 1", st.Reread)
	}
	if got := rels(ix.Search("refund payment", memory.SearchOptions{})); len(got) == 0 || got[0] != "src/billing/invoice.py" {
		t.Errorf("after edit, Search(refund payment) = %q", got)
	}
	if got := rels(ix.Search("render pdf customer", memory.SearchOptions{})); slices.Contains(got, "src/billing/invoice.py") {
		t.Errorf("the edited file is still found by its old content: %q", got)
	}

	// Rename one file: moved by content hash, not analysed again.
	if err := os.Rename(filepath.Join(root, "src/auth/tokens.py"), filepath.Join(root, "src/auth/session_tokens.py")); err != nil {
		t.Fatal(err)
	}
	st = refresh(t, ix, root)
	if st.Renamed != 1 || st.Reread != 0 || st.Removed != 0 {
		t.Errorf("after a rename: %+v, want Renamed 1, Reread 0, Removed 0", st)
	}
	got := rels(ix.Search("signed session token", memory.SearchOptions{}))
	if !slices.Contains(got, "src/auth/session_tokens.py") || slices.Contains(got, "src/auth/tokens.py") {
		t.Errorf("after rename: %q", got)
	}

	// Delete one file.
	os.Remove(filepath.Join(root, "README.md"))
	st = refresh(t, ix, root)
	if st.Removed != 1 || st.Files != len(appFiles)-1 {
		t.Errorf("after a delete: %+v, want Removed 1", st)
	}
	if got := rels(ix.Search("small web application", memory.SearchOptions{})); slices.Contains(got, "README.md") {
		t.Errorf("deleted file still found: %q", got)
	}

	// A fresh reader sees the same as the writer.
	ix2, _, _ := memory.Open(dir)
	if a, b := rels(ix.Search("password login", memory.SearchOptions{})), rels(ix2.Search("password login", memory.SearchOptions{})); !slices.Equal(a, b) {
		t.Errorf("writer sees %q, reader %q", a, b)
	}
	// The refreshed index equals one built from scratch.
	ix3, _ := build(t, root)
	for _, q := range []string{"password login", "session token", "refund", "routes handlers"} {
		a, b := ix.Search(q, memory.SearchOptions{Limit: -1}), ix3.Search(q, memory.SearchOptions{Limit: -1})
		if len(a) != len(b) {
			t.Errorf("%q: incremental %q, scratch %q", q, rels(a), rels(b))
			continue
		}
		for i := range a {
			if a[i].Rel != b[i].Rel || abs(a[i].Score-b[i].Score) > 1e-9 {
				t.Errorf("%q: incremental %q, scratch %q", q, rels(a), rels(b))
				break
			}
		}
	}
}

// TestTouchedFiles checks that files touched without a change of content
// are hashed again rather than written into a new index, until there are
// more than 64 of them, and that a touched file edited later is noticed.
func TestTouchedFiles(t *testing.T) {
	files := make(map[string]string)
	for i := range 80 {
		files[fmt.Sprintf("pkg/f%02d.go", i)] = fmt.Sprintf("package pkg\n\n// Handler%d serves requests.\nfunc Handler%d() {}\n", i, i)
	}
	root := writeTree(t, files)
	ix, dir := build(t, root)
	touch := func(n int) {
		later := time.Now().Add(time.Hour)
		for i := range n {
			os.Chtimes(filepath.Join(root, fmt.Sprintf("pkg/f%02d.go", i)), later, later)
		}
	}
	touch(3)
	for round := range 2 {
		st := refresh(t, ix, root)
		if st.Written || st.Reread != 0 || st.Files != 80 {
			t.Errorf("round %d after touching 3 files: %+v, want nothing reread or written", round, st)
		}
		ix, _, _ = memory.Open(dir)
	}
	// An edit of a touched file, even of the same size, is noticed.
	p := filepath.Join(root, "pkg/f01.go")
	os.WriteFile(p, []byte(strings.Replace(files["pkg/f01.go"], "serves", "refunds", 1)[:len(files["pkg/f01.go"])]), 0o644)
	if st := refresh(t, ix, root); st.Reread != 1 || !st.Written {
		t.Errorf("after editing a touched file: %+v, want Reread 1, Written", st)
	}
	if got := rels(ix.Search("refunds", memory.SearchOptions{})); !slices.Equal(got, []string{"pkg/f01.go"}) {
		t.Errorf("Search(refunds) = %q", got)
	}
	touch(70)
	if st := refresh(t, ix, root); !st.Written || st.Reread != 0 {
		t.Errorf("after touching 70 files: %+v, want Written, Reread 0", st)
	}
	ix, _, _ = memory.Open(dir)
	if st := refresh(t, ix, root); st.Written || st.Reread != 0 {
		t.Errorf("refresh after the new index: %+v, want nothing reread or written", st)
	}
}

// TestRacyFiles checks that a file rewritten right after it was indexed,
// with the same size and (as a coarse clock gives) the same modification
// time, is still noticed; and that many such files, once found unchanged,
// are settled by writing an index rather than read on every refresh.
func TestRacyFiles(t *testing.T) {
	root := writeTree(t, map[string]string{"a.go": "package a // alpha\n", "b.go": "package b // bravo\n"})
	ix, _ := build(t, root)
	p := filepath.Join(root, "a.go")
	fi, _ := os.Stat(p)
	os.WriteFile(p, []byte("package a // gamma\n"), 0o644)
	os.Chtimes(p, fi.ModTime(), fi.ModTime())
	if st := refresh(t, ix, root); st.Reread != 1 {
		t.Errorf("after a same-size rewrite keeping the time: %+v, want Reread 1", st)
	}
	if got := rels(ix.Search("gamma", memory.SearchOptions{})); !slices.Equal(got, []string{"a.go"}) {
		t.Errorf("Search(gamma) = %q", got)
	}

	// 70 files from ten seconds ago, indexed by an index file that says it
	// was written a second after them: racy, then settled by a new index.
	files := make(map[string]string)
	for i := range 70 {
		files[fmt.Sprintf("f%02d.go", i)] = fmt.Sprintf("package f // file%d\n", i)
	}
	root = writeTree(t, files)
	then := time.Now().Add(-10 * time.Second)
	for rel := range files {
		os.Chtimes(filepath.Join(root, rel), then, then)
	}
	_, dir := build(t, root)
	os.Chtimes(filepath.Join(dir, "index.bin"), then.Add(time.Second), then.Add(time.Second))
	src := &countingSource{Source: memory.DirSource(root)}
	ix, _, _ = memory.Open(dir)
	st, err := ix.Refresh(context.Background(), src, nil)
	if n := src.reads.Load(); err != nil || !st.Written || st.Reread != 0 || n != 70 {
		t.Errorf("refresh with 70 racy files: %+v, %v, %d reads; want all read, none analysed, an index written", st, err, n)
	}
	src.reads.Store(0)
	st, err = ix.Refresh(context.Background(), src, nil)
	if n := src.reads.Load(); err != nil || st.Written || n != 0 {
		t.Errorf("refresh after settling: %+v, %v, %d reads; want nothing read or written", st, err, n)
	}
}

// countingSource counts the files read through it.
type countingSource struct {
	memory.Source
	reads atomic.Int64
}

func (c *countingSource) ReadFile(rel string) ([]byte, error) {
	c.reads.Add(1)
	return c.Source.ReadFile(rel)
}

// TestTombstonesAndCompaction edits and deletes files in rounds; after each
// round the refreshed index must rank exactly as one built from scratch.
func TestTombstonesAndCompaction(t *testing.T) {
	files := map[string]string{}
	for i := range 40 {
		files[fmt.Sprintf("pkg%d/file%02d.go", i%4, i)] = fmt.Sprintf("package pkg\n\n// widget %d gadget%d\nfunc Widget%d() {}\n", i, i%7, i)
	}
	root := writeTree(t, files)
	ix, _ := build(t, root)
	var sizes []int64
	for round := range 4 {
		for i := round; i < 40; i += 5 {
			p := filepath.Join(root, fmt.Sprintf("pkg%d/file%02d.go", i%4, i))
			if round%2 == 0 {
				os.Remove(p)
			} else {
				os.WriteFile(p, []byte(fmt.Sprintf("package pkg\n// gizmo widget round %d\n", round)), 0o644)
			}
		}
		st := refresh(t, ix, root)
		sizes = append(sizes, st.IndexBytes)
		scratch, _ := build(t, root)
		for _, q := range []string{"widget", "gadget3 widget", "gizmo", "pkg2 widget"} {
			a, b := ix.Search(q, memory.SearchOptions{Limit: -1}), scratch.Search(q, memory.SearchOptions{Limit: -1})
			if len(a) != len(b) {
				t.Fatalf("round %d, %q: incremental %q, scratch %q", round, q, rels(a), rels(b))
			}
			for i := range a {
				if a[i].Rel != b[i].Rel || abs(a[i].Score-b[i].Score) > 1e-9 {
					t.Fatalf("round %d, %q: incremental %q, scratch %q", round, q, rels(a), rels(b))
				}
			}
		}
		if st.Files != scratch.Len() {
			t.Fatalf("round %d: %d files, scratch %d", round, st.Files, scratch.Len())
		}
	}
	t.Logf("index sizes by round: %v", sizes)
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

func TestSkipsBinaryAndIgnored(t *testing.T) {
	root := writeTree(t, map[string]string{
		".gitignore":        "build/\n*.log\n",
		"build/out.txt":     "generated scheduler output",
		"debug.log":         "scheduler log line",
		"sub/.gitignore":    "local.txt\n",
		"sub/local.txt":     "scheduler local notes",
		"sub/kept.txt":      "scheduler kept notes",
		"image.bin":         "scheduler\x00\x01\x02",
		"node_modules/x.js": "scheduler",
	})
	os.MkdirAll(filepath.Join(root, ".git", "info"), 0o755)
	os.WriteFile(filepath.Join(root, ".git", "info", "exclude"), []byte("secret.txt\n"), 0o644)
	os.WriteFile(filepath.Join(root, "secret.txt"), []byte("scheduler secret"), 0o644)
	os.WriteFile(filepath.Join(root, ".git", "config.txt"), []byte("scheduler"), 0o644)
	ix, _ := build(t, root)
	got := rels(ix.Search("scheduler", memory.SearchOptions{Limit: -1}))
	if !slices.Equal(got, []string{"sub/kept.txt"}) {
		t.Errorf("Search(scheduler) = %q, want only sub/kept.txt", got)
	}
	st := refresh(t, ix, root)
	if st.Skipped != 1 || st.Reread != 0 {
		t.Errorf("stats %+v, want the binary file listed as skipped and not reread", st)
	}
}

// TestNothingToAnalyse builds indexes of projects in which no file is
// analysed: one holding a binary file only (its index records the file as
// skipped, and no term), and one with no file at all, on disk and in
// memory, cold and rebuilt. A build of the first wrote an index with a
// malformed text section and failed reading it back. The second, run
// under -race as CI runs it, checks that the analysers' tables a cold
// build starts making before it knows whether any file is analysed are
// waited for.
func TestNothingToAnalyse(t *testing.T) {
	binary := writeTree(t, map[string]string{"report.bin": "x\x00y"})
	empty := t.TempDir()
	for _, root := range []string{binary, empty} {
		ix, dir := build(t, root)
		if ms := ix.Search("report", memory.SearchOptions{}); len(ms) != 0 {
			t.Errorf("Search in %s: %v", root, ms)
		}
		for _, rebuild := range []bool{true, false} {
			if _, _, err := memory.Update(context.Background(), dir, memory.DirSource(root), rebuild, nil); err != nil {
				t.Fatalf("Update(rebuild %v) of %s: %v", rebuild, root, err)
			}
			if _, _, err := memory.Update(context.Background(), "", memory.DirSource(root), rebuild, nil); err != nil {
				t.Fatalf("Update in memory (rebuild %v) of %s: %v", rebuild, root, err)
			}
		}
		ix2, warns, err := memory.Open(dir)
		if err != nil || len(warns) != 0 {
			t.Fatalf("Open(%s) = %v, %v", dir, warns, err)
		}
		if st := ix2.Stats(); st.Terms != 0 {
			t.Errorf("%s: %d terms", root, st.Terms)
		}
	}
}

// rewriteHeader fixes the length and checksum of an index file after its
// body was changed, so that the structural checks are what is tested.
func rewriteHeader(b []byte) {
	if len(b) < 32 {
		return
	}
	binary.LittleEndian.PutUint64(b[16:], uint64(len(b)-32))
	binary.LittleEndian.PutUint32(b[24:], crc32.Checksum(b[32:], crc32.MakeTable(crc32.Castagnoli)))
}

func TestCorruptIndexRebuilt(t *testing.T) {
	root := writeTree(t, appFiles)
	_, dir := build(t, root)
	name := filepath.Join(dir, "index.bin")
	good, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	flip := slices.Clone(good)
	flip[len(flip)/2] ^= 0x40
	badBody := slices.Clone(good)
	for i := 40; i < 60 && i < len(badBody); i++ {
		badBody[i] = 0xff
	}
	rewriteHeader(badBody)
	cases := map[string][]byte{
		"bit flip":  flip,
		"truncated": good[:len(good)*2/3],
		"empty":     {},
		"bad body":  badBody,
		"not ours":  []byte("hello, world\n"),
	}
	for name2, data := range cases {
		if err := os.WriteFile(name, data, 0o644); err != nil {
			t.Fatal(err)
		}
		ix, warns, err := memory.Open(dir)
		if err != nil {
			t.Fatalf("%s: Open error %v", name2, err)
		}
		if len(warns) != 1 || warns[0].Code != "INDEX_CORRUPT" {
			t.Errorf("%s: warnings %v, want one INDEX_CORRUPT", name2, warns)
		}
		if ms := ix.Search("authentication", memory.SearchOptions{}); len(ms) != 0 {
			t.Errorf("%s: the corrupt index answered %q", name2, rels(ms))
		}
		st := refresh(t, ix, root)
		if !st.Written || st.Reread != len(appFiles) {
			t.Errorf("%s: refresh %+v, want a full rebuild", name2, st)
		}
		if ms := ix.Search("authentication", memory.SearchOptions{}); len(ms) == 0 {
			t.Errorf("%s: rebuilt index found nothing", name2)
		}
		if _, warns, _ := memory.Open(dir); len(warns) != 0 {
			t.Errorf("%s: warnings after rebuild: %v", name2, warns)
		}
	}
}

func FuzzDecode(f *testing.F) {
	root := writeTree(f, map[string]string{
		"a/alpha.go": "package a\n\nfunc AlphaBeta() {}\n",
		"b/beta.py":  "def beta_gamma():\n    pass\n",
		"README.md":  "Alpha and beta.\n",
	})
	_, dir := build(f, root)
	good, err := os.ReadFile(filepath.Join(dir, "index.bin"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good, false)
	f.Add(good, true)
	f.Add(good[:40], true)
	f.Add([]byte("TCTLIDX\n"), false)
	f.Fuzz(func(t *testing.T, data []byte, fix bool) {
		data = slices.Clone(data)
		if fix {
			rewriteHeader(data) // reach the structural decoder past the checksum
		}
		d := t.TempDir()
		if err := os.WriteFile(filepath.Join(d, "index.bin"), data, 0o644); err != nil {
			t.Fatal(err)
		}
		ix, _, err := memory.Open(d)
		if err != nil {
			t.Fatalf("Open: %v", err)
		}
		for _, q := range []string{"alpha beta", "gamma in a/", "Python files"} {
			for _, m := range ix.Search(q, memory.SearchOptions{Limit: -1}) {
				if m.Score < 0 || m.Score > 1 {
					t.Fatalf("score %v out of range", m.Score)
				}
			}
		}
	})
}

// TestConcurrentUse searches one Index from several goroutines while it is
// refreshed (run with -race).
func TestConcurrentUse(t *testing.T) {
	root := writeTree(t, appFiles)
	ix, _ := build(t, root)
	src := memory.DirSource(root) // one project for all the searches: each DirSource keeps its own open
	done := make(chan struct{})
	errs := make(chan string, 4)
	for range 3 {
		go func() {
			for {
				select {
				case <-done:
					errs <- ""
					return
				default:
				}
				if ms := ix.Search("password login session", memory.SearchOptions{Source: src}); len(ms) == 0 {
					errs <- "a search during refresh found nothing"
					return
				}
			}
		}()
	}
	for i := range 5 {
		write(t, root, fmt.Sprintf("extra/f%d.py", i), fmt.Sprintf("def login_helper_%d():\n    pass\n", i))
		refresh(t, ix, root)
	}
	close(done)
	for range 3 {
		if e := <-errs; e != "" {
			t.Error(e)
		}
	}
}

func TestReset(t *testing.T) {
	root := writeTree(t, appFiles)
	ix, _ := build(t, root)
	ix.Reset()
	if ms := ix.Search("authentication", memory.SearchOptions{}); len(ms) == 0 {
		t.Error("Reset hid the index from readers before the rebuild")
	}
	st := refresh(t, ix, root)
	if st.Reread != len(appFiles) || !st.Written {
		t.Errorf("refresh after Reset: %+v, want every file reread", st)
	}
	if st := refresh(t, ix, root); st.Reread != 0 {
		t.Errorf("second refresh after Reset reread %d files", st.Reread)
	}
}

// TestStale checks that an Index knows whether the index file is still the
// one it holds: after a Refresh that kept the file as it was (Update of an
// index already current writes nothing), after another writer replaced it,
// and after it took the new one.
func TestStale(t *testing.T) {
	root := writeTree(t, appFiles)
	_, dir := build(t, root)
	ctx := context.Background()
	ix, st, err := memory.Update(ctx, dir, memory.DirSource(root), false, nil)
	if err != nil || st.Written {
		t.Fatalf("Update of a current index: written %v, %v", st.Written, err)
	}
	if ix.Stale() {
		t.Error("Stale after an Update that kept the index file")
	}
	for rel, content := range appFiles {
		os.WriteFile(filepath.Join(root, rel), []byte(content+"\nchanged by another writer\n"), 0o644)
		break
	}
	if _, st, err := memory.Update(ctx, dir, memory.DirSource(root), false, nil); err != nil || !st.Written {
		t.Fatalf("another writer's Update: written %v, %v", st.Written, err)
	}
	if !ix.Stale() {
		t.Error("not Stale after another writer replaced the index file")
	}
	if st := refresh(t, ix, root); st.Written {
		t.Error("Refresh after another writer's wrote again")
	}
	if ix.Stale() {
		t.Error("Stale after a Refresh took the new index file")
	}
	os.Remove(filepath.Join(dir, "index.bin"))
	if !ix.Stale() {
		t.Error("not Stale after the index file was removed")
	}
}
