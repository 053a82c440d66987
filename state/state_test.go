//go:build unix

package state_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/taskctl/taskctl/internal/diag"
	repo "github.com/taskctl/taskctl/internal/hostile"
	"github.com/taskctl/taskctl/state"
)

// stateFixture returns a real directory to keep state in, and a directory
// outside it holding victim.txt and an empty directory d, with its
// snapshot.
func stateFixture(t *testing.T) (dir, out, before string) {
	t.Helper()
	dir = repo.Dir(t, nil)
	out = repo.Dir(t, map[string]string{"victim.txt": "not yours\n", "d/keep": "x\n"})
	return dir, out, repo.Snapshot(t, out)
}

func isUnsafe(err error) bool {
	var se *state.UnsafeError
	return errors.As(err, &se) && se.Code() == diag.StateUnsafe && strings.Contains(err.Error(), string(diag.StateUnsafe))
}

func mustOpenState(t *testing.T, path string) *state.Dir {
	t.Helper()
	d, err := state.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

// TestStateDirPath: a state directory is reached without following a
// symbolic link anywhere on its path; a missing one is made only by
// Make, with a .gitignore in each directory it makes.
func TestStateDirPath(t *testing.T) {
	dir, out, before := stateFixture(t)
	if err := os.Symlink(filepath.Join(out, "d"), filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(out, "new"), filepath.Join(dir, "dangling")); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"link", "link/sub", "dangling", "dangling/sub"} {
		for name, open := range map[string]func(string) (*state.Dir, error){
			"Open": state.Open, "Make": state.Make,
		} {
			d, err := open(filepath.Join(dir, p))
			if err == nil {
				d.Close()
			}
			var se *state.UnsafeError
			if !isUnsafe(err) || !errors.As(err, &se) || se.Path != filepath.Join(dir, strings.Split(p, "/")[0]) {
				t.Errorf("%s(%s) = %v, want a STATE_UNSAFE refusal naming the link", name, p, err)
			}
		}
	}
	repo.Unchanged(t, out, before, "opening state directories")

	if _, err := state.Open(filepath.Join(dir, "a", "b")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Open of a missing directory: %v, want fs.ErrNotExist", err)
	}
	if _, err := state.Open("rel/dir"); err == nil {
		t.Error("Open of a relative path: no error")
	}
	d, err := state.Make(filepath.Join(dir, "a", "b"))
	if err != nil {
		t.Fatal(err)
	}
	d.Close()
	for _, p := range []string{"a/.gitignore", "a/b/.gitignore"} {
		if data, err := os.ReadFile(filepath.Join(dir, p)); err != nil || string(data) != "*\n" {
			t.Errorf("%s: %q, %v; want \"*\\n\"", p, data, err)
		}
	}
	if _, err := os.Lstat(filepath.Join(dir, ".gitignore")); err == nil {
		t.Error("Make wrote a .gitignore in a directory it did not make")
	}
	if d := mustOpenState(t, filepath.Join(dir, "a")); d.Path() != filepath.Join(dir, "a") {
		t.Errorf("Path() = %s", d.Path())
	}
	if err := os.WriteFile(filepath.Join(dir, "file"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := state.Open(filepath.Join(dir, "file")); !isUnsafe(err) {
		t.Errorf("Open of a file: %v, want STATE_UNSAFE", err)
	}
}

// plantings are what may stand where a state file goes: each is made at
// name in dir, pointing at or sharing a file of out.
var plantings = map[string]func(t *testing.T, dir, name, out string){
	"symlink out": func(t *testing.T, dir, name, out string) {
		if err := os.Symlink(filepath.Join(out, "victim.txt"), filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	},
	"dangling symlink out": func(t *testing.T, dir, name, out string) {
		if err := os.Symlink(filepath.Join(out, "created"), filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	},
	"FIFO": func(t *testing.T, dir, name, out string) {
		if err := syscall.Mkfifo(filepath.Join(dir, name), 0o644); err != nil {
			t.Fatal(err)
		}
	},
	"hard link out": func(t *testing.T, dir, name, out string) {
		if err := os.Link(filepath.Join(out, "victim.txt"), filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	},
	"directory": func(t *testing.T, dir, name, out string) {
		if err := os.Mkdir(filepath.Join(dir, name), 0o755); err != nil {
			t.Fatal(err)
		}
	},
}

// TestStateFilesRefused: every way of using a file of a state directory
// refuses each planting with STATE_UNSAFE, without blocking on a FIFO,
// and changes nothing outside. A regular file with another link is
// replaced (the other link keeps its content) or left alone by WriteNew,
// but never written in place.
func TestStateFilesRefused(t *testing.T) {
	uses := map[string]func(d *state.Dir, name string) error{
		"Open": func(d *state.Dir, name string) error {
			f, err := d.Open(name)
			if err == nil {
				f.Close()
			}
			return err
		},
		"ReadFile": func(d *state.Dir, name string) error { _, err := d.ReadFile(name, 1<<20); return err },
		"OpenAppend": func(d *state.Dir, name string) error {
			f, err := d.OpenAppend(name, 0o644)
			if err == nil {
				f.WriteString("appended\n")
				f.Close()
			}
			return err
		},
		"Lock": func(d *state.Dir, name string) error {
			unlock, err := d.Lock(name)
			if err == nil {
				unlock()
			}
			return err
		},
		"WriteNew":  func(d *state.Dir, name string) error { return d.WriteNew(name, []byte("new\n"), 0o644) },
		"WriteFile": func(d *state.Dir, name string) error { return d.WriteFile(name, []byte("new\n"), 0o644) },
	}
	for pname, plant := range plantings {
		for uname, use := range uses {
			t.Run(pname+"/"+uname, func(t *testing.T) {
				dir, out, _ := stateFixture(t)
				plant(t, dir, "f", out)
				before := repo.Snapshot(t, out)
				d := mustOpenState(t, dir)
				err := use(d, "f")
				repo.Unchanged(t, out, before, uname)
				replaced := pname == "hard link out" && uname == "WriteFile"
				kept := pname == "hard link out" && uname == "WriteNew"
				switch {
				case kept && !errors.Is(err, fs.ErrExist):
					t.Fatalf("WriteNew over a hard-linked file: %v, want fs.ErrExist (and nothing written)", err)
				case kept:
				case replaced && err != nil:
					t.Fatalf("%s over a hard-linked file: %v, want it replaced", uname, err)
				case replaced:
					if data, _ := os.ReadFile(filepath.Join(dir, "f")); string(data) != "new\n" {
						t.Errorf("f = %q after WriteFile", data)
					}
				case !isUnsafe(err):
					t.Fatalf("%s: %v, want STATE_UNSAFE", uname, err)
				}
				ents, _ := d.ReadDir()
				for _, e := range ents {
					if _, ok := state.PendingOf(e.Name()); ok {
						t.Errorf("temporary file %s left behind", e.Name())
					}
				}
			})
		}
	}
}

// TestStateFiles: what a state directory does with its own files.
func TestStateFiles(t *testing.T) {
	dir, _, _ := stateFixture(t)
	d := mustOpenState(t, dir)
	if err := d.WriteFile("a", []byte("one"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := d.WriteFile("a", []byte("two"), 0o600); err != nil {
		t.Fatal(err)
	}
	if data, err := d.ReadFile("a", 3); err != nil || string(data) != "two" {
		t.Errorf("ReadFile = %q, %v", data, err)
	}
	var tl *state.TooLargeError
	if _, err := d.ReadFile("a", 2); !errors.As(err, &tl) || tl.Size != 3 || tl.Limit != 2 {
		t.Errorf("ReadFile over the cap: %v", err)
	}
	if fi, err := os.Stat(filepath.Join(dir, "a")); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("a: %v %v, want 0600", fi, err)
	}
	if err := d.WriteNew("a", []byte("three"), 0o644); !errors.Is(err, fs.ErrExist) {
		t.Errorf("WriteNew over a file: %v, want fs.ErrExist", err)
	}
	for range 2 {
		f, err := d.OpenAppend("log", 0o644)
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString("line\n")
		f.Close()
	}
	if data, _ := d.ReadFile("log", 100); string(data) != "line\nline\n" {
		t.Errorf("log = %q", data)
	}

	p, err := d.Create("b", 0o644)
	if err != nil {
		t.Fatal(err)
	}
	p.WriteString("pending")
	if _, err := os.Lstat(filepath.Join(dir, "b")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("b exists before Commit: %v", err)
	}
	if err := p.Commit(true); err != nil {
		t.Fatal(err)
	}
	// A name swapped for a symbolic link while the file is written is
	// refused at the rename.
	p, err = d.Create("b", 0o644)
	if err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(dir, "b"))
	os.Symlink("a", filepath.Join(dir, "b"))
	if err := p.Commit(false); !isUnsafe(err) {
		t.Errorf("Commit over a symlink swapped in: %v, want STATE_UNSAFE", err)
	}
	if target, err := os.Readlink(filepath.Join(dir, "b")); err != nil || target != "a" {
		t.Errorf("the symlink was replaced: %q, %v", target, err)
	}
	p, _ = d.Create("c", 0o644)
	p.Abort()

	if err := d.Mkdir("sub", 0o700); err != nil {
		t.Fatal(err)
	}
	if err := d.Mkdir("sub", 0o700); !errors.Is(err, fs.ErrExist) {
		t.Errorf("Mkdir again: %v, want fs.ErrExist", err)
	}
	sub, err := d.Dir("sub")
	if err != nil {
		t.Fatal(err)
	}
	sub.Close()
	if _, err := d.Dir("b"); !isUnsafe(err) {
		t.Errorf("Dir of a symlink: %v, want STATE_UNSAFE", err)
	}
	if err := d.RemoveFile("b"); err == nil {
		t.Error("RemoveFile removed a symlink")
	}
	if err := d.RemoveFile("a"); err != nil {
		t.Error(err)
	}
	for _, bad := range []string{"", ".", "..", "x/y"} {
		if err := d.WriteFile(bad, nil, 0o644); err == nil {
			t.Errorf("WriteFile(%q): no error", bad)
		}
	}
	ents, err := d.ReadDir()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	if got := strings.Join(names, " "); got != "b log sub" || !ents[2].IsDir() {
		t.Errorf("names %q, want %q (no temporary file left)", got, "b log sub")
	}
}

func TestPendingOf(t *testing.T) {
	for tmp, want := range map[string]string{
		".index.bin.0123456789ab.tmp":       "index.bin",
		".02-b.output.txt.aaaaaaaaaaaa.tmp": "02-b.output.txt",
		".x.0123456789ab.tmp":               "x",
		"index.bin.0123456789ab.tmp":        "",
		".index.bin.tmp":                    "",
		".index.bin.0123456789ag.tmp":       "",
		".0123456789ab.tmp":                 "",
	} {
		name, ok := state.PendingOf(tmp)
		if ok != (want != "") || name != want {
			t.Errorf("PendingOf(%q) = %q, %v; want %q", tmp, name, ok, want)
		}
	}
}

// TestReadRegular: the capped reader refuses a FIFO (opened without
// blocking) and a directory, and a file over its cap.
func TestReadRegular(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(fifo, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := state.ReadRegular(f, 10); !errors.Is(err, state.ErrNotRegular) || !strings.Contains(err.Error(), fifo) {
		t.Errorf("FIFO: %v", err)
	}
	df, _ := os.Open(dir)
	defer df.Close()
	if _, err := state.ReadRegular(df, 10); !errors.Is(err, syscall.EISDIR) {
		t.Errorf("directory: %v", err)
	}
	big := filepath.Join(dir, "big")
	os.WriteFile(big, []byte("0123456789x"), 0o644)
	bf, _ := os.Open(big)
	defer bf.Close()
	var tl *state.TooLargeError
	if _, err := state.ReadRegular(bf, 10); !errors.As(err, &tl) || tl.Size != 11 || tl.Path != big {
		t.Errorf("too large: %v", err)
	}
}
