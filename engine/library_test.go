package engine_test

import (
	"path/filepath"
	"testing"

	"github.com/taskctl/taskctl/engine"
)

// TestTaskLibrary: the library is read once, in file name order; a file
// that does not validate is kept with its problems and does not hide the
// others' tasks; Lookup finds the first file that defines a name.
func TestTaskLibrary(t *testing.T) {
	proj, _, xdg := fsProject(t)
	task := func(name string) string {
		return `<task name="` + name + `"><description>d</description>` +
			`<file_paths source="literal"><path>README.md</path></file_paths></task>`
	}
	writeFiles(t, proj, map[string]string{
		".taskctl/tasks/a.xml": "<task",
		".taskctl/tasks/b.xml": task("review"),
		".taskctl/tasks/c.xml": task("other"),
	})
	e := open(t, proj, xdg, engine.Options{})
	lib, err := e.TaskLibrary()
	if err != nil {
		t.Fatal(err)
	}
	if len(lib.Files) != 3 || lib.Files[0].Template != nil || lib.Files[0].Problems == nil || lib.Files[1].Template == nil {
		t.Fatalf("library = %+v", lib.Files)
	}
	if i, tk := lib.Lookup("other"); i != 2 || tk == nil || filepath.Base(lib.Files[i].Path) != "c.xml" {
		t.Errorf("Lookup(other) = %d, %v", i, tk)
	}
	if i, _ := lib.Lookup("missing"); i != -1 {
		t.Errorf("Lookup(missing) = %d, want -1", i)
	}
	if b := lib.Broken(1); len(b) != 1 || filepath.Base(b[0].Path) != "a.xml" {
		t.Errorf("Broken(1) = %+v", b)
	}
}
