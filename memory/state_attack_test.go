package memory_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/taskctl/taskctl/internal/hostile"
	"github.com/taskctl/taskctl/memory"
)

// TestHostileIndexDir: a cloned repository that commits symbolic links
// where the index keeps its files (or has a FIFO or a hard link there)
// gets a refusal, STATE_UNSAFE, from a refresh, and nothing outside the
// clone is created, written or locked: the first refresh of the issue's
// clone (lock -> OUTSIDE/a, .gitignore -> OUTSIDE/b) created both.
func TestHostileIndexDir(t *testing.T) {
	files := map[string]string{"src/a.go": "package a\n\nfunc Login() {}\n", "src/b.go": "package a\n\nfunc Logout() {}\n"}
	cases := []struct {
		name      string
		links     func(out string) map[string]string
		plant     func(t *testing.T, dir, out string)
		openFails bool // Open, which reads only the index file, refuses too
		segmented bool // the refresh is made in segments (scratch files)
	}{
		{name: "lock and .gitignore", links: func(out string) map[string]string {
			return map[string]string{".taskctl/index/lock": out + "/a", ".taskctl/index/.gitignore": out + "/b"}
		}},
		{name: ".gitignore alone", links: func(out string) map[string]string {
			return map[string]string{".taskctl/index/.gitignore": out + "/b"}
		}},
		{name: ".taskctl", links: func(out string) map[string]string { return map[string]string{".taskctl": out + "/d"} }, openFails: true},
		{name: ".taskctl/index", links: func(out string) map[string]string { return map[string]string{".taskctl/index": out + "/d"} }, openFails: true},
		{name: "index.bin", links: func(out string) map[string]string {
			return map[string]string{".taskctl/index/index.bin": out + "/victim"}
		}, openFails: true},
		{name: "walk.bin", links: func(out string) map[string]string {
			return map[string]string{".taskctl/index/walk.bin": out + "/victim"}
		}},
		{name: "index.scratch, a segmented build's scratch files", links: func(out string) map[string]string {
			return map[string]string{".taskctl/index/index.scratch": out + "/victim"}
		}, segmented: true},
		{name: "FIFO lock", plant: func(t *testing.T, dir, out string) {
			if err := syscall.Mkfifo(filepath.Join(dir, "lock"), 0o644); err != nil {
				t.Fatal(err)
			}
		}},
		{name: "hard-linked lock", plant: func(t *testing.T, dir, out string) {
			if err := os.Link(filepath.Join(out, "victim"), filepath.Join(dir, "lock")); err != nil {
				t.Fatal(err)
			}
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out := hostile.Dir(t, map[string]string{"victim": "not yours\n", "d/keep": "x\n"})
			var links map[string]string
			if tc.links != nil {
				links = tc.links(out)
			}
			proj := hostile.Clone(t, files, links)
			dir := filepath.Join(proj, ".taskctl", "index")
			if tc.plant != nil {
				if err := os.MkdirAll(dir, 0o755); err != nil {
					t.Fatal(err)
				}
				tc.plant(t, dir, out)
			}
			if tc.segmented {
				defer memory.SetSegmentBytes(1)()
			}
			before := hostile.Snapshot(t, out)
			_, _, err := memory.Update(context.Background(), dir, memory.DirSource(proj), false, nil)
			hostile.Unchanged(t, out, before, "a refresh")
			if err == nil || !strings.Contains(err.Error(), "STATE_UNSAFE") {
				t.Fatalf("refresh: %v, want a STATE_UNSAFE refusal", err)
			}
			// Open (what a search without a refresh does) reads nothing
			// through what stands in the way either.
			_, _, err = memory.Open(dir)
			if tc.openFails != (err != nil && strings.Contains(err.Error(), "STATE_UNSAFE")) {
				t.Errorf("Open: %v (a refusal expected: %v)", err, tc.openFails)
			}
			hostile.Unchanged(t, out, before, "Open")
		})
	}
}
