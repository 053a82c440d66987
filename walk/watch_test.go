//go:build linux

package walk_test

import (
	"context"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/taskctl/taskctl/project"
	"github.com/taskctl/taskctl/walk"
)

// listing is what a walk yields, one line a file: Rel, Path, size, mtime
// and mode.
func listing(t *testing.T, walk func(func(project.Candidate, fs.FileInfo) error) error) []string {
	t.Helper()
	var out []string
	err := walk(func(c project.Candidate, info fs.FileInfo) error {
		out = append(out, fmt.Sprintf("%s %s %d %d %v", c.Rel, c.Path, info.Size(), info.ModTime().UnixNano(), info.Mode()))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// plainWalk is Walk on a project opened afresh (with the ignore files as
// they are now).
func plainWalk(t *testing.T, dir string) []string {
	t.Helper()
	p := open(t, project.Options{WorkingDir: dir, ProjectDir: dir})
	return listing(t, func(fn func(project.Candidate, fs.FileInfo) error) error {
		return p.Walk(context.Background(), fn)
	})
}

func watchWalk(t *testing.T, w *project.Watcher) []string {
	t.Helper()
	return listing(t, func(fn func(project.Candidate, fs.FileInfo) error) error {
		return w.Walk(context.Background(), fn)
	})
}

func startWatch(t *testing.T, dir string) *project.Watcher {
	t.Helper()
	p := open(t, project.Options{WorkingDir: dir, ProjectDir: dir})
	w, err := p.Watch()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	return w
}

// TestWatchFollowsChanges changes a tree at random, a few changes at a
// time — files written, appended to, deleted, renamed; directories made,
// deleted, renamed; ignore files written; symlinks made — and checks after
// each batch that the Watcher yields what a plain walk of the tree yields.
func TestWatchFollowsChanges(t *testing.T) {
	dir := realTemp(t)
	writeTree(t, dir, "go.mod", "a/x.go", "a/b/y.go", "a/b/c/z.go", "d/w.md", "e/", "notes.txt")
	w := startWatch(t, dir)
	if got, want := watchWalk(t, w), plainWalk(t, dir); !slices.Equal(got, want) {
		t.Fatalf("first walk:\ngot  %q\nwant %q", got, want)
	}
	seed := uint64(1)
	if s := os.Getenv("TASKCTL_WATCH_SEED"); s != "" {
		fmt.Sscan(s, &seed) // more sequences: for i in $(seq 50); do TASKCTL_WATCH_SEED=$i go test ...
	}
	rng := rand.New(rand.NewPCG(seed, 2))
	var log []string
	pick := func(kind string) string { // an existing file or directory, relative
		var all []string
		filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || p == dir {
				return nil
			}
			if d.IsDir() == (kind == "dir") {
				rel, _ := filepath.Rel(dir, p)
				all = append(all, rel)
			}
			return nil
		})
		if len(all) == 0 {
			return ""
		}
		return all[rng.IntN(len(all))]
	}
	parent := func() string { // a directory to put something in
		if rng.IntN(3) == 0 {
			return ""
		}
		return pick("dir")
	}
	n := 0
	name := func(ext string) string { n++; return fmt.Sprintf("n%d%s", n, ext) }
	for step := 0; step < 120; step++ {
		for k := 0; k < 1+rng.IntN(3); k++ {
			var op string
			switch rng.IntN(13) {
			case 0, 1:
				f := filepath.Join(parent(), name([]string{".go", ".md", ".log"}[rng.IntN(3)]))
				op = "write " + f
				os.WriteFile(filepath.Join(dir, f), []byte(strings.Repeat("x", rng.IntN(100))), 0o644)
			case 2:
				if f := pick("file"); f != "" {
					op = "append " + f
					fh, err := os.OpenFile(filepath.Join(dir, f), os.O_APPEND|os.O_WRONLY, 0)
					if err == nil {
						fh.WriteString("more\n")
						fh.Close()
					}
				}
			case 3:
				if f := pick("file"); f != "" {
					op = "remove " + f
					os.Remove(filepath.Join(dir, f))
				}
			case 4:
				if f := pick("file"); f != "" {
					to := filepath.Join(parent(), name(".go"))
					op = "rename " + f + " " + to
					os.Rename(filepath.Join(dir, f), filepath.Join(dir, to))
				}
			case 5:
				d := filepath.Join(parent(), name(""))
				op = "mkdir " + d
				writeTree(t, dir, filepath.Join(d, "in.go"), filepath.Join(d, "sub", "deep.go"))
			case 6:
				if d := pick("dir"); d != "" {
					op = "rmdir " + d
					os.RemoveAll(filepath.Join(dir, d))
				}
			case 7:
				if d := pick("dir"); d != "" {
					to := filepath.Join(parent(), name(""))
					if to == d || strings.HasPrefix(to, d+string(filepath.Separator)) {
						break
					}
					op = "mvdir " + d + " " + to
					os.Rename(filepath.Join(dir, d), filepath.Join(dir, to))
				}
			case 8:
				d := parent()
				pat := []string{"*.log\n", "sub/\n", "*.md\n", "n1*\n", ""}[rng.IntN(5)]
				op = fmt.Sprintf("ignore %s %q", d, pat)
				os.WriteFile(filepath.Join(dir, d, ".gitignore"), []byte(pat), 0o644)
			case 9:
				if f := pick("file"); f != "" {
					l := filepath.Join(parent(), name(".go"))
					op = "symlink " + l + " -> " + f
					os.Symlink(filepath.Join(dir, f), filepath.Join(dir, l))
				}
			case 11:
				if d := pick("dir"); d != "" {
					to := filepath.Join(parent(), name(""))
					if to == d || strings.HasPrefix(to, d+string(filepath.Separator)) {
						break
					}
					op = "mv " + d + " " + to + " and make " + d + " again"
					os.Rename(filepath.Join(dir, d), filepath.Join(dir, to))
					writeTree(t, dir, filepath.Join(d, "again.go"), filepath.Join(d, "sub", "again.go"))
				}
			case 12:
				if f := pick("file"); f != "" {
					l := filepath.Join(parent(), name(".go"))
					op = "link " + l + " = " + f
					os.Link(filepath.Join(dir, f), filepath.Join(dir, l))
					// A link the walk does not see (ignored) is a way
					// in that no watch sees either: see Watcher.
					if !slices.ContainsFunc(plainWalk(t, dir), func(s string) bool { return strings.HasPrefix(s, filepath.ToSlash(l)+" ") }) {
						os.Remove(filepath.Join(dir, l))
						op += " (ignored: removed)"
					}
				}
			case 10:
				if f := pick("file"); f != "" {
					op = "chtimes " + f
					at := time.Unix(int64(1e9+rng.IntN(1e6)), 0)
					os.Chtimes(filepath.Join(dir, f), at, at)
				}
			}
			if op != "" {
				log = append(log, op)
			}
		}
		got, want := watchWalk(t, w), plainWalk(t, dir)
		if !slices.Equal(got, want) {
			t.Fatalf("after step %d (%s):\ngot  %q\nwant %q", step, strings.Join(log, "; "), got, want)
		}
	}
}

// TestWatchWalksOnlyWhatChanged checks the point of a Watcher: after one
// file is touched in a tree of many directories, Sync lists one directory
// and stat's its files, not the tree.
func TestWatchWalksOnlyWhatChanged(t *testing.T) {
	dir := realTemp(t)
	var files []string
	for i := 0; i < 40; i++ {
		files = append(files, fmt.Sprintf("d%d/e%d/f.go", i, i))
	}
	writeTree(t, dir, files...)
	w := startWatch(t, dir)
	ctx := context.Background()
	if changed, err := w.Sync(ctx); err != nil || !changed {
		t.Fatalf("first Sync: changed %v, %v", changed, err)
	}
	if dirs, n := w.Len(); dirs != 81 || n != 40 {
		t.Fatalf("watching %d directories and %d files, want 81 and 40", dirs, n)
	}
	if changed, err := w.Sync(ctx); err != nil || changed {
		t.Fatalf("Sync with nothing changed: changed %v, %v", changed, err)
	}
	if got := walk.WatchWalked(w); got != 0 {
		t.Errorf("Sync with nothing changed walked %d directories", got)
	}
	later := time.Now().Add(time.Hour)
	os.Chtimes(filepath.Join(dir, "d7/e7/f.go"), later, later)
	if changed, err := w.Sync(ctx); err != nil || !changed {
		t.Fatalf("Sync after a touch: changed %v, %v", changed, err)
	}
	if got := walk.WatchWalked(w); got != 1 {
		t.Errorf("Sync after touching one file walked %d directories, want 1", got)
	}
	if got, want := watchWalk(t, w), plainWalk(t, dir); !slices.Equal(got, want) {
		t.Fatalf("got  %q\nwant %q", got, want)
	}
}

// TestWatchStartsOver checks what makes a Watcher walk everything again:
// lost events, and the exclude file of .git.
func TestWatchStartsOver(t *testing.T) {
	dir := realTemp(t)
	writeTree(t, dir, ".git/info/exclude = ", "a/x.go", "b/y.go", "c/z.log")
	w := startWatch(t, dir)
	ctx := context.Background()
	w.Sync(ctx)
	walk.WatchOverflow(w)
	if changed, err := w.Sync(ctx); err != nil || !changed {
		t.Fatalf("Sync after an overflow: changed %v, %v", changed, err)
	}
	if got := walk.WatchWalked(w); got != 4 {
		t.Errorf("Sync after an overflow walked %d directories, want 4", got)
	}
	writeTree(t, dir, ".git/info/exclude = *.log\n")
	if got, want := watchWalk(t, w), plainWalk(t, dir); !slices.Equal(got, want) || len(got) != 2 {
		t.Fatalf("after excluding *.log:\ngot  %q\nwant %q", got, want)
	}
	if got := walk.WatchWalked(w); got != 4 {
		t.Errorf("Sync after a change to .git/info/exclude walked %d directories, want 4", got)
	}
}

// TestWatchMovedDirectory moves a directory within the tree, then changes
// a file in it: the watch of a moved directory follows it (the kernel's
// watch is on the directory, not its path), so it must not be dropped
// with the directory's old path.
func TestWatchMovedDirectory(t *testing.T) {
	dir := realTemp(t)
	writeTree(t, dir, "a/b/x.go", "a/b/deep/y.go", "c/")
	w := startWatch(t, dir)
	watchWalk(t, w)
	if err := os.Rename(filepath.Join(dir, "a/b"), filepath.Join(dir, "c/b")); err != nil {
		t.Fatal(err)
	}
	if got, want := watchWalk(t, w), plainWalk(t, dir); !slices.Equal(got, want) {
		t.Fatalf("after the move:\ngot  %q\nwant %q", got, want)
	}
	writeTree(t, dir, "c/b/x.go = changed after the move\n", "c/b/deep/new.go")
	if got, want := watchWalk(t, w), plainWalk(t, dir); !slices.Equal(got, want) {
		t.Fatalf("after changes in the moved directory:\ngot  %q\nwant %q", got, want)
	}
	if got := walk.WatchWalked(w); got != 2 {
		t.Errorf("Sync after changes in two directories walked %d directories, want 2", got)
	}
}

// TestWatchChangeWithoutNewStat: a file rewritten with content of the same
// size and its old modification time put back stats as before, yet Sync
// must report a change (the caller then looks at the content).
func TestWatchChangeWithoutNewStat(t *testing.T) {
	dir := realTemp(t)
	writeTree(t, dir, "a/x.go = package a // one\n")
	w := startWatch(t, dir)
	ctx := context.Background()
	w.Sync(ctx)
	f := filepath.Join(dir, "a/x.go")
	fi, err := os.Stat(f)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(f, []byte("package a // two\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(f, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	if changed, err := w.Sync(ctx); err != nil || !changed {
		t.Errorf("Sync after a same-size write with the time put back: changed %v, %v", changed, err)
	}
	if changed, err := w.Sync(ctx); err != nil || changed {
		t.Errorf("Sync with nothing changed since: changed %v, %v", changed, err)
	}
}

// TestWatchUnwatchedDirectory: a directory the kernel refuses to watch
// (the watch limit reached) is listed at every Sync, so its changes are
// still seen.
func TestWatchUnwatchedDirectory(t *testing.T) {
	defer walk.RefuseWatches("nowatch")()
	dir := realTemp(t)
	writeTree(t, dir, "a/x.go", "nowatch/y.go", "nowatch/sub/z.go")
	w := startWatch(t, dir)
	watchWalk(t, w)
	if n := w.Unwatched(); n != 1 {
		t.Errorf("Unwatched() = %d, want 1", n)
	}
	writeTree(t, dir, "nowatch/y.go = longer than it was\n", "nowatch/sub/new.go")
	if got, want := watchWalk(t, w), plainWalk(t, dir); !slices.Equal(got, want) {
		t.Fatalf("after changes in unwatched directories:\ngot  %q\nwant %q", got, want)
	}
}

// sameAsWalk fails the test unless w yields what a plain walk of dir does.
func sameAsWalk(t *testing.T, w *project.Watcher, dir, after string) {
	t.Helper()
	if got, want := watchWalk(t, w), plainWalk(t, dir); !slices.Equal(got, want) {
		t.Fatalf("after %s:\ngot  %q\nwant %q", after, got, want)
	}
}

func mustRename(t *testing.T, from, to string) {
	t.Helper()
	if err := os.Rename(from, to); err != nil {
		t.Fatal(err)
	}
}

// TestWatchReplacedDirectories puts another directory, or none, where a
// watched one was — moved away and made again, swapped, moved out of the
// tree, deleted while something still holds it open, replaced by one with
// other ignore rules — then writes in the new one: each time the Watcher
// must yield what a plain walk does, now and after later writes (a new
// directory needs a watch of its own; what was recorded under its path,
// subdirectories and ignore files included, belongs to the old one).
func TestWatchReplacedDirectories(t *testing.T) {
	for _, tc := range []struct {
		name   string
		tree   []string
		change func(t *testing.T, dir, out string)
		later  []string
	}{
		{"moved away and made again", []string{"a/top.go", "a/x/f.go"}, func(t *testing.T, dir, out string) {
			mustRename(t, filepath.Join(dir, "a"), filepath.Join(dir, "b"))
			writeTree(t, dir, "a/x/g.go")
		}, []string{"a/x/h.go", "a/later.go"}},
		{"moved out of the tree and made again", []string{"a/f.go", "keep.go"}, func(t *testing.T, dir, out string) {
			mustRename(t, filepath.Join(dir, "a"), filepath.Join(out, "a"))
			writeTree(t, dir, "a/g.go")
		}, []string{"a/h.go"}},
		{"swapped", []string{"a/fa.go", "a/s/ia.go", "b/fb.go", "b/s/ib.go"}, func(t *testing.T, dir, out string) {
			mustRename(t, filepath.Join(dir, "a"), filepath.Join(dir, "tmp"))
			mustRename(t, filepath.Join(dir, "b"), filepath.Join(dir, "a"))
			mustRename(t, filepath.Join(dir, "tmp"), filepath.Join(dir, "b"))
		}, []string{"a/new.go", "b/s/new.go"}},
		{"deleted while held open", []string{"a/", "keep.go"}, func(t *testing.T, dir, _ string) {
			h, err := os.Open(filepath.Join(dir, "a"))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { h.Close() })
			if err := os.Remove(filepath.Join(dir, "a")); err != nil {
				t.Fatal(err)
			}
			writeTree(t, dir, "a/new.go")
		}, []string{"a/later.go"}},
		{"replaced by one with an ignore file", []string{"a/.gitignore = gen.go\n", "a/gen.go", "a/keep.go", "b/x.go"}, func(t *testing.T, dir, _ string) {
			writeTree(t, dir, "b/x.go = written, so b is walked (its ignore files read) again\n")
			if err := os.RemoveAll(filepath.Join(dir, "b")); err != nil {
				t.Fatal(err)
			}
			mustRename(t, filepath.Join(dir, "a"), filepath.Join(dir, "b"))
		}, []string{"b/other.go"}},
		{"replaced by one without its ignore file", []string{"a/.gitignore = gen.go\n", "a/keep.go", "c/gen.go", "c/other.go"}, func(t *testing.T, dir, out string) {
			mustRename(t, filepath.Join(dir, "a"), filepath.Join(out, "a"))
			mustRename(t, filepath.Join(dir, "c"), filepath.Join(dir, "a"))
		}, []string{"a/gen2.go"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := realTemp(t)
			writeTree(t, dir, tc.tree...)
			w := startWatch(t, dir)
			watchWalk(t, w)
			tc.change(t, dir, realTemp(t))
			sameAsWalk(t, w, dir, tc.name)
			writeTree(t, dir, tc.later...)
			sameAsWalk(t, w, dir, "later writes")
		})
	}
}

// TestWatchReplacedBelowUnwatched: a directory whose parent the kernel
// refused to watch is replaced by another with a subdirectory of the same
// name; no event of the parent says so, but the directory gets another
// watch than the one recorded, and its subdirectories are walked again.
func TestWatchReplacedBelowUnwatched(t *testing.T) {
	defer walk.RefuseWatches("nowatchparent")()
	dir := realTemp(t)
	writeTree(t, dir, "nowatchparent/child/sub/a.go", "other/")
	w := startWatch(t, dir)
	watchWalk(t, w)
	mustRename(t, filepath.Join(dir, "nowatchparent/child"), filepath.Join(dir, "other/moved"))
	writeTree(t, dir, "nowatchparent/child/sub/b.go")
	sameAsWalk(t, w, dir, "replacing a directory below an unwatched one")
}

// TestWatchHardLinks: a file with another hard link is written through
// that link — outside the tree, or in another directory of it — with no
// event in its own directory; such directories are listed at every Sync.
func TestWatchHardLinks(t *testing.T) {
	dir, out := realTemp(t), realTemp(t)
	writeTree(t, out, "store.go = one\n")
	writeTree(t, dir, "a/keep.go", "b/f.go = one\n", "c/", "d/solo.go")
	if err := os.Link(filepath.Join(out, "store.go"), filepath.Join(dir, "a/linked.go")); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(filepath.Join(dir, "b/f.go"), filepath.Join(dir, "c/f.go")); err != nil {
		t.Fatal(err)
	}
	w := startWatch(t, dir)
	watchWalk(t, w)
	os.WriteFile(filepath.Join(out, "store.go"), []byte("two, longer\n"), 0o644)
	sameAsWalk(t, w, dir, "writing a link outside the tree")
	os.WriteFile(filepath.Join(dir, "c/f.go"), []byte("two, longer\n"), 0o644)
	sameAsWalk(t, w, dir, "writing the other link inside the tree")
	// A link made since, in another watched directory, to a file that had
	// one: the directory of the first link is listed from then on.
	if err := os.Link(filepath.Join(dir, "d/solo.go"), filepath.Join(dir, "c/solo-link.go")); err != nil {
		t.Fatal(err)
	}
	sameAsWalk(t, w, dir, "linking d/solo.go from c")
	os.WriteFile(filepath.Join(dir, "c/solo-link.go"), []byte("written through the new link\n"), 0o644)
	sameAsWalk(t, w, dir, "writing through the new link")
}

// TestWatchIgnoreFilesOfUnwatched: the ignore file of a directory the
// kernel refused to watch is read again at every Sync.
func TestWatchIgnoreFilesOfUnwatched(t *testing.T) {
	defer walk.RefuseWatches("nowatch")()
	dir := realTemp(t)
	writeTree(t, dir, "nowatch/.gitignore = \n", "nowatch/gen.go", "nowatch/keep.go")
	w := startWatch(t, dir)
	watchWalk(t, w)
	writeTree(t, dir, "nowatch/.gitignore = gen.go\n")
	sameAsWalk(t, w, dir, "editing the ignore file of an unwatched directory")
}

// TestWatchGitInfoMadeLater: .git without info/ when the watch starts; the
// exclude file made later applies.
func TestWatchGitInfoMadeLater(t *testing.T) {
	dir := realTemp(t)
	writeTree(t, dir, ".git/HEAD = ref\n", "x.log", "y.go")
	w := startWatch(t, dir)
	watchWalk(t, w)
	writeTree(t, dir, ".git/info/exclude = *.log\n")
	sameAsWalk(t, w, dir, "making .git/info/exclude")
}
