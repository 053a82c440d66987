//go:build linux

package project_test

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/taskctl/taskctl/project"
)

var fuzzSeeds = []string{
	"src/a.py", "./src/a.py", "src/sub/../a.py", "../proj-evil/secret", "src/../../proj-evil/secret",
	"/etc/passwd", "%2e%2e/%2e%2e/etc/passwd", `..\..\etc\passwd`, "~/.ssh/id_rsa", "$HOME/.bashrc",
	"src/a.py\x00.txt", "", ".", "/", "src/abs_link", "src/rel_link_out", "src/dir_link_out/secret",
	"src/dir_link_out/../proj-evil/secret", "src/dir_link_out/../proj/src/a.py", "src/abs_link_inside",
	"loop1", "self", "src/chain07", "src/chain44", "proc_link", "zero_link", "fifo", "zero_dev", "sock",
	"/proc/self/environ", "/dev/zero", "．．／proj-evil/secret", "src/a.py/", "**/*", "../*", "src/*/../../x",
	"{src,..}/**", "src/[a-z]*", "**/secret", "chain_out", ".env", ".git/config",
}

// FuzzResolve: for any string, ResolveFrom and Expand never panic, never
// return a path outside the project, and Read never returns outside content.
func FuzzResolve(f *testing.F) {
	base, proj := hostile(f)
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	p, err := project.Open(project.Options{WorkingDir: filepath.Join(proj, "src"), ProjectDir: proj})
	if err != nil {
		f.Fatal(err)
	}
	defer p.Close()
	f.Fuzz(func(t *testing.T, s string) {
		check := func(c project.Candidate) {
			if !inside(proj, c.Path) || strings.HasPrefix(c.Path, base+"/proj-evil") {
				t.Fatalf("%q: candidate %q outside the project", s, c.Path)
			}
			if file, w := p.Confined().Read(c.Path); w == nil {
				if bytes.Contains(file.Content, []byte(secret)) || !inside(proj, file.Path) {
					t.Fatalf("%q: Read(%q) returned outside content", s, c.Path)
				}
			}
		}
		for _, dir := range []string{proj, filepath.Join(proj, "src/sub")} {
			if c, w := p.ResolveFrom(dir, s); w == nil {
				check(c)
			} else if w.Code == "" {
				t.Fatalf("%q: warning without a code", s)
			}
		}
		cands, _ := p.Expand(bg, []string{s})
		for _, c := range cands {
			check(c)
		}
		// A hand-made candidate is checked again by Read.
		if filepath.IsAbs(s) {
			if file, w := p.Confined().Read(s); w == nil {
				if !inside(proj, file.Path) || bytes.Contains(file.Content, []byte(secret)) {
					t.Fatalf("Read(%q) returned outside content", s)
				}
			}
		}
	})
}
