package project_test

import (
	"bytes"
	"os"
	"path/filepath"
	"sync"
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
		f, w := p.Confined().Read(c.Path)
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
