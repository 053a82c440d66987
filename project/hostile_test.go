//go:build linux

package project_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/taskctl/taskctl/internal/diag"
	"github.com/taskctl/taskctl/internal/projtest"
	"github.com/taskctl/taskctl/project"
)

// hostile is projtest's fixture (root's tests use it too).
var hostile = projtest.Hostile

func TestHostileCorpus(t *testing.T) {
	base, proj := hostile(t)
	evil := filepath.Join(base, "proj-evil")
	p := open(t, project.Options{WorkingDir: proj, ProjectDir: proj})
	a := filepath.Join(proj, "src/a.py")
	_, devErr := os.Lstat(filepath.Join(proj, "zero_dev"))
	_, sockErr := os.Lstat(filepath.Join(proj, "sock"))

	const ok = ""
	tests := []struct {
		in   string
		want diag.Code // warning code, or "" for a file
		path string    // the real path when ok
	}{
		{"src/a.py", ok, a},
		{"./src/a.py", ok, a},
		{"src//a.py", ok, a},
		{"src/./a.py", ok, a},
		{"src/sub/../a.py", ok, a},
		{"../proj-evil/secret", diag.PathOutsideProject, ""},
		{"src/../../proj-evil/secret", diag.PathOutsideProject, ""},
		{"../../../../../../etc/passwd", diag.PathOutsideProject, ""},
		{"/etc/passwd", diag.PathOutsideProject, ""},
		{proj + "-evil/secret", diag.PathOutsideProject, ""},
		{proj + "/../proj-evil/secret", diag.PathOutsideProject, ""},
		{proj + "/src/a.py", ok, a},
		{"%2e%2e/%2e%2e/etc/passwd", diag.PathNotFound, ""},
		{"..%2fproj-evil%2fsecret", diag.PathNotFound, ""},
		{"%252e%252e%252f", diag.PathNotFound, ""},
		{"....//....//etc/passwd", diag.PathNotFound, ""},
		{`..\..\etc\passwd`, diag.PathInvalid, ""},
		{`C:\Windows\win.ini`, diag.PathInvalid, ""},
		{`\\?\C:\x`, diag.PathInvalid, ""},
		{"C:/Windows/win.ini", diag.PathInvalid, ""},
		{"//server/share/x", diag.PathInvalid, ""},
		{"NUL", diag.PathNotFound, ""},
		{"CON", diag.PathNotFound, ""},
		{"COM1", diag.PathNotFound, ""},
		{"aux.txt", diag.PathNotFound, ""},
		{"~/.ssh/id_rsa", diag.PathNotFound, ""},
		{"~root/.bashrc", diag.PathNotFound, ""},
		{"$HOME/.bashrc", diag.PathNotFound, ""},
		{"${HOME}/.bashrc", diag.PathNotFound, ""},
		{"src/a.py\x00.txt", diag.PathInvalid, ""},
		{"", diag.PathInvalid, ""},
		{".", diag.PathIsDir, ""},
		{"/", diag.PathOutsideProject, ""},
		{strings.Repeat("a/", 3000), diag.PathInvalid, ""},
		{strings.Repeat("x", 300), diag.PathInvalid, ""},
		{"src/abs_link", diag.PathOutsideProject, ""},
		{"src/abs_link_secret", diag.PathOutsideProject, ""},
		{"src/rel_link_out", diag.PathOutsideProject, ""},
		{"src/dir_link_out/secret", diag.PathOutsideProject, ""},
		{"src/abs_dir_link_out/secret", diag.PathOutsideProject, ""},
		{"src/dir_link_out/../proj-evil/secret", diag.PathOutsideProject, ""},
		{"src/dir_link_out/../proj/src/a.py", ok, a},
		{"src/abs_link_inside", ok, a},
		{proj + "/src/abs_dir_link_in/a.py", ok, a},
		{"src/rel_link_inside", ok, a},
		{"loop1", diag.PathInvalid, ""},
		{"self", diag.PathInvalid, ""},
		{"src/chain07", ok, a},
		{"src/chain39", ok, a},
		{"src/chain44", diag.PathInvalid, ""},
		{"chain_out", diag.PathOutsideProject, ""},
		{"proc_link", diag.PathOutsideProject, ""},
		{"zero_link", diag.PathOutsideProject, ""},
		{"fifo", diag.PathSpecialFile, ""},
		{"/proc/self/environ", diag.PathOutsideProject, ""},
		{"/proc/self/root/etc/passwd", diag.PathOutsideProject, ""},
		{"/proc/self/cwd/src/a.py", diag.PathOutsideProject, ""},
		{"/dev/zero", diag.PathOutsideProject, ""},
		{"/dev/stdin", diag.PathOutsideProject, ""},
		{"src/ａ.py", diag.PathNotFound, ""},
		{"．．／proj-evil/secret", diag.PathNotFound, ""},
		{"..∕proj-evil∕secret", diag.PathNotFound, ""},
		{"‥/proj-evil/secret", diag.PathNotFound, ""},
		{"SRC/A.PY", diag.PathNotFound, ""},
		{"src/a.py/", diag.PathNotFound, ""},
		{"src/nonexistent/../a.py", diag.PathNotFound, ""},
		{"x\n../proj-evil/secret", diag.PathInvalid, ""},
		{"src/a.py\t", diag.PathInvalid, ""},
		{"src/a.py\r", diag.PathInvalid, ""},
		{"\x7f", diag.PathInvalid, ""},
		{"src/a.py\xff", diag.PathInvalid, ""},
		{"src/\u202eyp.a", diag.PathInvalid, ""},
		{"src/a\u0085.py", diag.PathInvalid, ""},
		{"-rf", diag.PathNotFound, ""},
		{"--output=/tmp/x", diag.PathNotFound, ""},
		{".env", diag.PathSensitive, ""},
		{"config/.Env.local", diag.PathSensitive, ""},
		{"keys/server.PEM", diag.PathSensitive, ""},
		{".git/config", diag.PathIgnored, ""},
		{".GIT/config", diag.PathNotFound, ""},
		{".taskctl/config.xml", diag.PathIgnored, ""},
		{"node_modules/pkg/index.js", ok, filepath.Join(proj, "node_modules/pkg/index.js")},
		{evil + "/secret", diag.PathOutsideProject, ""},
		{evil + "/nonexistent", diag.PathOutsideProject, ""},
	}
	if devErr == nil {
		tests = append(tests, struct {
			in   string
			want diag.Code
			path string
		}{"zero_dev", diag.PathSpecialFile, ""})
	}
	if sockErr == nil {
		tests = append(tests, struct {
			in   string
			want diag.Code
			path string
		}{"sock", diag.PathSpecialFile, ""})
	}
	if len(tests) < 56 {
		t.Fatalf("corpus has %d cases", len(tests))
	}
	for _, tt := range tests {
		c, w := p.ResolveFrom(p.WorkingDir(), tt.in)
		got := diag.Code("")
		if w != nil {
			got = w.Code
			if w.Path != "" && w.Path != tt.in && !filepath.IsAbs(w.Path) {
				t.Errorf("ResolveFrom(%q): warning path %q is neither absolute nor the input", tt.in, w.Path)
			}
			if strings.Contains(w.Message, secret) {
				t.Errorf("ResolveFrom(%q): warning message leaks the secret", tt.in)
			}
		}
		if got != tt.want {
			t.Errorf("ResolveFrom(%q) = %q, %v; want code %q", short(tt.in), c.Path, w, tt.want)
			continue
		}
		if w == nil {
			if c.Path != tt.path {
				t.Errorf("ResolveFrom(%q).Path = %q, want %q", short(tt.in), c.Path, tt.path)
			}
			f, rw := p.Confined().Read(c.Path)
			if rw != nil {
				t.Errorf("Read(%q): %v", c.Path, rw)
				continue
			}
			want, _ := os.ReadFile(tt.path)
			if !bytes.Equal(f.Content, want) {
				t.Errorf("Read(%q) = %q, want %q", c.Path, f.Content, want)
			}
		}
		if w == nil {
			noLeak(t, p, []project.Candidate{c})
		}

		// The same input as a template path.
		cands, warns := p.Expand(bg, []string{tt.in})
		noLeak(t, p, cands)
		switch {
		case tt.want == ok:
			if len(cands) != 1 || cands[0].Path != tt.path {
				t.Errorf("Expand(%q) = %v %v, want [%s]", short(tt.in), rels(cands), warns, tt.path)
			}
		case tt.want == diag.PathIsDir:
			// "." names the project dir: it expands to its files.
		case strings.ContainsAny(tt.in, "*?[{") && tt.want == diag.PathNotFound && hasCode(warns, diag.GlobNoMatch) && len(cands) == 0:
			// A glob whose base does not exist matched nothing.
		case !hasCode(warns, tt.want) || len(cands) != 0:
			t.Errorf("Expand(%q) = %v %v, want no file and %s", short(tt.in), rels(cands), codes(warns), tt.want)
		}
	}
}

func short(s string) string {
	if len(s) > 60 {
		return s[:60] + "..."
	}
	return s
}

// TestHostileGlobs runs hostile globs through Expand: whatever they match,
// nothing returned lies outside or reads outside content.
func TestHostileGlobs(t *testing.T) {
	_, proj := hostile(t)
	p := open(t, project.Options{WorkingDir: filepath.Join(proj, "src"), ProjectDir: proj})
	tests := []struct {
		glob string
		want diag.Code // a warning code expected, or ""
	}{
		{"**/*", ""},
		{"**", ""},
		{"*", ""},
		{"./*", diag.PathOutsideProject},
		{"../*", ""},
		{"../../proj-evil/*", diag.PathOutsideProject},
		{"../../*-evil/**", diag.PathOutsideProject},
		{"../../**/secret", diag.PathOutsideProject},
		{"/etc/*", diag.PathOutsideProject},
		{"/proc/self/*", diag.PathOutsideProject},
		{"/dev/*", diag.PathOutsideProject},
		{"src/dir_link_out/*", diag.PathOutsideProject},
		{"src/abs_dir_link_out/**", diag.PathOutsideProject},
		{"src/**/secret", diag.GlobNoMatch},
		{"src/*/../../../proj-evil/*", diag.PathInvalid},
		{"~/*", diag.GlobNoMatch},
		{"$HOME/*", diag.GlobNoMatch},
		{"%2e%2e/*", diag.GlobNoMatch},
		{"src/*\x00", diag.PathInvalid},
		{`src\*`, diag.PathInvalid},
		{"src/[", diag.PathInvalid},
		{"src/{a,b", diag.PathInvalid},
		{"fif?", diag.PathSpecialFile},
		{"loop*", diag.PathInvalid},
		{"src/chain4*", diag.PathInvalid},
		{"**/*.py", ""},
		{".git/*", diag.GlobNoMatch},
		{"**/.env", diag.PathSensitive},
		{"*_link", diag.PathOutsideProject},
		{proj + "-evil/*", diag.PathOutsideProject},
		{proj + "/../proj-evil/*", diag.PathOutsideProject},
	}
	for _, tt := range tests {
		cands, warns := p.Expand(bg, []string{tt.glob})
		noLeak(t, p, cands)
		for _, c := range cands {
			if strings.HasPrefix(c.Rel, ".git/") || strings.HasPrefix(c.Rel, ".taskctl/") || c.Rel == ".env" {
				t.Errorf("Expand(%q) yielded %s", tt.glob, c.Rel)
			}
		}
		if tt.want != "" && !hasCode(warns, tt.want) {
			t.Errorf("Expand(%q) = %v, warnings %v; want a %s", tt.glob, rels(cands), codes(warns), tt.want)
		}
	}
	// All of it at once, in one call.
	var all []string
	for _, tt := range tests {
		all = append(all, tt.glob)
	}
	cands, _ := p.Expand(bg, all)
	noLeak(t, p, cands)
	if len(cands) == 0 {
		t.Error("the corpus as one source yielded nothing")
	}
}

// TestResolveWarm: after a few lookups in a directory ResolveFrom reads
// its listing and caches directory resolutions; symlinks found there, to
// files or directories, inside or out, must still be evaluated as on the
// first lookup, and a directory swapped for a symlink afterwards must not
// let Read out.
func TestResolveWarm(t *testing.T) {
	base, proj := hostile(t)
	evil := filepath.Join(base, "proj-evil")
	writeTree(t, proj, "src/sub/b.py = print('b')\n", "src/sub/deeper/c.py = print('c')\n")
	p := open(t, project.Options{WorkingDir: proj, ProjectDir: proj})
	a := filepath.Join(proj, "src/a.py")
	tests := []struct {
		in   string
		want diag.Code
		path string
	}{
		// Enough lookups in src for its listing to be read before its
		// subdirectories are first looked up.
		{"src/a.py", "", a},
		{"src/rel_link_inside", "", a},
		{"src/abs_link_inside", "", a},
		{"src/abs_link", diag.PathOutsideProject, ""},
		{"src/rel_link_out", diag.PathOutsideProject, ""},
		{"src/dir_link_out/secret", diag.PathOutsideProject, ""},
		{"src/sub/b.py", "", filepath.Join(proj, "src/sub/b.py")},
		{"./src/sub/deeper/c.py", "", filepath.Join(proj, "src/sub/deeper/c.py")},
		{"src/abs_dir_link_in/a.py", "", a},
		{"src/abs_dir_link_in/sub/b.py", "", filepath.Join(proj, "src/sub/b.py")},
		{"src/abs_dir_link_out/secret", diag.PathOutsideProject, ""},
		{"src/sub", diag.PathIsDir, ""},
		{"zero_link", diag.PathOutsideProject, ""},
		{"fifo", diag.PathSpecialFile, ""},
		{".git/config", diag.PathIgnored, ""},
		{".env", diag.PathSensitive, ""},
	}
	for round := range 6 { // the first lookups lstat; later ones use listings
		for _, tt := range tests {
			c, w := p.ResolveFrom(proj, tt.in)
			got := diag.Code("")
			if w != nil {
				got = w.Code
			}
			if got != tt.want || w == nil && c.Path != tt.path {
				t.Errorf("round %d: ResolveFrom(%q) = %q, %v; want %q, code %q", round, tt.in, c.Path, w, tt.path, tt.want)
			}
		}
	}
	// Swap src/sub for a symlink out of the project: whatever the caches
	// say, Read must not return what lies outside.
	if err := os.Rename(filepath.Join(proj, "src/sub"), filepath.Join(base, "sub-moved")); err != nil {
		t.Fatal(err)
	}
	writeTree(t, evil, "b.py = "+secret+"\n")
	if err := os.Symlink(evil, filepath.Join(proj, "src/sub")); err != nil {
		t.Fatal(err)
	}
	for _, in := range []string{"src/sub/b.py", "src/sub/secret"} {
		c, w := p.ResolveFrom(proj, in)
		if w != nil {
			continue
		}
		if !inside(proj, c.Path) {
			t.Errorf("after the swap, ResolveFrom(%q).Path = %q, outside", in, c.Path)
		}
		if f, rw := p.Confined().Read(c.Path); rw == nil && bytes.Contains(f.Content, []byte(secret)) {
			t.Errorf("after the swap, Read(ResolveFrom(%q)) returned the secret", in)
		}
	}
}
