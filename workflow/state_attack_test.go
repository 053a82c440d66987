package workflow_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/taskctl/taskctl/internal/hostile"
	"github.com/taskctl/taskctl/workflow"
)

// TestHostileRunsDir: a cloned repository that commits .taskctl/runs, or
// .taskctl, as a symbolic link out of the clone gets a refusal,
// STATE_UNSAFE, from a run that would record itself there, and no run
// directory appears outside.
func TestHostileRunsDir(t *testing.T) {
	for _, link := range []string{".taskctl/runs", ".taskctl"} {
		t.Run(link, func(t *testing.T) {
			out := hostile.Dir(t, map[string]string{"keep.txt": "x\n", "runs/keep.txt": "x\n"})
			target := out
			if link == ".taskctl/runs" {
				target = out + "/runs"
			}
			proj := hostile.Clone(t, map[string]string{"auth/login.go": "package auth\n"}, map[string]string{link: target})
			before := hostile.Snapshot(t, out)
			runs := filepath.Join(proj, ".taskctl", "runs")
			_, err := workflow.Run(context.Background(), parse(t, `<task name="solo"><description>d</description></task>`),
				options(&fake{dir: proj}, proj, runs, script(t, "notes.sh")))
			hostile.Unchanged(t, out, before, "a run")
			if err == nil || !strings.Contains(err.Error(), "STATE_UNSAFE") {
				t.Fatalf("run: %v, want a STATE_UNSAFE refusal", err)
			}
		})
	}
}
