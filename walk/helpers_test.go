package walk_test

import (
	"testing"

	"github.com/taskctl/taskctl/internal/projtest"
	"github.com/taskctl/taskctl/project"
)

// The tests of this package walk through a project (project.Open), as the
// callers do; the tree builders are internal/projtest's, shared with
// project's tests.
const secret = projtest.Secret

var (
	writeTree = projtest.WriteTree
	realTemp  = projtest.RealTemp
)

func open(t testing.TB, opts project.Options) *project.Project {
	t.Helper()
	p, err := project.Open(opts)
	if err != nil {
		t.Fatalf("Open(%+v): %v", opts, err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}
