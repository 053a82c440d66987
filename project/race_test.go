//go:build linux

package project_test

import (
	"bytes"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/taskctl/taskctl/project"
)

// TestSwapRace swaps a file for a symlink to outside (absolute, then
// relative, then a FIFO) in a loop while Read and Expand run: outside
// content must never come back, and nothing may block.
func TestSwapRace(t *testing.T) {
	base, proj := hostile(t)
	evilSecret := filepath.Join(base, "proj-evil/secret")
	p := open(t, project.Options{WorkingDir: proj, ProjectDir: proj})
	target := filepath.Join(proj, "src/swap.txt")
	writeTree(t, proj, "src/swap.txt = inside\n")
	c, w := p.ResolveFrom(proj, "src/swap.txt")
	if w != nil {
		t.Fatal(w)
	}

	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tmp := target + ".tmp"
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			os.Remove(tmp)
			switch i % 4 {
			case 0:
				os.WriteFile(tmp, []byte("inside\n"), 0o644)
			case 1:
				os.Symlink(evilSecret, tmp)
			case 2:
				os.Symlink("../../proj-evil/secret", tmp)
			case 3:
				os.Symlink("../../proj-evil", tmp) // a directory
			}
			os.Rename(tmp, target)
		}
	}()

	var reads, inside atomic.Int64
	deadline := time.Now().Add(2 * time.Second)
	var rg sync.WaitGroup
	for g := 0; g < 2; g++ {
		rg.Add(1)
		go func() {
			defer rg.Done()
			for time.Now().Before(deadline) {
				f, w := p.Confined().Read(c.Path)
				reads.Add(1)
				if w == nil {
					if bytes.Contains(f.Content, []byte(secret)) {
						t.Errorf("Read returned outside content: %q", f.Content)
						return
					}
					inside.Add(1)
				}
				cands, _ := p.Expand(bg, []string{"src/swap*", "src/swap.txt", "src/swap.txt/secret"})
				for _, c := range cands {
					if f, w := p.Confined().Read(c.Path); w == nil && bytes.Contains(f.Content, []byte(secret)) {
						t.Errorf("Expand+Read returned outside content via %s", c.Path)
						return
					}
				}
			}
		}()
	}
	rg.Wait()
	close(stop)
	wg.Wait()
	t.Logf("%d reads, %d of the inside file", reads.Load(), inside.Load())
	if inside.Load() == 0 {
		t.Error("never read the inside file: the test exercised nothing")
	}
}
