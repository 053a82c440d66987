package contextgen_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/taskctl/taskctl/contextgen"
	"github.com/taskctl/taskctl/project"
	"github.com/taskctl/taskctl/template"
)

// TestCommandOutputInsideGitIsOneWarning: a command may print paths inside
// .git/ and .taskctl/ (it can no longer list them: find and grep -r do not
// enter them since #21 point 2, so the paths are printed here by name);
// each such directory is one PATH_IGNORED
// warning with the count, where there was one a file (a flood that made
// --strict fail for 'find . -type f' in any repository). A single path
// inside one keeps its own warning.
func TestCommandOutputInsideGitIsOneWarning(t *testing.T) {
	p := fixture(t, map[string]string{
		"a.txt":             "a\n",
		".git/HEAD":         "ref: refs/heads/main\n",
		".git/config":       "[core]\n",
		".git/refs/heads/m": "0000\n",
		".taskctl/index/x":  "x\n",
		"sub/.git/HEAD":     "ref\n",
		"sub/.git/config":   "[core]\n",
		"sub/b.txt":         "b\n",
	})
	task := &template.Task{Name: "t", Description: "t", Sources: []template.FileSource{
		{Kind: template.SourceCommand, Command: `printf '%s\n' ./.git/HEAD ./.git/config ./.git/refs/heads/m ./.taskctl/index/x ./a.txt ./sub/.git/HEAD ./sub/.git/config ./sub/b.txt`},
	}}
	doc := assembleTask(t, p, task)
	got := map[string]string{}
	for _, w := range doc.Warnings {
		if w.Code == "PATH_IGNORED" {
			rel, _ := filepath.Rel(p.Dir(), w.Path)
			got[filepath.ToSlash(rel)] = w.Message
		}
	}
	want := map[string]string{
		".git":             "3 paths the command printed are inside .git/",
		".taskctl/index/x": "inside .taskctl/, which is always excluded",
		"sub/.git":         "2 paths the command printed are inside sub/.git/",
	}
	if len(got) != len(want) {
		t.Errorf("PATH_IGNORED warnings %q, want %d", got, len(want))
	}
	for path, msg := range want {
		if !strings.Contains(got[path], msg) {
			t.Errorf("warning for %s: %q, want it to say %q", path, got[path], msg)
		}
	}
	if len(doc.Files) != 2 {
		t.Errorf("files %d, want a.txt and sub/b.txt", len(doc.Files))
	}
}

// assembleTask binds task with no variables and assembles it in p with the
// default options.
func assembleTask(t *testing.T, p *project.Project, task *template.Task) *contextgen.Document {
	t.Helper()
	bound, err := task.Bind(nil)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := contextgen.Assemble(context.Background(), bound, contextgen.Options{Project: p})
	if err != nil {
		t.Fatal(err)
	}
	return doc
}
