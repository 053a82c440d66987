package workflow_test

import (
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/taskctl/taskctl/internal/diag"
	"github.com/taskctl/taskctl/internal/sandbox"
	"github.com/taskctl/taskctl/workflow"
)

// sandboxProbe is an executor that reports its sandbox: one "NAME RESULT"
// line per attempt, and its TASKCTL_ variables.
const sandboxProbe = `#!/bin/bash
cat >/dev/null
try() { name=$1; shift; if "$@" 2>/dev/null; then echo "$name ok"; else echo "$name denied"; fi; }
echo "sandbox $TASKCTL_SANDBOX"
echo "workspace $TASKCTL_WORKSPACE"
echo "tmpdir ${TMPDIR:-unset}"
try read-project test -r "$TASKCTL_PROJECT_DIR/auth/login.go"
try write-project sh -c 'echo x >> "$TASKCTL_PROJECT_DIR/auth/login.go"'
try create-in-project sh -c 'echo x > "$TASKCTL_PROJECT_DIR/new.txt"'
try write-outside sh -c 'echo x > "$OUTSIDE/new.txt"'
try write-workspace sh -c 'echo x > "$TASKCTL_WORKSPACE/w.txt"'
try write-rundir sh -c 'echo x > "$TASKCTL_RUN_DIR/r.txt"'
try mktemp mktemp
try connect-tcp bash -c 'exec 3<>/dev/tcp/127.0.0.1/$PORT'
`

// runProbe runs a one-step workflow whose executor is sandboxProbe, in
// mode, and returns the record and what the probe reported.
func runProbe(t *testing.T, mode sandbox.Mode) (*workflow.Record, map[string]string, string, int64) {
	t.Helper()
	project, runs := setup(t)
	outside := t.TempDir()
	exe := filepath.Join(t.TempDir(), "probe.sh")
	if err := os.WriteFile(exe, []byte(sandboxProbe), 0o755); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var accepted atomic.Int64
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			accepted.Add(1)
			c.Close()
		}
	}()
	opt := options(&fake{dir: project}, project, runs, []string{exe})
	opt.Sandbox = mode
	opt.Workspace = filepath.Join(project, ".taskctl", "workspace")
	opt.Env = append(os.Environ(), "OUTSIDE="+outside, "PORT="+strconv.Itoa(ln.Addr().(*net.TCPAddr).Port))
	rec, err := workflow.Run(context.Background(), parse(t, `<task name="probe"><description>d</description></task>`), opt)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(rec.Steps[0].Output), "\n") {
		name, result, _ := strings.Cut(line, " ")
		got[name] = result
	}
	if ents, err := os.ReadDir(outside); err != nil || len(ents) != 0 && mode != sandbox.Off {
		t.Errorf("outside: %d entries, %v", len(ents), err)
	}
	return rec, got, project, accepted.Load()
}

// TestSandbox runs an executor in each mode and checks what it could do,
// what its environment said, and what the record says.
func TestSandbox(t *testing.T) {
	if err := sandbox.Check(sandbox.Strict); err != nil {
		t.Skipf("SKIP, not a pass: %v", err)
	}
	for _, tc := range []struct {
		mode             sandbox.Mode
		inForce          string
		project, connect string
		connections      int64
		privateTemp      bool
	}{
		{"", "read-only-project", "denied", "ok", 1, true},
		{sandbox.ReadOnlyProject, "read-only-project", "denied", "ok", 1, true},
		{sandbox.Strict, "strict", "denied", "denied", 0, true},
		{sandbox.Off, "off", "ok", "ok", 1, false},
	} {
		name := string(tc.mode)
		if name == "" {
			name = "default"
		}
		t.Run(name, func(t *testing.T) {
			rec, got, project, conns := runProbe(t, tc.mode)
			ws := filepath.Join(project, ".taskctl", "workspace")
			want := map[string]string{
				"sandbox":           tc.inForce,
				"workspace":         ws,
				"read-project":      "ok",
				"write-project":     tc.project,
				"create-in-project": tc.project,
				"write-outside":     tc.project,
				"write-workspace":   "ok",
				"write-rundir":      "ok",
				"mktemp":            "ok",
				"connect-tcp":       tc.connect,
			}
			// The project is in the system's temp dir, which is then not
			// writable: TMPDIR is the run's own.
			want["tmpdir"] = "unset"
			if tc.privateTemp {
				want["tmpdir"] = filepath.Join(rec.Dir, "tmp")
			}
			for k, w := range want {
				if got[k] != w {
					t.Errorf("%s: %q, want %q", k, got[k], w)
				}
			}
			if rec.Sandbox != tc.inForce || len(rec.Warnings) != 0 {
				t.Errorf("record: sandbox %q, warnings %v; want %q and none", rec.Sandbox, rec.Warnings, tc.inForce)
			}
			data, err := os.ReadFile(filepath.Join(project, "auth", "login.go"))
			if changed := string(data) != "auth/login.go\n"; err != nil || changed != (tc.project == "ok") {
				t.Errorf("auth/login.go: %q, %v", data, err)
			}
			if conns != tc.connections {
				t.Errorf("%d connections, want %d", conns, tc.connections)
			}
			if back, err := workflow.LoadRun(filepath.Join(project, ".taskctl", "runs"), rec.ID); err != nil || back.Sandbox != tc.inForce {
				t.Errorf("LoadRun: %v, %v", back, err)
			}
		})
	}
}

// TestSandboxUnavailable checks a sandbox that cannot be applied (here:
// no helper): the default mode runs unconfined with a SANDBOX_UNAVAILABLE
// warning (fatal under Strict, before the executor runs); a mode asked for
// by name stops the run before it starts.
func TestSandboxUnavailable(t *testing.T) {
	project, runs := setup(t)
	marker := filepath.Join(t.TempDir(), "ran")
	t.Setenv("MARKER", marker)
	src := `<task name="m"><description>d</description></task>`
	opt := options(&fake{dir: project}, project, runs, script(t, "marker.sh"))
	opt.SandboxHelper = nil

	rec, err := workflow.Run(context.Background(), parse(t, src), opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Warnings) != 1 || rec.Warnings[0].Code != diag.SandboxUnavailable ||
		!strings.Contains(rec.Warnings[0].Message, "unconfined") || rec.Sandbox != "off" {
		t.Errorf("record: sandbox %q, warnings %v; want off and SANDBOX_UNAVAILABLE", rec.Sandbox, rec.Warnings)
	}
	if _, err := os.Stat(marker); err != nil {
		t.Errorf("the executor did not run: %v", err)
	}
	os.Remove(marker)

	opt.Strict = true
	rec, err = workflow.Run(context.Background(), parse(t, src), opt)
	if !errors.Is(err, workflow.ErrStrict) || !strings.Contains(err.Error(), "1 warning(s) in the run's sandbox") || rec == nil || rec.Status != workflow.RunFailed {
		t.Errorf("strict: %v, want ErrStrict for the sandbox's warning", err)
	}
	if _, err := os.Stat(marker); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("strict: the executor ran (%v)", err)
	}

	opt.Strict = false
	for _, m := range []sandbox.Mode{sandbox.ReadOnlyProject, sandbox.Strict} {
		opt.Sandbox = m
		rec, err := workflow.Run(context.Background(), parse(t, src), opt)
		if !errors.Is(err, sandbox.ErrUnavailable) || rec != nil {
			t.Errorf("%s without a helper: %v, want ErrUnavailable and no record", m, err)
		}
	}
	opt.Sandbox = "bogus"
	if _, err := workflow.Run(context.Background(), parse(t, src), opt); err == nil || !strings.Contains(err.Error(), `sandbox mode "bogus"`) {
		t.Errorf("bogus mode: %v", err)
	}
	if _, err := os.Stat(marker); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the executor ran (%v)", err)
	}
}

// TestSandboxHostileWorkspace checks a cloned repository's workspace that
// leads outside: a symbolic link as .taskctl/workspace, or as .taskctl
// itself. The run does not start, and nothing is created outside.
func TestSandboxHostileWorkspace(t *testing.T) {
	for _, link := range []string{".taskctl/workspace", ".taskctl"} {
		t.Run(link, func(t *testing.T) {
			project, runs := setup(t)
			outside := t.TempDir()
			target := filepath.Join(project, link)
			if err := os.RemoveAll(target); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(outside, target); err != nil {
				t.Fatal(err)
			}
			if link == ".taskctl" {
				// (the runs dir is then outside too)
				if err := os.Mkdir(filepath.Join(outside, "runs"), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			for _, m := range []sandbox.Mode{"", sandbox.Off} {
				opt := options(&fake{dir: project}, project, runs, script(t, "notes.sh"))
				opt.Sandbox = m
				opt.Workspace = filepath.Join(project, ".taskctl", "workspace")
				_, err := workflow.Run(context.Background(), parse(t, `<task name="w"><description>d</description></task>`), opt)
				if err == nil || !strings.Contains(err.Error(), "a symbolic link is on its way") {
					t.Errorf("sandbox %q: Run = %v, want a refused workspace", m, err)
				}
				if ents, _ := os.ReadDir(outside); len(ents) > 1 || len(ents) == 1 && ents[0].Name() != "runs" {
					t.Errorf("sandbox %q: %d entries made outside", m, len(ents))
				} else if ents, _ := os.ReadDir(filepath.Join(outside, "runs")); len(ents) != 0 {
					t.Errorf("sandbox %q: a run was recorded outside", m)
				}
			}
		})
	}
}
