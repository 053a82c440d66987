package memory_test

import (
	"context"
	"os"
	"testing"

	"github.com/taskctl/taskctl/memory"
)

// BenchmarkRefreshCold builds an index of $TASKCTL_BENCH_DIR from scratch.
func BenchmarkRefreshCold(b *testing.B) {
	dir := os.Getenv("TASKCTL_BENCH_DIR")
	if dir == "" {
		b.Skip("set TASKCTL_BENCH_DIR to a project directory")
	}
	src := memory.DirSource(dir)
	for b.Loop() {
		ix, _, err := memory.Open(b.TempDir())
		if err != nil {
			b.Fatal(err)
		}
		if _, err := ix.Refresh(context.Background(), src, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRefreshTouch refreshes an index of $TASKCTL_BENCH_DIR in which
// nothing changed: the walk (with its cache after the first refresh) and
// the comparison with the index. bench/index.sh times a refresh after a
// real touch, which costs the same plus reading one file.
func BenchmarkRefreshTouch(b *testing.B) {
	dir := os.Getenv("TASKCTL_BENCH_DIR")
	if dir == "" {
		b.Skip("set TASKCTL_BENCH_DIR to a project directory")
	}
	src := memory.DirSource(dir)
	ix, _, err := memory.Open(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	if _, err := ix.Refresh(context.Background(), src, nil); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := ix.Refresh(context.Background(), src, nil); err != nil {
			b.Fatal(err)
		}
	}
}

const benchReport = `panic: runtime error: index out of range [3] with length 3

goroutine 1 [running]:
main.(*Parser).next(...)
	/home/user/project/parser/scanner.go:214
The tests fail when the input ends in the middle of a multi-byte rune. I expected the scanner to
report an error instead of panicking. This started after the change to how the lexer buffers input;
see the docs for the expected behaviour of incomplete input.`

// BenchmarkOpenSearch opens the persisted index of $TASKCTL_BENCH_DIR and
// runs one long query, as one CLI call would.
func BenchmarkOpenSearch(b *testing.B) {
	dir := os.Getenv("TASKCTL_BENCH_DIR")
	if dir == "" {
		b.Skip("set TASKCTL_BENCH_DIR to a project directory")
	}
	src := memory.DirSource(dir)
	idx := b.TempDir()
	ix, _, err := memory.Open(idx)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := ix.Refresh(context.Background(), src, nil); err != nil {
		b.Fatal(err)
	}
	for _, q := range []struct{ name, q string }{{"short", "authentication token validation"}, {"report", benchReport}} {
		b.Run(q.name, func(b *testing.B) {
			for b.Loop() {
				ix, _, err := memory.Open(idx)
				if err != nil {
					b.Fatal(err)
				}
				ix.Search(q.q, memory.SearchOptions{Source: src})
			}
		})
	}
}
