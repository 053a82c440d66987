package root

import (
	"io/fs"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkRead reads the first 2000 .go files of $GOROOT/src in turn,
// with openat2 where the kernel has it and through the os.Root alone.
func BenchmarkRead(b *testing.B) {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		b.Skip(err)
	}
	src := filepath.Join(strings.TrimSpace(string(out)), "src")
	if src, err = filepath.EvalSymlinks(src); err != nil {
		b.Skip(err)
	}
	var paths []string
	filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if len(paths) == 2000 {
			return fs.SkipAll
		}
		if err == nil && d.Type().IsRegular() && strings.HasSuffix(path, ".go") {
			paths = append(paths, path)
		}
		return nil
	})
	if len(paths) == 0 {
		b.Skip("no files")
	}
	for _, way := range []string{"openat2", "os.Root"} {
		b.Run(way, func(b *testing.B) {
			r := openRoot(b, DefaultPolicy(), src)
			if way == "os.Root" {
				r.disableBeneath()
			} else if !r.beneath() {
				b.Skip("no openat2 here")
			}
			var n, size int64
			for i := 0; b.Loop(); i++ {
				f, w := r.Read(paths[i%len(paths)])
				if w == nil {
					n++
					size += f.Size
				}
			}
			if n > 0 {
				b.ReportMetric(float64(size)/float64(n), "bytes/file")
			}
		})
	}
}
