package engine_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/taskctl/taskctl/engine"
)

// TestScopeGlobsDirectories: --include ./src names what the directory
// holds (src/**), while a file, a glob and a name relative to the project
// dir are kept as given. A link out of the project is no directory of it:
// what lies outside is never looked at, so ./out stays the name it is.
func TestScopeGlobsDirectories(t *testing.T) {
	proj, outside, xdg := fsProject(t)
	if err := os.Symlink(outside, filepath.Join(proj, "out")); err != nil {
		t.Fatal(err)
	}
	e := open(t, proj, xdg, engine.Options{Command: "search"})
	got, err := e.ScopeGlobs("include", []string{"./src", "./src/main.go", "./src/*.go", "src", "./out", "."})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"src/**", "src/main.go", "src/*.go", "src", "out", "**"}
	if !slices.Equal(got, want) {
		t.Fatalf("ScopeGlobs = %q, want %q", got, want)
	}
	if _, err := e.ScopeGlobs("include", []string{"../outside"}); err == nil {
		t.Fatal("../outside: no error for a path outside the project")
	}
}
