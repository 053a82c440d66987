package tokens

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/tiktoken-go/tokenizer"
)

// benchCorpus is a deterministic sample of the Go source tree: the non-test
// .go files under src/net, src/go and src/runtime in walk order, up to 8 MB.
var benchCorpus = sync.OnceValues(func() ([][]byte, int) {
	out, _ := exec.Command("go", "env", "GOROOT").Output()
	var files [][]byte
	total := 0
	root := filepath.Join(strings.TrimSpace(string(out)), "src")
	for _, dir := range []string{"net", "go", "runtime"} {
		filepath.WalkDir(filepath.Join(root, dir), func(path string, d fs.DirEntry, err error) error {
			if err != nil || total >= 8<<20 {
				return filepath.SkipDir
			}
			if d.IsDir() && d.Name() == "testdata" {
				return filepath.SkipDir
			}
			if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return nil
			}
			b, err := os.ReadFile(path)
			if err == nil {
				files = append(files, b)
				total += len(b)
			}
			return nil
		})
	}
	return files, total
})

func benchCount(b *testing.B, count func([]byte) int, before func()) {
	files, total := benchCorpus()
	if total == 0 {
		b.Skip("no Go source tree")
	}
	b.SetBytes(int64(total))
	for b.Loop() {
		if before != nil {
			before()
		}
		for _, f := range files {
			count(f)
		}
	}
}

// BenchmarkCount compares, on the same bytes, the fast counter with a warm
// piece cache (as in the middle of packing a repository), with an empty one
// (the first file of a run), and the library.
func BenchmarkCountGoroot(b *testing.B) {
	for _, enc := range []string{O200kBase, Cl100kBase} {
		c, _ := New(enc)
		c.Count([]byte("warm the vocabulary"))
		b.Run(enc+"/fast", func(b *testing.B) { benchCount(b, c.Count, nil) })
		b.Run(enc+"/fast-cold", func(b *testing.B) { benchCount(b, c.Count, encodings[enc].resetCaches) })
		lib, _ := tokenizer.Get(tokenizer.Encoding(enc))
		lib.SetErrorMode(tokenizer.ErrorModeReplace)
		b.Run(enc+"/library", func(b *testing.B) {
			benchCount(b, func(t []byte) int { n, _ := lib.Count(string(t)); return n }, nil)
		})
	}
}

// BenchmarkRankTable is the first-use cost of an encoding.
func BenchmarkRankTable(b *testing.B) {
	for b.Loop() {
		buildRanks(o200kBaseTokens)
	}
}

// BenchmarkCountGorootParallel counts the sample on every processor at once
// (the caches are shared or per goroutine; the rank table is read-only).
func BenchmarkCountGorootParallel(b *testing.B) {
	files, total := benchCorpus()
	if total == 0 {
		b.Skip("no Go source tree")
	}
	c, _ := New(O200kBase)
	c.Count([]byte("warm the vocabulary"))
	b.SetBytes(int64(total / len(files)))
	b.RunParallel(func(pb *testing.PB) {
		for i := 0; pb.Next(); i++ {
			c.Count(files[i%len(files)])
		}
	})
}

// BenchmarkCountDir counts every file of $TASKCTL_BENCH_DIR (git ls-files
// there, or every regular file), read into memory beforehand, with warm
// caches and with empty ones: the tokenizer's share of bench/pack.sh on
// that repository.
func BenchmarkCountDir(b *testing.B) {
	dir := os.Getenv("TASKCTL_BENCH_DIR")
	if dir == "" {
		b.Skip("set TASKCTL_BENCH_DIR to a repository")
	}
	var paths []string
	if out, err := exec.Command("git", "-C", dir, "ls-files", "-z").Output(); err == nil {
		for _, p := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
			paths = append(paths, filepath.Join(dir, p))
		}
	} else {
		filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err == nil && d.Type().IsRegular() {
				paths = append(paths, path)
			}
			return nil
		})
	}
	var files [][]byte
	total := 0
	for _, p := range paths {
		if data, err := os.ReadFile(p); err == nil && !bytes.Contains(data, []byte{0}) {
			files = append(files, data)
			total += len(data)
		}
	}
	c, _ := New(O200kBase)
	c.Count([]byte("warm the vocabulary"))
	for _, cold := range []bool{false, true} {
		name := "warm"
		if cold {
			name = "cold" // empty caches: the first pack of a repository
		}
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(total))
			for b.Loop() {
				if cold {
					encodings[O200kBase].resetCaches()
				}
				for _, f := range files {
					c.Count(f)
				}
			}
		})
	}
}
