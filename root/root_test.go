package root

import (
	"path/filepath"
	"syscall"
	"testing"

	"github.com/taskctl/taskctl/internal/diag"
)

// TestReadVerdicts: a Root reads what lies inside it and refuses, with one
// stable code each, what the policy keeps out, by both ways of a read
// (openat2 beneath the root, and the *os.Root where openat2 is missing).
func TestReadVerdicts(t *testing.T) {
	base := realTemp(t)
	dir := filepath.Join(base, "proj")
	writeTree(t, base, "outside.txt = outside\n")
	writeTree(t, dir, "a.txt = hello\n", ".env = X=1\n", ".git/config = [core]\n", "sub/b.txt = b\n",
		"out_link -> ../outside.txt", "in_link -> sub/b.txt")
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	want := map[string]diag.Code{
		"a.txt": "", "in_link": "", "sub/b.txt": "",
		".env": diag.PathSensitive, ".git/config": diag.PathIgnored, "out_link": diag.PathOutsideProject,
		"fifo": diag.PathSpecialFile, "sub": diag.PathIsDir, "missing": diag.PathNotFound,
	}
	for _, beneath := range []bool{true, false} {
		r, err := Open([]string{dir}, Policy{})
		if err != nil {
			t.Fatal(err)
		}
		if !beneath {
			r.disableBeneath()
		}
		for name, code := range want {
			f, w := r.Read(filepath.Join(dir, name))
			got := diag.Code("")
			if w != nil {
				got = w.Code
			}
			if got != code || w == nil && f == nil {
				t.Errorf("beneath=%v: Read(%s) = %v, want code %q", beneath, name, w, code)
			}
		}
		r.Close()
	}
}

// TestReadThroughDirLinks: a path made by hand through a symbolic link to
// a directory (not the last component) is judged by its real path, by
// both ways of a read: a link to .git/ does not let .git/config out, a
// link to the project dir does not let .env out, and a link staying
// inside reads the file at its real path.
func TestReadThroughDirLinks(t *testing.T) {
	dir := realTemp(t)
	writeTree(t, dir, "src/a.py = a\n", ".git/config = [core]\n", ".env = K=1\n",
		"dl -> src", "gl -> .git", "self -> .", "deep/gl2 -> ../gl")
	want := map[string]struct {
		code diag.Code
		real string
	}{
		"dl/a.py":          {"", "src/a.py"},
		"self/src/a.py":    {"", "src/a.py"},
		"gl/config":        {diag.PathIgnored, ""},
		"deep/gl2/config":  {diag.PathIgnored, ""},
		"self/.git/config": {diag.PathIgnored, ""},
		"self/.env":        {diag.PathSensitive, ""},
		"dl/missing":       {diag.PathNotFound, ""},
	}
	for _, beneath := range []bool{true, false} {
		r := openRoot(t, Policy{}, dir)
		if !beneath {
			r.disableBeneath()
		}
		for name, w := range want {
			f, warn := r.Read(filepath.Join(dir, name))
			got := diag.Code("")
			if warn != nil {
				got = warn.Code
			}
			if got != w.code {
				t.Errorf("beneath=%v: Read(%s) = %v, want code %q", beneath, name, warn, w.code)
				continue
			}
			if w.real != "" && (f == nil || f.Path != filepath.Join(dir, w.real) || f.Rel != w.real) {
				t.Errorf("beneath=%v: Read(%s) = %+v, want the file at %s", beneath, name, f, w.real)
			}
		}
	}
}
