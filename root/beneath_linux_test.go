package root

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/taskctl/taskctl/internal/diag"
	"golang.org/x/sys/unix"
)

// TestReadFallback reads every entry of the hostile fixture (files,
// symlinks in and out, loops, directories, a FIFO, a socket, names the
// policy refuses), files at and over the size cap, an empty and a binary
// file, a file in an extra root, paths outside and paths that are not
// there, once with openat2 and once through the os.Root alone (as where
// openat2 is missing): both ways must give the same file or the same
// warning.
func TestReadFallback(t *testing.T) {
	base, proj := hostile(t)
	extra := realTemp(t)
	writeTree(t, extra, "lib/x.go = package lib\n", "lib/.env = "+secret+"\n")
	writeTree(t, proj,
		"src/empty.txt = ",
		"src/bin.dat = a\x00b",
		"src/at_cap.txt = "+strings.Repeat("c", 4096),
		"src/over_cap.txt = "+strings.Repeat("o", 4097),
		"src/setuid.sh = #!/bin/sh\n",
		"src/noread.txt = x\n",
		"src/extra_link -> "+filepath.Join(extra, "lib/x.go"),
	)
	if err := os.Chmod(filepath.Join(proj, "src/setuid.sh"), 0o4755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Join(proj, "src/noread.txt"), 0); err != nil {
		t.Fatal(err)
	}
	pol := DefaultPolicy()
	pol.MaxFileBytes = 4096
	pol.ExtraRoots = []string{extra}
	fast, slow := openRoot(t, pol, proj, extra), openRoot(t, pol, proj, extra)
	if !fast.beneath() {
		t.Skip("openat2 is not available here: both ways are the os.Root's")
	}
	slow.disableBeneath()

	var paths []string
	for _, dir := range []string{proj, extra} {
		filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			paths = append(paths, path)
			return nil
		})
	}
	paths = append(paths,
		filepath.Join(proj, "missing"),
		filepath.Join(proj, "src/a.py/x"),
		filepath.Join(proj, "src/../src/a.py"),
		filepath.Join(base, "proj-evil/secret"),
		"/etc/passwd",
		"src/a.py",
		proj+"/src/a.py\x00",
	)
	served := 0
	for _, path := range paths {
		ff, fw := fast.Read(path)
		sf, sw := slow.Read(path)
		if !sameWarning(fw, sw) {
			t.Errorf("Read(%q): openat2 way warns %v, os.Root way %v", path, fw, sw)
			continue
		}
		if !sameFile(ff, sf) {
			t.Errorf("Read(%q): openat2 way gives %+v, os.Root way %+v", path, ff, sf)
		}
		if ff != nil && bytes.Contains(ff.Content, []byte(secret)) {
			t.Errorf("Read(%q) returned outside content", path)
		}
		if _, _, ok := fast.readBeneathOnly(path); ok {
			served++
		}
	}
	// The regular files of the fixture, read or refused by name or size.
	if served < 10 {
		t.Errorf("openat2 served %d of %d reads: the test compared little", served, len(paths))
	}
}

func sameWarning(a, b *diag.Warning) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

func sameFile(a, b *File) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Path == b.Path && a.Rel == b.Rel && a.Size == b.Size && a.ModTime.Equal(b.ModTime) &&
		a.Mode == b.Mode && bytes.Equal(a.Content, b.Content) && a.Binary == b.Binary
}

// TestReadBeneathSwap swaps a symlink to outside, by absolute or relative
// target, through /proc, for a file or a directory on the path of a
// candidate after it was resolved. Each swap is first shown to work: a
// plain open of the candidate's path reads the outside secret. The open
// that the openat2 way makes must then fail or open nothing outside (the
// lstat before it would catch a final symlink; this is what holds when
// the swap comes after that lstat), the whole openat2 way must decline or
// read nothing outside, and Read must not return the secret.
func TestReadBeneathSwap(t *testing.T) {
	base, proj := hostile(t)
	evil := filepath.Join(base, "proj-evil")
	writeTree(t, evil, "victim.txt = "+secret+"\n", "deep/victim.txt = "+secret+"\n")
	p := openRoot(t, DefaultPolicy(), proj)
	if !p.beneath() {
		t.Skip("openat2 is not available here")
	}
	const victim = "src/in/deep/victim.txt"
	// swap replaces proj/rel with a symlink to target, as an attacker
	// would: the original moved away, the link renamed into its place.
	swap := func(rel, target string) func(t *testing.T) {
		return func(t *testing.T) {
			at := filepath.Join(proj, rel)
			if err := os.Rename(at, filepath.Join(base, "moved")); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(target, at+".new"); err != nil {
				t.Fatal(err)
			}
			if err := os.Rename(at+".new", at); err != nil {
				t.Fatal(err)
			}
		}
	}
	attacks := []struct {
		name string
		swap func(t *testing.T)
	}{
		{"file to absolute link", swap(victim, filepath.Join(evil, "victim.txt"))},
		{"file to relative link", swap(victim, "../../../../proj-evil/victim.txt")},
		{"file to /proc link", swap(victim, "/proc/self/root"+filepath.Join(evil, "victim.txt"))},
		{"dir to absolute link", swap("src/in/deep", filepath.Join(evil, "deep"))},
		{"dir to relative link", swap("src/in", "../../proj-evil")},
		{"dir to /proc link", swap("src/in/deep", "/proc/self/root"+filepath.Join(evil, "deep"))},
		{"dir to /proc/self/cwd", swap("src/in", "/proc/self/cwd/../proj-evil")},
	}
	for _, a := range attacks {
		t.Run(a.name, func(t *testing.T) {
			os.RemoveAll(filepath.Join(proj, "src/in"))
			os.RemoveAll(filepath.Join(base, "moved"))
			writeTree(t, proj, victim+" = inside\n")
			path, err := p.Eval(filepath.Join(proj, victim))
			if err != nil {
				t.Fatal(err)
			}
			if f, w, ok := p.readBeneathOnly(path); !ok || w != nil || string(f.Content) != "inside\n" {
				t.Fatalf("before the swap, readBeneathOnly(%q) = %v, %v, served %v; want the inside file by openat2", path, f, w, ok)
			}
			t.Chdir(proj) // for /proc/self/cwd
			a.swap(t)
			if data, err := os.ReadFile(path); !bytes.Contains(data, []byte(secret)) {
				t.Fatalf("the swap did not take: a plain read of %s gives %q, %v", path, data, err)
			}
			if data, err := p.openBeneathOnly(path); err == nil && bytes.Contains(data, []byte(secret)) {
				t.Errorf("after the swap, openat2 opened outside content at %s", path)
			}
			if f, _, ok := p.readBeneathOnly(path); ok && f != nil && bytes.Contains(f.Content, []byte(secret)) {
				t.Errorf("after the swap, the openat2 way read outside content from %s", path)
			}
			if f, w := p.Read(path); w == nil && bytes.Contains(f.Content, []byte(secret)) {
				t.Errorf("after the swap, Read(%q) returned outside content", path)
			}
		})
	}
}

// TestReadSpecialNeverOpened: a FIFO reached through a symlink inside the
// project is refused on what lstat says of its real path, before any open:
// inotify sees no open of it.
func TestReadSpecialNeverOpened(t *testing.T) {
	dir := realTemp(t)
	writeTree(t, dir, ".git/", "lf -> fifo", "sub/lf2 -> ../fifo")
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	in, err := unix.InotifyInit1(unix.IN_NONBLOCK | unix.IN_CLOEXEC)
	if err != nil {
		t.Skip("no inotify:", err)
	}
	defer unix.Close(in)
	if _, err := unix.InotifyAddWatch(in, fifo, unix.IN_OPEN); err != nil {
		t.Fatal(err)
	}
	p := openRoot(t, DefaultPolicy(), dir)
	for _, name := range []string{"fifo", "lf", "sub/lf2"} {
		abs := filepath.Join(dir, name)
		if _, w := p.Read(abs); w == nil || w.Code != "PATH_SPECIAL_FILE" {
			t.Errorf("Read(%s): %v, want PATH_SPECIAL_FILE", name, w)
		}
	}
	if n, err := unix.Read(in, make([]byte, 4096)); err == nil && n > 0 {
		t.Errorf("the FIFO was opened (%d bytes of inotify events)", n)
	}
}
