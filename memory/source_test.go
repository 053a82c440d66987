package memory

import (
	"bufio"
	"bytes"
	"context"
	"io/fs"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
)

// refWalk is DirSource's walk with go-git's gitignore matcher over all the
// patterns in scope, as it was before the walker kept per-directory match
// state; the walker must list exactly the same files.
func refWalk(root string) []string {
	readRef := func(name string, domain []string) []gitignore.Pattern {
		data, err := os.ReadFile(name)
		if err != nil {
			return nil
		}
		var ps []gitignore.Pattern
		sc := bufio.NewScanner(bytes.NewReader(data))
		for sc.Scan() {
			line := strings.TrimRight(sc.Text(), "\r")
			if strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "" {
				continue
			}
			ps = append(ps, gitignore.ParsePattern(line, domain))
		}
		return ps
	}
	patterns := readRef(filepath.Join(root, ".git", "info", "exclude"), nil)
	type level struct {
		dir string
		n   int
	}
	var stack []level
	var out []string
	matcher := gitignore.NewMatcher(patterns)
	filepath.WalkDir(root, func(p string, de fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if rel == "." {
			rel = ""
		}
		for len(stack) > 0 && !(rel == stack[len(stack)-1].dir || strings.HasPrefix(rel, stack[len(stack)-1].dir+"/") || stack[len(stack)-1].dir == "") {
			patterns = patterns[:stack[len(stack)-1].n]
			stack = stack[:len(stack)-1]
			matcher = gitignore.NewMatcher(patterns)
		}
		var parts []string
		if rel != "" {
			parts = strings.Split(rel, "/")
		}
		if de.IsDir() {
			if rel != "" {
				switch de.Name() {
				case ".git", ".taskctl", "node_modules":
					return fs.SkipDir
				}
				if matcher.Match(parts, true) {
					return fs.SkipDir
				}
			}
			if ps := readRef(filepath.Join(p, ".gitignore"), parts); len(ps) > 0 {
				stack = append(stack, level{dir: rel, n: len(patterns)})
				patterns = append(patterns, ps...)
				matcher = gitignore.NewMatcher(patterns)
			}
			return nil
		}
		if !de.Type().IsRegular() || matcher.Match(parts, false) {
			return nil
		}
		out = append(out, rel)
		return nil
	})
	return out
}

func walkList(t *testing.T, root string) []string {
	var out []string
	err := DirSource(root).Walk(context.Background(), func(rel string, _ int64, _ time.Time) error {
		out = append(out, rel)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestWalkMatchesGitignore compares the walker with go-git's matcher on
// random trees and random ignore files.
func TestWalkMatchesGitignore(t *testing.T) {
	names := []string{"a", "b", "build", "x.log", "y.go", "Foo", "test", "a.b", "[x", "z~", "bin", "sub"}
	lines := []string{"*.log", "build/", "!keep.log", "a", "/b", "sub/a", "**/test", "b/**", "!a", "bin/", "*.go", "!*.go",
		"[x", "a*[", "[", "\\[x", "F*", "*~", "test/", "sub/**/y.go", "!build/", "a.b ", "#c", "", "*/a", "a\\ "}
	rng := rand.New(rand.NewSource(2))
	for iter := range 150 {
		root := t.TempDir()
		var mk func(dir string, depth int)
		mk = func(dir string, depth int) {
			for range 1 + rng.Intn(5) {
				n := names[rng.Intn(len(names))]
				if depth < 4 && rng.Intn(3) == 0 {
					os.MkdirAll(filepath.Join(dir, n), 0o755)
					mk(filepath.Join(dir, n), depth+1)
				} else {
					os.WriteFile(filepath.Join(dir, n), []byte("x"), 0o644)
				}
			}
			if rng.Intn(2) == 0 {
				var b strings.Builder
				for range rng.Intn(6) {
					b.WriteString(lines[rng.Intn(len(lines))] + "\n")
				}
				os.WriteFile(filepath.Join(dir, ".gitignore"), []byte(b.String()), 0o644)
			}
		}
		mk(root, 0)
		if rng.Intn(3) == 0 {
			os.MkdirAll(filepath.Join(root, ".git", "info"), 0o755)
			os.WriteFile(filepath.Join(root, ".git", "info", "exclude"), []byte(lines[rng.Intn(len(lines))]+"\n"+lines[rng.Intn(len(lines))]+"\n"), 0o644)
		}
		got, want := walkList(t, root), refWalk(root)
		if !slices.Equal(got, want) {
			t.Fatalf("tree %d: walk gives %q, go-git's matcher %q", iter, got, want)
		}
	}
	if dir := os.Getenv("TASKCTL_BENCH_DIR"); dir != "" {
		if got, want := walkList(t, dir), refWalk(dir); !slices.Equal(got, want) {
			t.Fatalf("%s: walk lists %d files, go-git's matcher %d", dir, len(got), len(want))
		}
	}
}

func TestMatchNameForms(t *testing.T) {
	pats := []string{"a", "*.log", "a*", ".*.swp", "*", "a*b", "ab*ab", "", "x.y", "*~", "go.work*"}
	names := []string{"", "a", "b", "ab", "aab", "abab", "ababab", "x.log", ".log", "log", ".a.swp", ".swp", "a.b", "x.y", "xxy", "~", "a~", "go.work", "go.work.sum", "日本", "a\\b"}
	for _, p := range pats {
		pt := parseIgnore(p, nil)
		if pt.form == nameOther {
			t.Errorf("%q: no fast form", p)
		}
		for _, n := range names {
			got, gerr := pt.matchName(n)
			want, werr := filepath.Match(p, n)
			if got != want || (gerr == nil) != (werr == nil) {
				t.Errorf("matchName(%q, %q) = %v, %v; filepath.Match %v, %v", p, n, got, gerr, want, werr)
			}
		}
	}
}

type walked struct {
	rel   string
	size  int64
	mtime int64
}

func walkCachedList(t *testing.T, src CachingSource, prev []byte) ([]walked, []byte) {
	var out []walked
	next, err := src.WalkCached(context.Background(), prev, func(rel string, size int64, mtime time.Time) error {
		out = append(out, walked{rel, size, mtime.UnixNano()})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out, next
}

// TestWalkCache changes random trees step by step (files and directories
// added, removed, renamed and rewritten, ignore files edited) and checks
// that a walk reusing the previous walk's cache lists exactly what
// go-git's matcher and lstat give.
func TestWalkCache(t *testing.T) {
	old := walkRacy
	walkRacy = 0 // changes below are 20 ms after the walk, past a coarse clock tick
	defer func() { walkRacy = old }()
	names := []string{"a", "b", "build", "x.log", "y.go", "test", "sub", "c.txt"}
	lines := []string{"*.log", "build/", "!keep.log", "a", "/b", "sub/a", "**/test", "!a", "*.go", "!*.go", "c*", "*/a"}
	rng := rand.New(rand.NewSource(3))
	for iter := range 30 {
		root := t.TempDir()
		var dirs []string
		var mk func(dir string, depth int)
		mk = func(dir string, depth int) {
			dirs = append(dirs, dir)
			for range 1 + rng.Intn(4) {
				n := names[rng.Intn(len(names))]
				if depth < 3 && rng.Intn(3) == 0 {
					os.MkdirAll(filepath.Join(dir, n), 0o755)
					mk(filepath.Join(dir, n), depth+1)
				} else {
					os.WriteFile(filepath.Join(dir, n), []byte("x"), 0o644)
				}
			}
		}
		mk(root, 0)
		os.MkdirAll(filepath.Join(root, ".git", "info"), 0o755)
		src := DirSource(root)
		var cache []byte
		for step := range 12 {
			got, next := walkCachedList(t, src, cache)
			if next != nil {
				cache = next
			}
			want := refWalk(root)
			var gotRel []string
			for _, w := range got {
				gotRel = append(gotRel, w.rel)
				fi, err := os.Lstat(filepath.Join(root, w.rel))
				if err != nil || fi.Size() != w.size || fi.ModTime().UnixNano() != w.mtime {
					t.Fatalf("tree %d step %d: %s listed with size %d mtime %d, lstat gives %v", iter, step, w.rel, w.size, w.mtime, fi)
				}
			}
			if !slices.Equal(gotRel, want) {
				t.Fatalf("tree %d step %d: cached walk gives %q, go-git's matcher %q", iter, step, gotRel, want)
			}
			time.Sleep(20 * time.Millisecond)
			for range 1 + rng.Intn(3) {
				dir := dirs[rng.Intn(len(dirs))]
				n := filepath.Join(dir, names[rng.Intn(len(names))])
				switch rng.Intn(8) {
				case 0: // a new or rewritten file, another size
					os.WriteFile(n, []byte(strings.Repeat("y", 1+rng.Intn(9))), 0o644)
				case 1: // removed
					os.RemoveAll(n)
				case 2: // a new directory with a file
					os.MkdirAll(n, 0o755)
					os.WriteFile(filepath.Join(n, names[rng.Intn(len(names))]), []byte("z"), 0o644)
					dirs = append(dirs, n)
				case 3: // renamed
					os.Rename(n, filepath.Join(dir, names[rng.Intn(len(names))]))
				case 4, 5: // an ignore file written or changed
					var b strings.Builder
					for range rng.Intn(4) {
						b.WriteString(lines[rng.Intn(len(lines))] + "\n")
					}
					os.WriteFile(filepath.Join(dir, ".gitignore"), []byte(b.String()), 0o644)
				case 6:
					os.Remove(filepath.Join(dir, ".gitignore"))
				case 7:
					os.WriteFile(filepath.Join(root, ".git", "info", "exclude"), []byte(lines[rng.Intn(len(lines))]+"\n"), 0o644)
				}
			}
		}
	}
}

// TestWalkCacheDamaged checks that a damaged or foreign walk cache is
// ignored, never trusted.
func TestWalkCacheDamaged(t *testing.T) {
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, "d"), 0o755)
	os.WriteFile(filepath.Join(root, "d", "f.go"), []byte("package d"), 0o644)
	_, cache := walkCachedList(t, DirSource(root), nil)
	if decodeWalkCache(cache, root) == nil {
		t.Fatal("a fresh cache does not decode")
	}
	if decodeWalkCache(cache, root+"x") != nil {
		t.Error("a cache of another root decodes")
	}
	for i := range cache {
		for _, b := range []byte{0, 1, 0x80, 0xff} {
			bad := slices.Clone(cache)
			if bad[i] == b {
				continue
			}
			bad[i] = b
			if decodeWalkCache(bad, root) != nil && i < 16 {
				t.Errorf("header byte %d set to %#x: cache still decodes", i, b)
			}
		}
		if decodeWalkCache(cache[:i], root) != nil {
			t.Errorf("cache truncated to %d bytes decodes", i)
		}
	}
}
