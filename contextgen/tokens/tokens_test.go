package tokens_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/taskctl/taskctl/contextgen/tokens"
)

// Expected counts were checked against the token IDs the library returns
// (e.g. cl100k "hello world" = [15339 1917], o200k = [24912 2375], the
// values tiktoken publishes).
func TestCount(t *testing.T) {
	tests := []struct {
		text          string
		o200k, cl100k int
	}{
		{"", 0, 0},
		{"hello world", 2, 2},
		{"Hello, world!", 4, 4},
		{"naïve 日本語", 5, 7},
		{"func main() {\n\tfmt.Println(\"hi\")\n}\n", 10, 10},
		{"<|endoftext|>", 7, 7}, // special tokens count as ordinary text
		{"    indented\n\n\n", 4, 4},
		{"\xff\xfe", 1, 1}, // invalid UTF-8 counts as U+FFFD
	}
	for _, enc := range []string{"o200k_base", "cl100k_base"} {
		c, err := tokens.New(enc)
		if err != nil {
			t.Fatal(err)
		}
		for _, tt := range tests {
			want := tt.o200k
			if enc == "cl100k_base" {
				want = tt.cl100k
			}
			if got := c.Count([]byte(tt.text)); got != want {
				t.Errorf("%s Count(%q) = %d, want %d", enc, tt.text, got, want)
			}
		}
	}
}

func TestNew(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", "o200k_base"},
		{"o200k_base", "o200k_base"},
		{"o200k", "o200k_base"},
		{"O200K", "o200k_base"},
		{"gpt-4o", "o200k_base"},
		{" gpt-4.1 ", "o200k_base"},
		{"cl100k_base", "cl100k_base"},
		{"cl100k", "cl100k_base"},
		{"gpt-4", "cl100k_base"},
		{"gpt-3.5-turbo", "cl100k_base"},
	}
	for _, tt := range tests {
		c, err := tokens.New(tt.in)
		if err != nil {
			t.Errorf("New(%q): %v", tt.in, err)
			continue
		}
		if c.Name() != tt.want {
			t.Errorf("New(%q).Name() = %q, want %q", tt.in, c.Name(), tt.want)
		}
	}
	for _, bad := range []string{"p50k_base", "claude", "o200k_basex"} {
		_, err := tokens.New(bad)
		if err == nil {
			t.Errorf("New(%q) succeeded, want an error", bad)
			continue
		}
		for _, valid := range []string{"o200k_base", "cl100k_base", "gpt-4o"} {
			if !strings.Contains(err.Error(), valid) {
				t.Errorf("New(%q) error %q does not list %q", bad, err, valid)
			}
		}
	}
}

func TestCountConcurrent(t *testing.T) {
	c, err := tokens.New("o200k")
	if err != nil {
		t.Fatal(err)
	}
	text := []byte(strings.Repeat("func main() {\n\tfmt.Println(\"hi\")\n}\n", 50))
	want := c.Count(text)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			if got := c.Count(text); got != want {
				t.Errorf("concurrent Count = %d, want %d", got, want)
			}
		})
	}
	wg.Wait()
}

// fake counts bytes and remembers how often it was called.
type fake struct {
	name  string
	calls atomic.Int64
}

func (f *fake) Name() string { return f.name }
func (f *fake) Count(b []byte) int {
	f.calls.Add(1)
	return len(b)
}

func TestCacheHitAcrossRuns(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cache", "tokens")
	contents := [][]byte{[]byte("hello world"), []byte("package main\n"), {}}

	run := func(wantHit bool) *fake {
		f := &fake{name: "fake"}
		ch := tokens.OpenCache(dir)
		for _, b := range contents {
			n, hit := ch.Count(f, b)
			if n != len(b) || hit != wantHit {
				t.Errorf("Count(%q) = %d, %v; want %d, %v", b, n, hit, len(b), wantHit)
			}
		}
		if err := ch.Save(); err != nil {
			t.Fatal(err)
		}
		return f
	}
	if f := run(false); f.calls.Load() != int64(len(contents)) {
		t.Errorf("first run called the counter %d times, want %d", f.calls.Load(), len(contents))
	}
	if f := run(true); f.calls.Load() != 0 {
		t.Errorf("second run called the counter %d times, want 0", f.calls.Load())
	}
	// The second run only found counts: it left the file as it was.
	before, err := os.Stat(filepath.Join(dir, tokens.CacheFile))
	if err != nil {
		t.Fatal(err)
	}
	run(true)
	if after, err := os.Stat(filepath.Join(dir, tokens.CacheFile)); err != nil || !os.SameFile(before, after) {
		t.Errorf("a run of hits alone rewrote the cache's file (%v)", err)
	}
	gi, err := os.ReadFile(filepath.Join(dir, ".gitignore"))
	if err != nil || string(gi) != "*\n" {
		t.Errorf(".gitignore = %q, %v; want \"*\\n\"", gi, err)
	}

	// Same content, other encoding: a miss.
	other := &fake{name: "other"}
	if _, hit := tokens.OpenCache(dir).Count(other, contents[0]); hit || other.calls.Load() != 1 {
		t.Errorf("other encoding: hit = %v, calls = %d; want a miss", hit, other.calls.Load())
	}
}

func TestCacheCorruptFile(t *testing.T) {
	dir := t.TempDir()
	f := &fake{name: "fake"}
	ch := tokens.OpenCache(dir)
	ch.Count(f, []byte("abc"))
	if err := ch.Save(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, tokens.CacheFile)
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	corruptions := map[string][]byte{
		"empty":       {},
		"garbage":     []byte("not a cache at all"),
		"truncated":   good[:len(good)-5],
		"flipped bit": func() []byte { b := bytes.Clone(good); b[len(b)-10] ^= 1; return b }(),
		"trailing":    append(bytes.Clone(good), 0),
	}
	for name, data := range corruptions {
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		ch := tokens.OpenCache(dir)
		if ch.Len() != 0 {
			t.Errorf("%s: Len() = %d, want an empty cache", name, ch.Len())
		}
		if n, hit := ch.Count(f, []byte("abc")); n != 3 || hit {
			t.Errorf("%s: Count = %d, %v; want 3, false", name, n, hit)
		}
		if err := ch.Save(); err != nil {
			t.Errorf("%s: Save: %v", name, err)
		}
		if _, hit := tokens.OpenCache(dir).Count(f, []byte("abc")); !hit {
			t.Errorf("%s: the rewritten cache does not hit", name)
		}
	}
}

func TestCacheRefusesSymlink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(t.TempDir(), "victim")
	if err := os.WriteFile(target, []byte("keep me"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, filepath.Join(dir, tokens.CacheFile)); err != nil {
		t.Skip("symlinks not supported:", err)
	}
	ch := tokens.OpenCache(dir)
	ch.Count(&fake{name: "fake"}, []byte("abc"))
	if err := ch.Save(); err == nil {
		t.Error("Save through a symlink succeeded, want an error")
	}
	if b, _ := os.ReadFile(target); string(b) != "keep me" {
		t.Errorf("symlink target changed to %q", b)
	}
	if fi, err := os.Lstat(filepath.Join(dir, tokens.CacheFile)); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("symlink was replaced: %v, %v", fi, err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("Save left files behind: %v", entries)
	}
}

func TestCacheNil(t *testing.T) {
	var ch *tokens.Cache
	f := &fake{name: "fake"}
	if n, hit := ch.Count(f, []byte("abcd")); n != 4 || hit {
		t.Errorf("nil cache Count = %d, %v; want 4, false", n, hit)
	}
	if err := ch.Save(); err != nil {
		t.Errorf("nil cache Save: %v", err)
	}
}

func TestCacheConcurrent(t *testing.T) {
	dir := t.TempDir()
	ch := tokens.OpenCache(dir)
	f := &fake{name: "fake"}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 200 {
				b := fmt.Appendf(nil, "content %d", i%50)
				if n, _ := ch.Count(f, b); n != len(b) {
					t.Errorf("goroutine %d: Count(%q) = %d", g, b, n)
				}
				if i%64 == 0 {
					if err := ch.Save(); err != nil {
						t.Error(err)
					}
				}
			}
		})
	}
	wg.Wait()
	if ch.Len() != 50 {
		t.Errorf("Len() = %d, want 50", ch.Len())
	}
}

func TestCacheEvictsLeastRecentlyUsed(t *testing.T) {
	if testing.Short() {
		t.Skip("fills the cache to its bound")
	}
	dir := t.TempDir()
	ch := tokens.OpenCache(dir)
	f := &fake{name: "fake"}
	first := []byte("kept: used again before the eviction")
	ch.Count(f, first)
	for i := range tokens.MaxCacheEntries {
		if i == tokens.MaxCacheEntries/2 {
			ch.Count(f, first) // refresh
		}
		ch.Count(f, fmt.Appendf(nil, "%d", i))
	}
	if n := ch.Len(); n > tokens.MaxCacheEntries || n < tokens.MaxCacheEntries*9/10 {
		t.Errorf("Len() = %d after overflow, want within [%d, %d]", n, tokens.MaxCacheEntries*9/10, tokens.MaxCacheEntries)
	}
	calls := f.calls.Load()
	if _, hit := ch.Count(f, first); !hit {
		t.Error("recently used entry was evicted")
	}
	if _, hit := ch.Count(f, []byte("0")); hit {
		t.Error("least recently used entry was kept")
	}
	if f.calls.Load() != calls+1 {
		t.Errorf("counter calls = %d, want %d", f.calls.Load(), calls+1)
	}
	if err := ch.Save(); err != nil {
		t.Fatal(err)
	}
	if got, want := tokens.OpenCache(dir).Len(), ch.Len(); got != want {
		t.Errorf("reopened Len() = %d, want %d", got, want)
	}
}

func BenchmarkCount(b *testing.B) {
	src, err := os.ReadFile("cache.go")
	if err != nil {
		b.Fatal(err)
	}
	for _, enc := range []string{"o200k", "cl100k"} {
		c, _ := tokens.New(enc)
		c.Count([]byte("warm up"))
		b.Run(enc, func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				c.Count(src)
			}
		})
	}
	b.Run("cache-hit", func(b *testing.B) {
		c, _ := tokens.New("o200k")
		ch := tokens.OpenCache(b.TempDir())
		ch.Count(c, src)
		b.SetBytes(int64(len(src)))
		for b.Loop() {
			ch.Count(c, src)
		}
	})
}

// TestCacheSumKeyed: a cache's sums are made with its own key, which its
// file keeps: the same in every run that opens the file, another for a
// fresh cache, so nothing outside the file can tell which contents share a
// sum.
func TestCacheSumKeyed(t *testing.T) {
	dir := t.TempDir()
	a, b := []byte("package main\n"), []byte("package mail\n")
	ch := tokens.OpenCache(dir)
	if ch.Sum(a) == ch.Sum(b) {
		t.Fatal("two contents have one sum")
	}
	if ch.Sum(a) != ch.Sum(bytes.Clone(a)) {
		t.Fatal("one content has two sums")
	}
	ch.Count(&fake{name: "fake"}, a)
	if err := ch.Save(); err != nil {
		t.Fatal(err)
	}
	if got := tokens.OpenCache(dir).Sum(a); got != ch.Sum(a) {
		t.Errorf("reopened cache sums %x, want %x (its file's key)", got, ch.Sum(a))
	}
	if other := tokens.OpenCache(t.TempDir()); other.Sum(a) == ch.Sum(a) {
		t.Error("a fresh cache sums with the same key")
	}
	var none *tokens.Cache
	if none.Sum(a) != (tokens.Sum{}) {
		t.Error("a nil cache's sum is not zero")
	}
}
