package project_test

import (
	"testing"

	"github.com/taskctl/taskctl/project"
)

func TestAlwaysExcludedDir(t *testing.T) {
	for rel, want := range map[string]string{
		".git":                 ".git",
		".git/config":          ".git",
		"sub/.git/objects/ab":  "sub/.git",
		".taskctl/index/x":     ".taskctl",
		"a/.TaskCtl/cache":     "a/.TaskCtl",
		"a.git/x":              "",
		"src/.github/workflow": "",
		"":                     "",
		"a/b/c.go":             "",
	} {
		if got := project.AlwaysExcludedDir(rel); got != want {
			t.Errorf("AlwaysExcludedDir(%q) = %q, want %q", rel, got, want)
		}
	}
}
