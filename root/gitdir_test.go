package root

import (
	"errors"
	"io"
	"io/fs"
	"path/filepath"
	"syscall"
	"testing"
)

// TestGitDir: the view of a git directory opens what lies in it and
// nothing else, by both ways of opening (openat2 beneath the root, and its
// *os.Root): no symbolic link is followed, whether it leads out of the
// project, into it outside .git, or stays inside .git; a name leaving the
// git directory is refused; a FIFO is refused before it is opened.
func TestGitDir(t *testing.T) {
	base := realTemp(t)
	dir := filepath.Join(base, "proj")
	writeTree(t, base, "outside/objects/pack/p.pack = "+secret)
	writeTree(t, dir,
		".git/HEAD = ref: refs/heads/main",
		".git/objects/ab/cd = object",
		".git/refs/heads/",
		"a.txt = a",
		"loose/cd = "+secret,
		".git/out -> "+filepath.Join(base, "outside"),
		".git/rel_out -> ../../outside",
		".git/in_project -> ../loose",
		".git/in_git -> objects",
		".git/head_link -> HEAD",
	)
	if err := syscall.Mkfifo(filepath.Join(dir, ".git", "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, beneath := range []bool{true, false} {
		r := openRoot(t, Policy{}, dir)
		if !beneath {
			r.disableBeneath()
		}
		g, err := r.GitDir(filepath.Join(dir, ".git"))
		if err != nil {
			t.Fatalf("beneath=%v: GitDir: %v", beneath, err)
		}
		if f, err := g.Open("HEAD"); err != nil {
			t.Errorf("beneath=%v: Open(HEAD): %v", beneath, err)
		} else {
			data, _ := io.ReadAll(f)
			f.Close()
			if string(data) != "ref: refs/heads/main" {
				t.Errorf("beneath=%v: HEAD = %q", beneath, data)
			}
		}
		if ents, err := g.ReadDir("objects/ab"); err != nil || len(ents) != 1 || ents[0].Name() != "cd" {
			t.Errorf("beneath=%v: ReadDir(objects/ab) = %v, %v", beneath, ents, err)
		}
		if fi, err := g.Stat("objects"); err != nil || !fi.IsDir() {
			t.Errorf("beneath=%v: Stat(objects) = %v, %v", beneath, fi, err)
		}
		for _, name := range []string{"out/objects/pack/p.pack", "rel_out/objects/pack/p.pack", "in_project/cd", "in_git/ab/cd", "head_link"} {
			if f, err := g.Open(name); !errors.Is(err, ErrGitLink) {
				if err == nil {
					f.Close()
				}
				t.Errorf("beneath=%v: Open(%s) = %v, want ErrGitLink", beneath, name, err)
			}
		}
		for _, name := range []string{"out/objects", "in_project/cd", "head_link", "in_git"} {
			if _, err := g.Stat(name); !errors.Is(err, ErrGitLink) {
				t.Errorf("beneath=%v: Stat(%s) = %v, want ErrGitLink", beneath, name, err)
			}
		}
		if fi, err := g.Lstat("out"); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			t.Errorf("beneath=%v: Lstat(out) = %v, %v: want the link itself", beneath, fi, err)
		}
		for _, name := range []string{"../a.txt", "../loose/cd", "objects/../../a.txt", filepath.Join(dir, "a.txt")} {
			if f, err := g.Open(name); !errors.Is(err, ErrOutside) {
				if err == nil {
					f.Close()
				}
				t.Errorf("beneath=%v: Open(%s) = %v, want ErrOutside", beneath, name, err)
			}
			if _, err := g.Stat(name); !errors.Is(err, ErrOutside) {
				t.Errorf("beneath=%v: Stat(%s) = %v, want ErrOutside", beneath, name, err)
			}
		}
		if f, err := g.Open("fifo"); !errors.Is(err, ErrNotRegular) {
			if err == nil {
				f.Close()
			}
			t.Errorf("beneath=%v: Open(fifo) = %v, want ErrNotRegular", beneath, err)
		}
	}
}

// TestGitDirWhere: a git directory is a directory of the root, reached by
// its real path: not a link (.git -> elsewhere), not a file (a linked
// worktree's), not outside the root, not .taskctl/ nor inside it or
// another .git; a bare repository (the root's own directory) is one.
func TestGitDirWhere(t *testing.T) {
	base := realTemp(t)
	dir := filepath.Join(base, "proj")
	writeTree(t, base, "other/.git/HEAD = x")
	writeTree(t, dir,
		"sub/.git/HEAD = x",
		".taskctl/repo/.git/HEAD = x",
		".git/modules/m/HEAD = x",
		"wt/.git = gitdir: /elsewhere",
		"linked/.git -> ../sub/.git",
		"via -> sub",
		"tk -> .taskctl/repo",
	)
	r := openRoot(t, Policy{}, dir)
	for _, c := range []struct {
		path string
		ok   func(error) bool
	}{
		{"sub/.git", func(err error) bool { return err == nil }},
		{"via/.git", func(err error) bool { return err == nil }},
		{".", func(err error) bool { return err == nil }},
		{"wt/.git", func(err error) bool { return errors.Is(err, syscall.ENOTDIR) }},
		{"linked/.git", func(err error) bool { return errors.Is(err, syscall.ENOTDIR) }},
		{".taskctl/repo/.git", func(err error) bool { _, ok := errors.AsType[*StateError](err); return ok }},
		{"tk/.git", func(err error) bool { _, ok := errors.AsType[*StateError](err); return ok }},
		{".taskctl", func(err error) bool { _, ok := errors.AsType[*StateError](err); return ok }},
		{".git/modules/m", func(err error) bool { _, ok := errors.AsType[*StateError](err); return ok }},
		{"../other/.git", func(err error) bool { return errors.Is(err, ErrOutside) }},
		{"missing/.git", func(err error) bool { return errors.Is(err, fs.ErrNotExist) }},
	} {
		_, err := r.GitDir(filepath.Join(dir, c.path))
		if !c.ok(err) {
			t.Errorf("GitDir(%s) = %v", c.path, err)
		}
	}
}
