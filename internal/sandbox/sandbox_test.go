package sandbox_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/taskctl/taskctl/internal/sandbox"
)

func TestMain(m *testing.M) {
	// The test binary is its own sandbox helper, as taskctl is.
	if len(os.Args) > 1 && os.Args[1] == sandbox.HelperArg {
		os.Exit(sandbox.Exec(os.Args[2:]))
	}
	os.Exit(m.Run())
}

func TestParseMode(t *testing.T) {
	for _, s := range []string{"off", "read-only-project", "strict"} {
		if m, err := sandbox.ParseMode(s); err != nil || string(m) != s {
			t.Errorf("ParseMode(%q) = %q, %v", s, m, err)
		}
	}
	for _, s := range []string{"", "on", "Strict", "read-only"} {
		if _, err := sandbox.ParseMode(s); err == nil || !strings.Contains(err.Error(), "want off, read-only-project or strict") {
			t.Errorf("ParseMode(%q) = %v, want an error", s, err)
		}
	}
}

// TestNewPlanRefuses checks the writable directories a plan refuses: a
// relative path, a missing one, a file, one reached through a symbolic
// link (which could point anywhere: a cloned repository's
// .taskctl/workspace -> $HOME), and one that holds the project.
func TestNewPlanRefuses(t *testing.T) {
	root := t.TempDir()
	proj := filepath.Join(root, "proj")
	ws := filepath.Join(proj, ".taskctl", "workspace")
	outside := filepath.Join(root, "outside")
	for _, d := range []string{ws, outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	file := filepath.Join(proj, "f")
	link := filepath.Join(proj, ".taskctl", "link")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, link); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ dir, want string }{
		{"proj/.taskctl/workspace", "not an absolute path"},
		{filepath.Join(proj, "nosuch"), "no such file or directory"},
		{file, "not a directory"},
		{link, "a symbolic link is on its way"},
		{filepath.Join(link, "."), "a symbolic link is on its way"},
		{root, "holds the project"},
		{proj, "holds the project"},
	} {
		for _, m := range []sandbox.Mode{sandbox.ReadOnlyProject, sandbox.Strict} {
			_, err := sandbox.NewPlan(m, proj, []string{ws, tc.dir})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%s: NewPlan(%s) = %v, want %q", m, tc.dir, err, tc.want)
			}
		}
	}
	if _, err := sandbox.NewPlan(sandbox.Off, proj, nil); err == nil {
		t.Error("NewPlan(off) made a plan")
	}
	p, err := sandbox.NewPlan(sandbox.Strict, proj, []string{ws})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(p.Write, []string{ws}) || !p.PrivateTemp {
		t.Errorf("strict plan writes %q (private temp %v), want only the workspace and a private temp", p.Write, p.PrivateTemp)
	}
}

// TestPlanTemp checks the system's temporary directory: writable in
// read-only-project mode unless it holds the project, never in strict
// mode.
func TestPlanTemp(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	proj, ws := t.TempDir(), t.TempDir()
	if strings.HasPrefix(proj, tmp+"/") {
		t.Fatalf("the project %s is in the temp dir %s", proj, tmp)
	}
	p, err := sandbox.NewPlan(sandbox.ReadOnlyProject, proj, []string{ws})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(p.Write, []string{ws, tmp}) || p.PrivateTemp {
		t.Errorf("read-only-project writes %q (private temp %v), want the workspace and %s", p.Write, p.PrivateTemp, tmp)
	}
	inner := filepath.Join(tmp, "proj")
	if err := os.Mkdir(inner, 0o755); err != nil {
		t.Fatal(err)
	}
	if p, err = sandbox.NewPlan(sandbox.ReadOnlyProject, inner, []string{ws}); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(p.Write, []string{ws}) || !p.PrivateTemp {
		t.Errorf("with the project in the temp dir: writes %q (private temp %v), want only the workspace", p.Write, p.PrivateTemp)
	}
}
