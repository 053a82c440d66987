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

// BenchmarkRefreshEdit refreshes an index of $TASKCTL_BENCH_DIR after one
// file's modification time changed (its content did not).
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
