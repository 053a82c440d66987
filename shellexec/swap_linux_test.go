package shellexec_test

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// TestSwapRace: while a goroutine swaps "sw" between a regular file and a
// symlink to .env (atomically, by rename), commands read "sw" over and
// over. The root's name policy keeps .env (a sensitive name) from
// commands; what was opened is
// checked, not the name, so the key never comes out (#21 point 4).
func TestSwapRace(t *testing.T) {
	const key = "AKIASWAPPEDKEY0000000"
	dir, cfg := project(t, map[string]string{
		".env":  key + "\n",
		"plain": "harmless\n",
		"d/x":   "x\n",
	})
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var swaps atomic.Int64
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
			// A directory swapped for a symlink to one holding .env.
			swaps.Add(1)
		}
	})
	script := strings.Repeat("cat sw 2>/dev/null; head -n1 sw 2>/dev/null; grep -h . sw 2>/dev/null; echo \"$(<sw)\"; ", 12)
	leaks := 0
	reads := 0
	for range 300 {
		res, _ := run(t, script, cfg)
		if res == nil {
			continue
		}
		reads += strings.Count(string(res.Stdout), "harmless")
		leaks += strings.Count(string(res.Stdout)+string(res.Stderr), "AKIA")
	}
	close(stop)
	wg.Wait()
	if leaks != 0 {
		t.Errorf("the key came out %d times in 300 runs (%d swaps)", leaks, swaps.Load())
	}
	if reads == 0 {
		t.Errorf("no read of the regular file succeeded: the test tested nothing")
	}
}

// TestSpecialFilesNeverOpened: a FIFO and a character device in the
// project are refused on what lstat/fstat say, before any open: inotify
// sees no open of them, whether named directly, through a symlink, by a
// redirection, a glob or a walk.
func TestSpecialFilesNeverOpened(t *testing.T) {
	dir, cfg := project(t, map[string]string{"a.txt": "a\n", "lf": "->fifo", "ld": "->dev"})
	fifo, dev := filepath.Join(dir, "fifo"), filepath.Join(dir, "dev")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	devOK := unix.Mknod(dev, unix.S_IFCHR|0o666, int(unix.Mkdev(1, 3))) == nil // /dev/null's numbers; needs root
	in, err := unix.InotifyInit1(unix.IN_NONBLOCK | unix.IN_CLOEXEC)
	if err != nil {
		t.Skip("no inotify:", err)
	}
	defer unix.Close(in)
	watch := []string{fifo}
	if devOK {
		watch = append(watch, dev)
	}
	for _, p := range watch {
		if _, err := unix.InotifyAddWatch(in, p, unix.IN_OPEN); err != nil {
			t.Fatal(err)
		}
	}
	for _, script := range []string{
		"cat fifo", "cat dev", "cat lf", "cat ld", "head fifo", "wc -c dev", "cat < fifo", "cat < ld",
		`echo "$(<fifo)"`, "grep x fifo dev", "grep -r x .", "sort lf", "cut -c1 ld", "tr a b < dev",
		"sed p fifo", "uniq dev", "tail lf", "ls -l fifo dev", "find . -type p", "cat *",
	} {
		res, _ := run(t, script, cfg)
		if res != nil && res.TimedOut {
			t.Errorf("%s: timed out", script)
		}
	}
	buf := make([]byte, 4096)
	if n, err := unix.Read(in, buf); err == nil && n > 0 {
		t.Errorf("a special file was opened (%d bytes of inotify events)", n)
	}
	if !devOK {
		t.Log("no device node made (not root): the FIFO alone was checked")
	}
}
