package project_test

import (
	"os"
	"runtime"
	"testing"
	"time"

	"github.com/taskctl/taskctl/project"
)

func openFDs(t *testing.T) int {
	t.Helper()
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	return len(ents)
}

// TestDroppedProjectClosesDescriptors: a Project dropped without Close
// gives its descriptors back once collected, and Close then a collection
// closes nothing twice.
func TestDroppedProjectClosesDescriptors(t *testing.T) {
	dir := realTemp(t)
	writeTree(t, dir, ".git/", "a.txt")
	settle := func() {
		for range 5 {
			runtime.GC()
			time.Sleep(10 * time.Millisecond)
		}
	}
	settle()
	before := openFDs(t)
	for range 20 {
		if _, err := project.Open(project.Options{WorkingDir: dir}); err != nil {
			t.Fatal(err)
		}
	}
	settle()
	if after := openFDs(t); after > before+2 {
		t.Errorf("%d descriptors open after dropping 20 projects, %d before", after, before)
	}
	p, err := project.Open(project.Options{WorkingDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	p.Close()
	p = nil
	f, err := os.Open(dir) // likely to take a number Close freed
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	settle()
	if _, err := f.Stat(); err != nil {
		t.Errorf("a descriptor closed twice: %v", err)
	}
}
