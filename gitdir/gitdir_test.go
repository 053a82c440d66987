package gitdir_test

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/taskctl/taskctl/gitdir"
	"github.com/taskctl/taskctl/root"
)

// TestFS: go-git's view reads what the git directory holds, by its own
// names and below a Chroot, and refuses every write and every name that
// leaves the git directory.
func TestFS(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for name, content := range map[string]string{".git/HEAD": "ref: refs/heads/main\n", ".git/objects/ab/cd": "obj", "a.txt": "a\n"} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r, err := root.Open([]string{dir}, root.Policy{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	g, err := r.GitDir(filepath.Join(dir, ".git"))
	if err != nil {
		t.Fatal(err)
	}
	fsys := gitdir.FS(g)
	read := func(name string) string {
		t.Helper()
		f, err := fsys.Open(name)
		if err != nil {
			t.Fatalf("Open(%s): %v", name, err)
		}
		defer f.Close()
		if f.Name() != name {
			t.Errorf("Open(%s).Name() = %q", name, f.Name())
		}
		data, _ := io.ReadAll(f)
		return string(data)
	}
	if got := read("HEAD"); got != "ref: refs/heads/main\n" {
		t.Errorf("HEAD = %q", got)
	}
	sub, err := fsys.Chroot("objects")
	if err != nil {
		t.Fatal(err)
	}
	if f, err := sub.Open(sub.Join("ab", "cd")); err != nil {
		t.Errorf("Chroot(objects).Open(ab/cd): %v", err)
	} else {
		f.Close()
	}
	if fis, err := sub.ReadDir("ab"); err != nil || len(fis) != 1 || fis[0].Name() != "cd" {
		t.Errorf("Chroot(objects).ReadDir(ab) = %v, %v", fis, err)
	}
	for _, name := range []string{"../a.txt", filepath.Join(dir, "a.txt")} {
		if _, err := fsys.Open(name); !errors.Is(err, root.ErrOutside) {
			t.Errorf("Open(%s) = %v, want ErrOutside", name, err)
		}
	}
	if _, err := sub.Open("../../a.txt"); !errors.Is(err, root.ErrOutside) {
		t.Errorf("Chroot(objects).Open(../../a.txt) = %v, want ErrOutside", err)
	}
	writes := map[string]error{}
	_, writes["OpenFile"] = fsys.OpenFile("HEAD", os.O_WRONLY|os.O_TRUNC, 0)
	_, writes["Create"] = fsys.Create("x")
	_, writes["TempFile"] = fsys.TempFile("objects", "tmp")
	writes["Rename"] = fsys.Rename("HEAD", "x")
	writes["Remove"] = fsys.Remove("HEAD")
	writes["MkdirAll"] = fsys.MkdirAll("x/y", 0o755)
	writes["Symlink"] = fsys.Symlink("HEAD", "x")
	for op, err := range writes {
		if !errors.Is(err, gitdir.ErrReadOnly) {
			t.Errorf("%s = %v, want ErrReadOnly", op, err)
		}
	}
	if got := read("HEAD"); got != "ref: refs/heads/main\n" {
		t.Errorf("HEAD after the writes = %q", got)
	}
}
