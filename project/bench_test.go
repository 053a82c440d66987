package project_test

import (
	"io/fs"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/taskctl/taskctl/project"
)

func goroot(b *testing.B) *project.Project {
	src := filepath.Join(runtime.GOROOT(), "src")
	pol := project.DefaultPolicy()
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
