package project_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/taskctl/taskctl/internal/diag"
	"github.com/taskctl/taskctl/project"
)

// fsTree is a project with a write root (src/gen), a workspace holding
// symlinks out, a sibling whose name has the project's as a prefix, and
// an outside directory. Its relative paths resolve against the workspace,
// so that the cases below read as paths in it.
func fsTree(t testing.TB) (dir, proj string, f *project.FS) {
	t.Helper()
	dir = realTemp(t)
	proj = filepath.Join(dir, "p")
	writeTree(t, dir,
		"p/.git/config = [core]",
		"p/src/main.go",
		"p/src/gen/",
		"p/.taskctl/workspace/sub/",
		"p/.taskctl/workspace/out -> ../../../outside",
		"p/src/gen/out -> ../../../outside",
		"p-evil/x = evil",
		"outside/secret = "+secret,
	)
	p := open(t, project.Options{ProjectDir: proj, WorkingDir: proj})
	f, warns, err := p.OpenFS(project.FSOptions{WriteRoots: []string{filepath.Join(proj, "src", "gen")},
		Base: filepath.Join(proj, ".taskctl", "workspace")})
	if err != nil || len(warns) > 0 {
		t.Fatalf("OpenFS: %v %v", err, warns)
	}
	return dir, proj, f
}

// TestWriteTargets: where a write goes, or which rule refuses it.
func TestWriteTargets(t *testing.T) {
	dir, proj, f := fsTree(t)
	ws := filepath.Join(proj, ".taskctl", "workspace")
	for _, c := range []struct {
		in   string
		want string    // the path written, or ""
		code diag.Code // the refusal
	}{
		{"a.txt", filepath.Join(ws, "a.txt"), ""},
		{"sub/../b.txt", filepath.Join(ws, "b.txt"), ""},
		{"new/dir/c.txt", filepath.Join(ws, "new", "dir", "c.txt"), ""},
		{filepath.Join(proj, "src", "gen", "x.go"), filepath.Join(proj, "src", "gen", "x.go"), ""},
		{"../x", "", diag.PathNotWritable},
		{"../../x", "", diag.PathNotWritable},
		{"../../../p-evil/x", "", diag.PathNotWritable},
		{dir + "/p-evil/y", "", diag.PathNotWritable},
		{ws + "-evil/y", "", diag.PathNotWritable},
		{filepath.Join(proj, "src", "gen-evil", "y"), "", diag.PathNotWritable},
		{filepath.Join(proj, "src", "main.go"), "", diag.PathNotWritable},
		{filepath.Join(proj, ".git", "config"), "", diag.PathNotWritable},
		{filepath.Join(proj, "src", "gen", ".git", "config"), "", diag.PathNotWritable},
		{".Git/hooks/x", "", diag.PathNotWritable},
		{"sub/.taskctl/x", "", diag.PathNotWritable},
		{"out/pwned", "", diag.WriteUnsafe},
		{"out", "", diag.WriteUnsafe},
		{filepath.Join(proj, "src", "gen", "out", "pwned"), "", diag.WriteUnsafe},
		{".env.local", "", diag.PathSensitive},
		{"sub", "", diag.PathIsDir},
		{ws, "", diag.PathIsDir},
		{"a\x00b", "", diag.PathInvalid},
		{"", "", diag.PathInvalid},
	} {
		r, w := f.WriteFile(c.in, []byte("x"), true, false)
		switch {
		case c.want != "" && (w != nil || r.Path != c.want):
			t.Errorf("WriteFile(%q) = %+v, %v, want %s", c.in, r, w, c.want)
		case c.want == "" && (w == nil || w.Code != c.code):
			t.Errorf("WriteFile(%q) = %+v, %v, want %s", c.in, r, w, c.code)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "outside", "secret")); string(b) != secret {
		t.Errorf("outside/secret = %q", b)
	}
	if ents, _ := os.ReadDir(filepath.Join(dir, "outside")); len(ents) != 1 {
		t.Errorf("outside/ holds %d entries", len(ents))
	}
}

// TestOnePathOneFile: with the project dir as the base (an MCP client's),
// a relative path names the same file to a write and to a read; a write
// outside the write area is refused with the workspace path to use.
func TestOnePathOneFile(t *testing.T) {
	dir := realTemp(t)
	proj := filepath.Join(dir, "p")
	writeTree(t, dir, "p/.git/config = [core]", "p/src/main.go", "p/sub/")
	p := open(t, project.Options{ProjectDir: proj, WorkingDir: filepath.Join(proj, "sub")})
	f, _, err := p.OpenFS(project.FSOptions{Base: proj})
	if err != nil {
		t.Fatal(err)
	}
	_, w := f.WriteFile("notes/plan.md", []byte("x"), false, false)
	if w == nil || w.Code != diag.PathNotWritable || !strings.HasSuffix(w.Message, "; write .taskctl/workspace/notes/plan.md instead") {
		t.Fatalf("write outside the workspace: %v", w)
	}
	if _, err := os.Stat(filepath.Join(proj, "notes")); err == nil {
		t.Fatal("the refused write made notes/")
	}
	const name = ".taskctl/workspace/notes/plan.md"
	r, w := f.WriteFile(name, []byte("# plan\n"), false, false)
	if w != nil || r.Path != filepath.Join(proj, name) {
		t.Fatalf("WriteFile(%q) = %+v, %v", name, r, w)
	}
	for _, s := range []string{name, r.Path} {
		if got, w := f.ReadFile(s); w != nil || string(got.Content) != "# plan\n" {
			t.Errorf("ReadFile(%q) = %v, %v", s, got, w)
		}
		if got, w := f.ReadWritable(s); w != nil || got.Path != r.Path {
			t.Errorf("ReadWritable(%q) = %v, %v", s, got, w)
		}
		if e, w := f.Stat(s); w != nil || e.Path != r.Path {
			t.Errorf("Stat(%q) = %v, %v", s, e, w)
		}
	}
	// A project file read from a server started in sub/.
	if got, w := f.ReadFile("src/main.go"); w != nil || got.Path != filepath.Join(proj, "src", "main.go") {
		t.Errorf("ReadFile(src/main.go) = %v, %v", got, w)
	}
	if l, w := f.List("src", project.ListOptions{}); w != nil || len(l.Entries) != 1 {
		t.Errorf("List(src) = %v, %v", l, w)
	}
}

// FuzzWriteFile: whatever the path, a write lands in the workspace or
// the write root, or is refused; nothing else under the temp dir changes.
func FuzzWriteFile(f *testing.F) {
	for _, s := range []string{"a", "../a", "/etc/x", "out/x", "sub/../../x", ".git/x", "src/gen/x", "../../src/gen/x",
		"./a/./b", "a//b", "~/x", "%2e%2e/x", "a/b/../../../x", strings.Repeat("a/", 100) + "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		dir, proj, fs := fsTree(t)
		r, w := fs.WriteFile(s, []byte("x"), true, false)
		if w != nil {
			return
		}
		ws := filepath.Join(proj, ".taskctl", "workspace")
		gen := filepath.Join(proj, "src", "gen")
		if !strings.HasPrefix(r.Path, ws+"/") && !strings.HasPrefix(r.Path, gen+"/") {
			t.Fatalf("WriteFile(%q) wrote %s", s, r.Path)
		}
		if b, err := os.ReadFile(r.Path); err != nil || string(b) != "x" {
			t.Fatalf("WriteFile(%q): %s holds %q, %v", s, r.Path, b, err)
		}
		if b, _ := os.ReadFile(filepath.Join(dir, "outside", "secret")); string(b) != secret {
			t.Fatalf("WriteFile(%q) changed outside/secret", s)
		}
	})
}
