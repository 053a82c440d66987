package project_test

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/taskctl/taskctl/project"
	"github.com/taskctl/taskctl/root"
)

func goroot(b *testing.B) *project.Project {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		b.Skip(err)
	}
	src := filepath.Join(strings.TrimSpace(string(out)), "src")
	pol := root.DefaultPolicy()
	pol.MaxFiles = 1 << 30
	p, err := project.Open(project.Options{WorkingDir: src, ProjectDir: src, Policy: pol})
	if err != nil {
		b.Skip(err)
	}
	b.Cleanup(func() { p.Close() })
	return p
}

// BenchmarkExpandAll is Expand("**/*") over $GOROOT/src.
func BenchmarkExpandAll(b *testing.B) {
	p := goroot(b)
	var n int
	for b.Loop() {
		cands, _ := p.Expand(bg, []string{"**/*"})
		n = len(cands)
	}
	b.ReportMetric(float64(n), "files")
}

// BenchmarkExpandPatterns is several globs sharing one walk.
func BenchmarkExpandPatterns(b *testing.B) {
	p := goroot(b)
	var n int
	for b.Loop() {
		cands, _ := p.Expand(bg, []string{"**/*_test.go", "net/**/*.go", "**/testdata/**/*.txt", "cmd/*/main.go"})
		n = len(cands)
	}
	b.ReportMetric(float64(n), "files")
}

func BenchmarkWalk(b *testing.B) {
	p := goroot(b)
	var n int
	for b.Loop() {
		n = 0
		p.Walk(bg, func(project.Candidate, fs.FileInfo) error { n++; return nil })
	}
	b.ReportMetric(float64(n), "files")
}

// BenchmarkResolveFrom resolves what `find . -name '*.go'` prints in
// $GOROOT/src (or $PROJECT_BENCH_DIR), as `taskctl exec` does: a fresh
// Project each time (its caches start empty), two workers.
func BenchmarkResolveFrom(b *testing.B) {
	dir := os.Getenv("PROJECT_BENCH_DIR")
	if dir == "" {
		out, err := exec.Command("go", "env", "GOROOT").Output()
		if err != nil {
			b.Skip(err)
		}
		dir = filepath.Join(strings.TrimSpace(string(out)), "src")
	}
	dir, err := filepath.EvalSymlinks(dir)
	if err != nil {
		b.Skip(err)
	}
	var lines []string
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".go") {
			lines = append(lines, "./"+path[len(dir)+1:])
		}
		return nil
	})
	for b.Loop() {
		p, err := project.Open(project.Options{WorkingDir: dir, ProjectDir: dir})
		if err != nil {
			b.Fatal(err)
		}
		var wg sync.WaitGroup
		for k := range 2 {
			wg.Go(func() {
				for i := k; i < len(lines); i += 2 {
					p.ResolveFrom(dir, lines[i])
				}
			})
		}
		wg.Wait()
		p.Close()
	}
	b.ReportMetric(float64(len(lines)), "paths")
}
