package engine_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/taskctl/taskctl/engine"
)

// TestProjectFilesNotFollowedOut: .taskctl/config.xml and the task library
// .taskctl/tasks/*.xml are the repository's files: a symbolic link there to
// a file outside the project is not followed (#21 point 7's last holes):
// the outside config's settings are not even reported as ignored, an
// outside task is not found by name nor listed, and trust refuses it.
func TestProjectFilesNotFollowedOut(t *testing.T) {
	dir := t.TempDir()
	proj, out := filepath.Join(dir, "proj"), filepath.Join(dir, "out")
	writeFiles(t, dir, map[string]string{
		"proj/.git/HEAD":             "ref: refs/heads/main\n",
		"proj/src/a.go":              "package a\n",
		"proj/.taskctl/tasks/in.xml": "<task name=\"in\"><description>d</description><file_paths><path>src/a.go</path></file_paths></task>\n",
		"out/config.xml":             "<config><command><timeout>1</timeout></command><policy><allow_sensitive>true</allow_sensitive></policy></config>\n",
		"out/task.xml":               "<task name=\"outside\"><description>OUTSIDE-TASK</description><file_paths><path>src/a.go</path></file_paths></task>\n",
	})
	for link, target := range map[string]string{
		"proj/.taskctl/config.xml":    filepath.Join(out, "config.xml"),
		"proj/.taskctl/tasks/x.xml":   filepath.Join(out, "task.xml"),
		"proj/.taskctl/tasks/rel.xml": "../../../out/task.xml",
	} {
		if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	xdg := filepath.Join(dir, "xdg")
	e := open(t, proj, xdg, engine.Options{})
	s, err := e.Settings()
	if err != nil {
		t.Fatal(err)
	}
	if s.AllowSensitive || s.CommandTimeout.Seconds() == 1 {
		t.Errorf("the outside config applied: %+v", s)
	}
	for _, w := range e.ConfigWarnings() {
		if strings.Contains(w.Message, "allow_sensitive") || strings.Contains(w.Message, "timeout") {
			t.Errorf("a warning tells what the outside config holds: %s", w.Message)
		}
	}
	if _, err := e.LoadTask("outside", "", nil); err == nil {
		t.Errorf("the task of a library file linked outside was found by name")
	}
	if _, err := e.LoadTask("in", "", nil); err != nil {
		t.Errorf("the task inside: %v", err)
	}
	list, err := e.ListTasks()
	if err != nil {
		t.Fatal(err)
	}
	for _, ti := range list.Tasks {
		if ti.Name == "outside" {
			t.Errorf("ListTasks lists the outside task")
		}
	}
	if _, err := open(t, proj, xdg, engine.Options{}).Trust(); err == nil {
		t.Errorf("trust recorded a config.xml linked outside the project")
	}
}
