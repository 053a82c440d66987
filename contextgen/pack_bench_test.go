package contextgen_test

import (
	"context"
	"io"
	"os"
	"testing"

	"github.com/taskctl/taskctl/contextgen"
	"github.com/taskctl/taskctl/contextgen/tokens"
	"github.com/taskctl/taskctl/project"
	"github.com/taskctl/taskctl/root"
)

// BenchmarkPackTree packs a whole tree as bench/pack.sh does (every file,
// o200k counts, xml), in process, with the token cache warm: the tree is
// the directory TASKCTL_BENCH_TREE names (unset: skipped), and the cache
// lives in a temporary directory.
func BenchmarkPackTree(b *testing.B) {
	dir := os.Getenv("TASKCTL_BENCH_TREE")
	if dir == "" {
		b.Skip("TASKCTL_BENCH_TREE names no tree to pack")
	}
	p, err := project.Open(project.Options{WorkingDir: dir, ProjectDir: dir, Policy: root.Policy{MaxFiles: 10_000_000}})
	if err != nil {
		b.Fatal(err)
	}
	defer p.Close()
	c, err := tokens.New("o200k_base")
	if err != nil {
		b.Fatal(err)
	}
	cacheDir := b.TempDir()
	pack := func() {
		opt := contextgen.Options{Project: p, Counter: c, Cache: tokens.OpenCache(cacheDir), Style: contextgen.StyleXML}
		doc, err := contextgen.Assemble(context.Background(), literalTask("**/*"), opt)
		if err != nil {
			b.Fatal(err)
		}
		if err := doc.Render(io.Discard, contextgen.StyleXML); err != nil {
			b.Fatal(err)
		}
		if err := opt.Cache.Save(); err != nil {
			b.Fatal(err)
		}
	}
	pack() // the cache made
	b.ResetTimer()
	for range b.N {
		pack()
	}
}
