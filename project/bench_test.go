package project_test

import (
	"io/fs"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/taskctl/taskctl/project"
)

func goroot(b *testing.B) *project.Project {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		b.Skip(err)
	}
	src := filepath.Join(strings.TrimSpace(string(out)), "src")
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
