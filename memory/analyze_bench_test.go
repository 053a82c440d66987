package memory

import (
	"bytes"
	"context"
	"os"
	"testing"
	"time"
)

// BenchmarkAnalyse analyses every file of $TASKCTL_BENCH_DIR, read into
// memory beforehand, on one analyser with a fresh term table per
// iteration: the analyser's share of a cold build, without reading,
// merging or writing; "words" leaves the definitions out (no file's
// language is known), "definitions" finds them as a build does.
func BenchmarkAnalyse(b *testing.B) {
	dir := os.Getenv("TASKCTL_BENCH_DIR")
	if dir == "" {
		b.Skip("set TASKCTL_BENCH_DIR to a project directory")
	}
	src := DirSource(dir)
	var files [][]byte
	var rels []string
	total := 0
	err := src.Walk(context.Background(), func(rel string, size int64, _ time.Time) error {
		if size > MaxFileSize {
			return nil
		}
		data, err := src.ReadFile(rel)
		if err == nil && bytes.IndexByte(data, 0) < 0 {
			files = append(files, data)
			rels = append(rels, rel)
			total += len(data)
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	for _, defs := range []bool{false, true} {
		name := "words"
		if defs {
			name = "definitions"
		}
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(total))
			b.ReportAllocs()
			for b.Loop() {
				fl := newFreshLists(termEstimate(len(files), int64(total)), int64(total))
				a := fl.analyzer()
				for i, data := range files {
					rel := ""
					if defs {
						rel = rels[i]
					}
					a.post(data, uint32(i), rel)
				}
			}
		})
	}
}
