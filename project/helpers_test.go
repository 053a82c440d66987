package project_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/taskctl/taskctl/internal/diag"
	"github.com/taskctl/taskctl/internal/projtest"
	"github.com/taskctl/taskctl/project"
)

// The tree builders are internal/projtest's, shared with walk's tests.
const secret = projtest.Secret

var (
	writeTree = projtest.WriteTree
	mkdirAll  = projtest.MkdirAll
	realTemp  = projtest.RealTemp
)

func open(t testing.TB, opts project.Options) *project.Project {
	t.Helper()
	p, err := project.Open(opts)
	if err != nil {
		t.Fatalf("Open(%+v): %v", opts, err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

func git(t testing.TB, dir string, args ...string) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git binary")
	}
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_SYSTEM=/dev/null", "HOME="+dir)
	out, err := cmd.CombinedOutput()
	if err != nil {
		if _, ok := err.(*exec.ExitError); ok && args[0] == "check-ignore" {
			return string(out)
		}
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// noLeak fails if a candidate lies outside dir or reads outside content.
func noLeak(t testing.TB, p *project.Project, cands []project.Candidate) {
	t.Helper()
	for _, c := range cands {
		if !filepath.IsAbs(c.Path) || !inside(p.Dir(), c.Path) {
			t.Errorf("candidate %q lies outside %s", c.Path, p.Dir())
		}
		f, w := p.Confined().Read(c.Path)
		if w != nil {
			continue
		}
		if bytes.Contains(f.Content, []byte(secret)) {
			t.Errorf("Read(%q) returned outside content", c.Path)
		}
		if !inside(p.Dir(), f.Path) {
			t.Errorf("Read(%q).Path = %q, outside", c.Path, f.Path)
		}
	}
}

func inside(dir, p string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, "../") && !filepath.IsAbs(rel)
}

func codes(ws []diag.Warning) []string {
	var out []string
	for _, w := range ws {
		out = append(out, string(w.Code))
	}
	return out
}

func hasCode(ws []diag.Warning, code diag.Code) bool {
	for _, w := range ws {
		if w.Code == code {
			return true
		}
	}
	return false
}

func rels(cs []project.Candidate) []string {
	out := []string{}
	for _, c := range cs {
		out = append(out, c.Rel)
	}
	return out
}

var bg = context.Background()
