package walk

import (
	"bytes"
	"context"
	"encoding/binary"
	"hash/crc32"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/taskctl/taskctl/root"
)

// cacheTree makes a tree of nested directories a, a/b, a/b/c and d,
// each holding one file, and waits until a walk trusts their times. The
// tree admits every regular file, as a project with the default policy
// admits these.
func cacheTree(t *testing.T) *Tree {
	t.Helper()
	old := walkRacy
	walkRacy = int64(50 * time.Millisecond)
	t.Cleanup(func() { walkRacy = old })
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, rel := range []string{"a/f", "a/b/f", "a/b/c/f", "d/f", "f"} {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(rel), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	time.Sleep(120 * time.Millisecond)
	r, err := root.Open([]string{dir}, root.Policy{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	d := r.Dirs()[0]
	var tree *Tree
	tree = NewTree(d, RootMatcher(d), Hooks{
		Admit: func(full, rel, _ string, typ fs.FileMode, st *StatInfo, buf *[]byte) (Candidate, fs.FileInfo, bool) {
			fi, err := tree.Lstat(full, rel, st, buf)
			if !typ.IsRegular() || err != nil || !fi.Mode().IsRegular() {
				return Candidate{}, nil, false
			}
			return Candidate{Path: full, Rel: rel, Spec: "**"}, fi, true
		},
	})
	return tree
}

// TestWalkCacheLinks checks that a decoded walk cache links each
// directory's record to its subdirectories' records, and that a cache
// linking an entry to the record of another path is refused.
func TestWalkCacheLinks(t *testing.T) {
	tr := cacheTree(t)
	data, err := Cached(context.Background(), tr, nil, func(Candidate, fs.FileInfo) error { return nil })
	if err != nil || data == nil {
		t.Fatalf("WalkCached: %v, %d bytes", err, len(data))
	}
	c := decodeWalkCache(data, tr.dir)
	if c == nil || c.root == nil || c.root.rel != "" || len(c.dirs) != 5 {
		t.Fatalf("decoded cache: %+v", c)
	}
	var walk func(d *cachedDir) []string
	walk = func(d *cachedDir) []string {
		out := []string{d.rel}
		for _, e := range d.ents {
			if e.typ.IsDir() {
				if e.sub == 0 {
					t.Errorf("%q: entry %q has no record", d.rel, e.name)
					continue
				}
				out = append(out, walk(&c.dirs[e.sub-1])...)
			}
		}
		return out
	}
	got := walk(c.root)
	slices.Sort(got)
	if want := []string{"", "a", "a/b", "a/b/c", "d"}; !slices.Equal(got, want) {
		t.Errorf("directories reached through the links: %q, want %q", got, want)
	}

	// Link the root's entry "a" to the record of "d" instead.
	var numA, numD int
	for i, d := range c.dirs {
		switch d.rel {
		case "a":
			numA = i
		case "d":
			numD = i
		}
	}
	entry := []byte{dirCode, 1, 'a', byte(numA + 1)}
	i := bytes.Index(data, entry)
	if i < 0 {
		t.Fatalf("no entry %q in the cache", entry)
	}
	forged := bytes.Clone(data)
	forged[i+3] = byte(numD + 1)
	binary.LittleEndian.PutUint32(forged[12:], crc32.Checksum(forged[16:], crc32.MakeTable(crc32.Castagnoli)))
	if c := decodeWalkCache(forged, tr.dir); c != nil {
		t.Errorf("a cache linking a to the record of d was decoded")
	}
}

// TestWalkCacheBelowListedDir checks that when a directory is listed again
// (a file was added to it), its subdirectories' listings still come from
// the cache, found by path.
func TestWalkCacheBelowListedDir(t *testing.T) {
	tr := cacheTree(t)
	var files []string
	list := func(c Candidate, _ fs.FileInfo) error {
		files = append(files, c.Rel)
		return nil
	}
	data, err := Cached(context.Background(), tr, nil, list)
	if err != nil || data == nil {
		t.Fatalf("WalkCached: %v, %d bytes", err, len(data))
	}
	root := tr.dir
	if err := os.WriteFile(filepath.Join(root, "a", "g"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	time.Sleep(120 * time.Millisecond)
	prev := decodeWalkCache(data, root)
	next := &walkCache{start: time.Now().UnixNano()}
	files = nil
	if err := walkTree(context.Background(), tr, prev, next, list); err != nil {
		t.Fatal(err)
	}
	if want := []string{"a/b/c/f", "a/b/f", "a/f", "a/g", "d/f", "f"}; !slices.Equal(files, want) {
		t.Errorf("walk: %q, want %q", files, want)
	}
	fromPrev := func(d *cachedDir) bool {
		for i := range prev.dirs {
			if d == &prev.dirs[i] {
				return true
			}
		}
		return false
	}
	for _, d := range next.next {
		if want := d.rel != "a"; fromPrev(d) != want {
			t.Errorf("directory %q taken from the cache: %v, want %v", d.rel, !want, want)
		}
	}
}

// TestLstatAt compares lstatAt, whose name goes through a reused buffer,
// with unix.Fstatat: for a file, a directory, a symlink (not followed),
// a missing name and one holding a NUL, in an order that makes the
// buffer shrink and grow.
func TestLstatAt(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "sub", "deeper"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "sub", "a-rather-long-file-name.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("sub", filepath.Join(dir, "ln")); err != nil {
		t.Fatal(err)
	}
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fd)
	var buf []byte
	for _, name := range []string{"sub/a-rather-long-file-name.txt", "ln", "sub/deeper", ".", "missing", "sub/a-rather-long-file-name.txt/x", "s\x00ub", "sub"} {
		var got, want unix.Stat_t
		gotErr := lstatAt(fd, name, &got, &buf)
		wantErr := unix.Fstatat(fd, name, &want, unix.AT_SYMLINK_NOFOLLOW)
		if gotErr != wantErr || got != want {
			t.Errorf("lstatAt(%q) = %v, %+v; unix.Fstatat: %v, %+v", name, gotErr, got, wantErr, want)
		}
	}
}
