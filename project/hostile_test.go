//go:build linux

package project_test

import (
	"bytes"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/taskctl/taskctl/project"
)

// hostile builds the fixture of deps-security.md §3.6: <base>/proj (the
// project) and its prefix sibling <base>/proj-evil holding the secret.
func hostile(t testing.TB) (base, proj string) {
	t.Helper()
	base = realTemp(t)
	proj = filepath.Join(base, "proj")
	evil := filepath.Join(base, "proj-evil")
	writeTree(t, evil, "secret = "+secret+"\n")
	writeTree(t, proj,
		"src/a.py = print('a')\n",
		"src/sub/",
		"src/abs_link -> /etc/hostname",
		"src/abs_link_secret -> "+filepath.Join(evil, "secret"),
		"src/rel_link_out -> ../../proj-evil/secret",
		"src/dir_link_out -> ../../proj-evil",
		"src/abs_dir_link_out -> "+evil,
		"src/abs_link_inside -> "+filepath.Join(proj, "src/a.py"),
		"src/abs_dir_link_in -> "+filepath.Join(proj, "src"),
		"src/rel_link_inside -> a.py",
		"loop1 -> loop2",
		"loop2 -> loop1",
		"self -> self",
		"proc_link -> /proc/self/root/etc/hostname",
		"zero_link -> /dev/zero",
		"chain_out -> chain_mid",
		"chain_mid -> src/rel_link_out",
		".env = "+secret+"-ENV\n",
		"config/.Env.local = KEY=1\n",
		"keys/server.PEM = x\n",
		".git/config = [core]\n",
		".taskctl/config.xml = <config/>\n",
		"node_modules/pkg/index.js = module.exports = 1\n",
	)
	writeTree(t, proj, "src/chain00 -> a.py")
	for i := 1; i <= 44; i++ {
		writeTree(t, proj, "src/"+chainName(i)+" -> "+chainName(i-1))
	}
	if err := syscall.Mkfifo(filepath.Join(proj, "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A char device (/dev/zero's numbers) works only as root.
	_ = syscall.Mknod(filepath.Join(proj, "zero_dev"), syscall.S_IFCHR|0o644, int(1<<8|5))
	if l, err := net.Listen("unix", filepath.Join(proj, "sock")); err == nil {
		t.Cleanup(func() { l.Close() })
	}
	return base, proj
}

func chainName(i int) string {
	return "chain" + string(rune('0'+i/10)) + string(rune('0'+i%10))
}

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
		want string // warning code, or "" for a file
		path string // the real path when ok
	}{
		{"src/a.py", ok, a},
		{"./src/a.py", ok, a},
		{"src//a.py", ok, a},
		{"src/./a.py", ok, a},
		{"src/sub/../a.py", ok, a},
		{"../proj-evil/secret", project.CodeOutsideProject, ""},
		{"src/../../proj-evil/secret", project.CodeOutsideProject, ""},
		{"../../../../../../etc/passwd", project.CodeOutsideProject, ""},
		{"/etc/passwd", project.CodeOutsideProject, ""},
		{proj + "-evil/secret", project.CodeOutsideProject, ""},
		{proj + "/../proj-evil/secret", project.CodeOutsideProject, ""},
		{proj + "/src/a.py", ok, a},
		{"%2e%2e/%2e%2e/etc/passwd", project.CodeNotFound, ""},
		{"..%2fproj-evil%2fsecret", project.CodeNotFound, ""},
		{"%252e%252e%252f", project.CodeNotFound, ""},
		{"....//....//etc/passwd", project.CodeNotFound, ""},
		{`..\..\etc\passwd`, project.CodeInvalid, ""},
		{`C:\Windows\win.ini`, project.CodeInvalid, ""},
		{`\\?\C:\x`, project.CodeInvalid, ""},
		{"C:/Windows/win.ini", project.CodeInvalid, ""},
		{"//server/share/x", project.CodeInvalid, ""},
		{"NUL", project.CodeNotFound, ""},
		{"CON", project.CodeNotFound, ""},
		{"COM1", project.CodeNotFound, ""},
		{"aux.txt", project.CodeNotFound, ""},
		{"~/.ssh/id_rsa", project.CodeNotFound, ""},
		{"~root/.bashrc", project.CodeNotFound, ""},
		{"$HOME/.bashrc", project.CodeNotFound, ""},
		{"${HOME}/.bashrc", project.CodeNotFound, ""},
		{"src/a.py\x00.txt", project.CodeInvalid, ""},
		{"", project.CodeInvalid, ""},
		{".", project.CodeIsDir, ""},
		{"/", project.CodeOutsideProject, ""},
		{strings.Repeat("a/", 3000), project.CodeInvalid, ""},
		{strings.Repeat("x", 300), project.CodeInvalid, ""},
		{"src/abs_link", project.CodeOutsideProject, ""},
		{"src/abs_link_secret", project.CodeOutsideProject, ""},
		{"src/rel_link_out", project.CodeOutsideProject, ""},
		{"src/dir_link_out/secret", project.CodeOutsideProject, ""},
		{"src/abs_dir_link_out/secret", project.CodeOutsideProject, ""},
		{"src/dir_link_out/../proj-evil/secret", project.CodeOutsideProject, ""},
		{"src/dir_link_out/../proj/src/a.py", ok, a},
		{"src/abs_link_inside", ok, a},
		{proj + "/src/abs_dir_link_in/a.py", ok, a},
		{"src/rel_link_inside", ok, a},
		{"loop1", project.CodeInvalid, ""},
		{"self", project.CodeInvalid, ""},
		{"src/chain07", ok, a},
		{"src/chain39", ok, a},
		{"src/chain44", project.CodeInvalid, ""},
		{"chain_out", project.CodeOutsideProject, ""},
		{"proc_link", project.CodeOutsideProject, ""},
		{"zero_link", project.CodeOutsideProject, ""},
		{"fifo", project.CodeSpecialFile, ""},
		{"/proc/self/environ", project.CodeOutsideProject, ""},
		{"/proc/self/root/etc/passwd", project.CodeOutsideProject, ""},
		{"/proc/self/cwd/src/a.py", project.CodeOutsideProject, ""},
		{"/dev/zero", project.CodeOutsideProject, ""},
		{"/dev/stdin", project.CodeOutsideProject, ""},
		{"src/ａ.py", project.CodeNotFound, ""},
		{"．．／proj-evil/secret", project.CodeNotFound, ""},
		{"..∕proj-evil∕secret", project.CodeNotFound, ""},
		{"‥/proj-evil/secret", project.CodeNotFound, ""},
		{"SRC/A.PY", project.CodeNotFound, ""},
		{"src/a.py/", project.CodeNotFound, ""},
		{"src/nonexistent/../a.py", project.CodeNotFound, ""},
		{"x\n../proj-evil/secret", project.CodeInvalid, ""},
		{"src/a.py\t", project.CodeInvalid, ""},
		{"src/a.py\r", project.CodeInvalid, ""},
		{"\x7f", project.CodeInvalid, ""},
		{"src/a.py\xff", project.CodeInvalid, ""},
		{"src/\u202eyp.a", project.CodeInvalid, ""},
		{"src/a\u0085.py", project.CodeInvalid, ""},
		{"-rf", project.CodeNotFound, ""},
		{"--output=/tmp/x", project.CodeNotFound, ""},
		{".env", project.CodeSensitive, ""},
		{"config/.Env.local", project.CodeSensitive, ""},
		{"keys/server.PEM", project.CodeSensitive, ""},
		{".git/config", project.CodeIgnored, ""},
		{".GIT/config", project.CodeNotFound, ""},
		{".taskctl/config.xml", project.CodeIgnored, ""},
		{"node_modules/pkg/index.js", ok, filepath.Join(proj, "node_modules/pkg/index.js")},
		{evil + "/secret", project.CodeOutsideProject, ""},
		{evil + "/nonexistent", project.CodeOutsideProject, ""},
	}
	if devErr == nil {
		tests = append(tests, struct{ in, want, path string }{"zero_dev", project.CodeSpecialFile, ""})
	}
	if sockErr == nil {
		tests = append(tests, struct{ in, want, path string }{"sock", project.CodeSpecialFile, ""})
	}
	if len(tests) < 56 {
		t.Fatalf("corpus has %d cases", len(tests))
	}
	for _, tt := range tests {
		c, w := p.ResolveFrom(p.WorkingDir(), tt.in)
		got := ""
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
			f, rw := p.Read(c)
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
		case tt.want == project.CodeIsDir:
			// "." names the project dir: it expands to its files.
		case strings.ContainsAny(tt.in, "*?[{") && tt.want == project.CodeNotFound && hasCode(warns, project.CodeNoMatch) && len(cands) == 0:
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
		want string // a warning code expected, or ""
	}{
		{"**/*", ""},
		{"**", ""},
		{"*", ""},
		{"./*", project.CodeOutsideProject},
		{"../*", ""},
		{"../../proj-evil/*", project.CodeOutsideProject},
		{"../../*-evil/**", project.CodeOutsideProject},
		{"../../**/secret", project.CodeOutsideProject},
		{"/etc/*", project.CodeOutsideProject},
		{"/proc/self/*", project.CodeOutsideProject},
		{"/dev/*", project.CodeOutsideProject},
		{"src/dir_link_out/*", project.CodeOutsideProject},
		{"src/abs_dir_link_out/**", project.CodeOutsideProject},
		{"src/**/secret", project.CodeNoMatch},
		{"src/*/../../../proj-evil/*", project.CodeInvalid},
		{"~/*", project.CodeNoMatch},
		{"$HOME/*", project.CodeNoMatch},
		{"%2e%2e/*", project.CodeNoMatch},
		{"src/*\x00", project.CodeInvalid},
		{`src\*`, project.CodeInvalid},
		{"src/[", project.CodeInvalid},
		{"src/{a,b", project.CodeInvalid},
		{"fif?", project.CodeSpecialFile},
		{"loop*", project.CodeInvalid},
		{"src/chain4*", project.CodeInvalid},
		{"**/*.py", ""},
		{".git/*", project.CodeNoMatch},
		{"**/.env", project.CodeSensitive},
		{"*_link", project.CodeOutsideProject},
		{proj + "-evil/*", project.CodeOutsideProject},
		{proj + "/../proj-evil/*", project.CodeOutsideProject},
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
	tests := []struct{ in, want, path string }{
		// Enough lookups in src for its listing to be read before its
		// subdirectories are first looked up.
		{"src/a.py", "", a},
		{"src/rel_link_inside", "", a},
		{"src/abs_link_inside", "", a},
		{"src/abs_link", project.CodeOutsideProject, ""},
		{"src/rel_link_out", project.CodeOutsideProject, ""},
		{"src/dir_link_out/secret", project.CodeOutsideProject, ""},
		{"src/sub/b.py", "", filepath.Join(proj, "src/sub/b.py")},
		{"./src/sub/deeper/c.py", "", filepath.Join(proj, "src/sub/deeper/c.py")},
		{"src/abs_dir_link_in/a.py", "", a},
		{"src/abs_dir_link_in/sub/b.py", "", filepath.Join(proj, "src/sub/b.py")},
		{"src/abs_dir_link_out/secret", project.CodeOutsideProject, ""},
		{"src/sub", project.CodeIsDir, ""},
		{"zero_link", project.CodeOutsideProject, ""},
		{"fifo", project.CodeSpecialFile, ""},
		{".git/config", project.CodeIgnored, ""},
		{".env", project.CodeSensitive, ""},
	}
	for round := range 6 { // the first lookups lstat; later ones use listings
		for _, tt := range tests {
			c, w := p.ResolveFrom(proj, tt.in)
			got := ""
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
		if f, rw := p.Read(c); rw == nil && bytes.Contains(f.Content, []byte(secret)) {
			t.Errorf("after the swap, Read(ResolveFrom(%q)) returned the secret", in)
		}
	}
}
