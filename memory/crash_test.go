package memory_test

import (
	"bufio"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/taskctl/taskctl/memory"
	statedir "github.com/taskctl/taskctl/state"
)

// slowSource slows reads down so that a writer can be killed mid-analysis.
type slowSource struct {
	memory.Source
	delay time.Duration
}

func (s slowSource) ReadFile(rel string) ([]byte, error) {
	time.Sleep(s.delay)
	return s.Source.ReadFile(rel)
}

// TestCrashChild is the writer process of TestCrashSafety; it does nothing
// unless started by it.
func TestCrashChild(t *testing.T) {
	root, dir := os.Getenv("MEMORY_CRASH_ROOT"), os.Getenv("MEMORY_CRASH_INDEX")
	if root == "" || dir == "" {
		t.Skip("run by TestCrashSafety")
	}
	memory.SetWriteHook(func(n int) {
		fmt.Printf("WRITE %d\n", n)
		time.Sleep(10 * time.Millisecond)
	})
	ix, _, err := memory.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	_, err = ix.Refresh(context.Background(), slowSource{memory.DirSource(root), 200 * time.Microsecond}, func(done, total int) {
		if done%200 == 0 {
			fmt.Printf("PROGRESS %d\n", done)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	fmt.Println("DONE")
}

// TestCrashSafety kills a writer (a real subprocess) while it analyses,
// while it writes the index file and after it has finished, and checks that
// the index then answers as either the old or the new one, never broken,
// and that readers never saw a broken one while it was being written.
func TestCrashSafety(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a large index in a subprocess")
	}
	root := t.TempDir()
	const oldFiles, newFiles = 50, 1500
	for i := range oldFiles {
		write(t, root, fmt.Sprintf("old/f%03d.go", i), fmt.Sprintf("package old\n\n// firstgeneration file %d\nfunc Old%d() {}\n", i, i))
	}
	dir := filepath.Join(t.TempDir(), "index")
	ix, _, _ := memory.Open(dir)
	if _, err := ix.Refresh(context.Background(), memory.DirSource(root), nil); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range newFiles {
		var b strings.Builder
		fmt.Fprintf(&b, "package gen%d\n\n// secondgeneration\n", i%50)
		for range 100 {
			fmt.Fprintf(&b, "var w%x = %q\n", rng.Uint32(), fmt.Sprintf("tok%xq", rng.Uint32()%200000))
		}
		write(t, root, fmt.Sprintf("new/d%02d/f%04d.go", i%50, i), b.String())
	}

	check := func(when string, allowNew bool) int {
		t.Helper()
		ix, warns, err := memory.Open(dir)
		if err != nil || len(warns) != 0 {
			t.Fatalf("%s: Open = %v, %v; want a complete index", when, warns, err)
		}
		n := ix.Len()
		if n != oldFiles && !(allowNew && n == oldFiles+newFiles) {
			t.Fatalf("%s: index has %d files, want %d (old) or %d (new, allowed %v)", when, n, oldFiles, oldFiles+newFiles, allowNew)
		}
		if ms := ix.Search("firstgeneration", memory.SearchOptions{}); len(ms) == 0 {
			t.Fatalf("%s: the index does not answer", when)
		}
		return n
	}

	for _, tc := range []struct {
		name     string
		killAt   string // kill when a line starts with this
		allowNew bool
	}{
		{"analysing", "PROGRESS 600", false},
		{"writing", "WRITE", false}, // after the third 64 KiB chunk, see below
		{"after rename", "DONE", true},
	} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestCrashChild$", "-test.count=1")
		cmd.Env = append(os.Environ(), "MEMORY_CRASH_ROOT="+root, "MEMORY_CRASH_INDEX="+dir)
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// A reader polls the index all along.
		stop := make(chan struct{})
		readerDone := make(chan error)
		go func() {
			var err error
			for {
				select {
				case <-stop:
					readerDone <- err
					return
				default:
				}
				if _, warns, e := memory.Open(dir); e != nil || len(warns) != 0 {
					err = fmt.Errorf("reader saw %v, %v", warns, e)
				}
				time.Sleep(2 * time.Millisecond)
			}
		}()
		sc := bufio.NewScanner(out)
		killed := false
		var last string
		for sc.Scan() {
			last = sc.Text()
			if tc.killAt == "WRITE" {
				var n int
				fmt.Sscanf(last, "WRITE %d", &n)
				if n < 3<<16 {
					continue
				}
			}
			if strings.HasPrefix(last, tc.killAt) {
				cmd.Process.Signal(syscall.SIGKILL)
				killed = true
				break
			}
		}
		cmd.Wait()
		close(stop)
		if err := <-readerDone; err != nil {
			t.Errorf("%s: %v", tc.name, err)
		}
		if !killed {
			t.Fatalf("%s: the child ended before %q (last line %q)", tc.name, tc.killAt, last)
		}
		n := check("killed "+tc.name, tc.allowNew)
		t.Logf("killed while %s: index has %d files", tc.name, n)
		if tc.name == "writing" {
			ents, _ := os.ReadDir(dir)
			tmp := 0
			for _, e := range ents {
				if isIndexTemp(e.Name()) {
					tmp++
				}
			}
			if tmp == 0 {
				t.Errorf("no temporary file left by the writer killed mid-write; was it killed mid-write?")
			}
		}
	}

	// The lock died with the writer: a new writer gets it, finishes the
	// job and clears the temporary files.
	done := make(chan error, 1)
	go func() {
		_, err := ix.Refresh(context.Background(), memory.DirSource(root), nil)
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(2 * time.Minute):
		t.Fatal("Refresh still waiting for the lock of a killed writer")
	}
	if n := check("after a final refresh", true); n != oldFiles+newFiles {
		t.Errorf("final index has %d files, want %d", n, oldFiles+newFiles)
	}
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if isIndexTemp(e.Name()) {
			t.Errorf("temporary file %s left after a successful refresh", e.Name())
		}
	}
}

// isIndexTemp reports whether name is a temporary file of the index.
func isIndexTemp(name string) bool {
	of, ok := statedir.PendingOf(name)
	return ok && of == "index.bin"
}

func write(t *testing.T, root, rel, content string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
