package project_test

import (
	"bytes"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"testing"

	"github.com/taskctl/taskctl/project"
	"golang.org/x/sys/unix"
)

// TestReadSwapRace: while a goroutine swaps "sw" between a regular file
// and a symlink to .env (by rename), sw is resolved and read over and
// over; so is dd/config while dd trades places with a symlink to .git.
// Read checks the file it opened, not the name it resolved, so the
// key never comes back (#21 point 4).
func TestReadSwapRace(t *testing.T) {
	dir := realTemp(t)
	writeTree(t, dir, ".git/config = AKIAGITKEY\n", ".env = AKIASWAPKEY\n", "plain = harmless\n",
		"dd/config = harmless\n", "ddlink -> .git")
	p := open(t, project.Options{WorkingDir: dir})
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		sw := filepath.Join(dir, "sw")
		tmpF, tmpL := filepath.Join(dir, "sw.f"), filepath.Join(dir, "sw.l")
		for {
			select {
			case <-stop:
				return
			default:
			}
			os.WriteFile(tmpF, []byte("harmless\n"), 0o644)
			os.Rename(tmpF, sw)
			os.Symlink(".env", tmpL)
			os.Rename(tmpL, sw)
			// A directory and a symlink to .git trade places.
			unix.Renameat2(unix.AT_FDCWD, filepath.Join(dir, "dd"), unix.AT_FDCWD, filepath.Join(dir, "ddlink"), unix.RENAME_EXCHANGE)
		}
	})
	leaks, reads := 0, 0
	for i := range 20000 {
		name := "sw"
		if i%2 == 1 {
			name = "dd/config"
		}
		c, w := p.ResolveFrom(dir, name)
		if w != nil {
			continue
		}
		f, w := p.Read(c)
		if w != nil {
			continue
		}
		reads++
		if bytes.Contains(f.Content, []byte("AKIA")) {
			leaks++
		}
	}
	close(stop)
	wg.Wait()
	if leaks != 0 {
		t.Errorf("Read returned .env's key %d times (%d reads)", leaks, reads)
	}
	if reads == 0 {
		t.Error("no read succeeded: the test tested nothing")
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
	p := open(t, project.Options{WorkingDir: dir})
	for _, name := range []string{"fifo", "lf", "sub/lf2"} {
		abs := filepath.Join(dir, name)
		if _, w := p.Read(project.Candidate{Path: abs}); w == nil || w.Code != "PATH_SPECIAL_FILE" {
			t.Errorf("Read(%s): %v, want PATH_SPECIAL_FILE", name, w)
		}
	}
	if n, err := unix.Read(in, make([]byte, 4096)); err == nil && n > 0 {
		t.Errorf("the FIFO was opened (%d bytes of inotify events)", n)
	}
}
