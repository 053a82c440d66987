package sandbox_test

import (
	"bytes"
	"fmt"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/taskctl/taskctl/internal/sandbox"
)

// probe is an executor that tries what a hostile one would and prints one
// line per attempt: "NAME ok" or "NAME denied".
const probe = `#!/bin/bash
try() { name=$1; shift; if "$@" 2>/dev/null; then echo "$name ok"; else echo "$name denied"; fi; }
try read-project sh -c '[ "$(cat "$PROJ/a.txt")" = alpha ]'
try create-in-project sh -c 'echo x > "$PROJ/new.txt"'
try modify-project sh -c 'echo x >> "$PROJ/a.txt"'
try truncate-project truncate -s 0 "$PROJ/a.txt"
try delete-in-project rm "$PROJ/b.txt"
try mkdir-in-project mkdir "$PROJ/d"
try write-config sh -c 'echo "<config/>" > "$PROJ/.taskctl/config.xml"'
try move-project-out mv "$PROJ/c.txt" "$TASKCTL_WORKSPACE/c.txt"
try hardlink-project ln "$PROJ/a.txt" "$TASKCTL_WORKSPACE/hard"
try symlink-write sh -c 'ln -s "$PROJ/a.txt" "$TASKCTL_WORKSPACE/soft" && echo x >> "$TASKCTL_WORKSPACE/soft"'
try create-outside sh -c 'echo x > "$OUTSIDE/new.txt"'
try write-workspace sh -c 'mkdir -p "$TASKCTL_WORKSPACE/sub" && echo x > "$TASKCTL_WORKSPACE/sub/w.txt" && mv "$TASKCTL_WORKSPACE/sub/w.txt" "$TASKCTL_WORKSPACE/w.txt"'
try write-rundir sh -c 'echo x > "$RUN_DIR/r.txt"'
try move-between sh -c 'mv "$TASKCTL_WORKSPACE/w.txt" "$RUN_DIR/w.txt"'
try dev-null sh -c 'echo x > /dev/null'
try connect-tcp bash -c 'exec 3<>/dev/tcp/127.0.0.1/$PORT'
try signal-outside kill -0 "$OUTSIDE_PID"
`

// sandboxed runs probe confined in mode and returns what it printed and
// how many connections the listener took. The project holds a.txt, b.txt, c.txt
// and .taskctl/config.xml; the run dir and the workspace are writable.
func sandboxed(t *testing.T, mode sandbox.Mode) (map[string]string, int64, string, string) {
	t.Helper()
	if err := sandbox.Check(mode); err != nil {
		t.Skipf("SKIP, not a pass: %v", err)
	}
	if mode == sandbox.Off {
		// (Check never fails for off: the control run needs no Landlock,
		// but the test needs it to mean anything.)
		if err := sandbox.Check(sandbox.ReadOnlyProject); err != nil {
			t.Skipf("SKIP, not a pass: %v", err)
		}
	}
	root := t.TempDir()
	proj := filepath.Join(root, "proj")
	runDir := filepath.Join(proj, ".taskctl", "runs", "r1")
	ws := filepath.Join(proj, ".taskctl", "workspace")
	outside := filepath.Join(root, "outside")
	for _, d := range []string{runDir, ws, outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for name, content := range map[string]string{"a.txt": "alpha\n", "b.txt": "beta\n", "c.txt": "gamma\n", ".taskctl/config.xml": "<config></config>\n"} {
		if err := os.WriteFile(filepath.Join(proj, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	script := filepath.Join(root, "probe.sh")
	if err := os.WriteFile(script, []byte(probe), 0o755); err != nil {
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
	// A process outside the sandbox to signal.
	other := exec.Command("sleep", "60")
	if err := other.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { other.Process.Kill(); other.Wait() }()

	before := snapshot(t, root, runDir, ws)
	argv := []string{script}
	if mode != sandbox.Off {
		plan, err := sandbox.NewPlan(mode, proj, []string{runDir, ws})
		if err != nil {
			t.Fatal(err)
		}
		argv = plan.Command([]string{os.Args[0], sandbox.HelperArg}, argv)
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = append(os.Environ(), "PROJ="+proj, "OUTSIDE="+outside, "RUN_DIR="+runDir, "TASKCTL_WORKSPACE="+ws,
		"PORT="+strconv.Itoa(ln.Addr().(*net.TCPAddr).Port), "OUTSIDE_PID="+strconv.Itoa(other.Process.Pid))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("probe: %v\n%s", err, stderr.String())
	}
	got := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		name, result, _ := strings.Cut(line, " ")
		got[name] = result
	}
	// Nothing changed anywhere but in the run dir and the workspace.
	if after := snapshot(t, root, runDir, ws); after != before && mode != sandbox.Off {
		t.Errorf("outside the run dir and the workspace:\nbefore:\n%s\nafter:\n%s", before, after)
	}
	return got, accepted.Load(), runDir, ws
}

// snapshot lists every file under root but those under skip, with its
// content.
func snapshot(t *testing.T, root string, skip ...string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		for _, s := range skip {
			if p == s {
				return filepath.SkipDir
			}
		}
		if d.Type().IsRegular() {
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			fmt.Fprintf(&b, "%s %q\n", p, data)
		} else {
			fmt.Fprintf(&b, "%s %v\n", p, d.Type())
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestLandlock runs the probe under both modes on this kernel and checks
// every outcome; the network and signals differ between them. The probe
// run unconfined (off) is the control: every attempt succeeds there.
func TestLandlock(t *testing.T) {
	common := map[string]string{
		"read-project":      "ok",
		"create-in-project": "denied",
		"modify-project":    "denied",
		"truncate-project":  "denied",
		"delete-in-project": "denied",
		"mkdir-in-project":  "denied",
		"write-config":      "denied",
		"move-project-out":  "denied",
		"hardlink-project":  "denied",
		"symlink-write":     "denied",
		"create-outside":    "denied",
		"write-workspace":   "ok",
		"write-rundir":      "ok",
		"move-between":      "ok",
		"dev-null":          "ok",
	}
	for _, tc := range []struct {
		mode              sandbox.Mode
		connect, signal   string
		connectionsWanted int64
	}{
		{sandbox.Off, "ok", "ok", 1},
		{sandbox.ReadOnlyProject, "ok", "ok", 1},
		{sandbox.Strict, "denied", "denied", 0},
	} {
		t.Run(string(tc.mode), func(t *testing.T) {
			got, conns, runDir, ws := sandboxed(t, tc.mode)
			want := map[string]string{"connect-tcp": tc.connect, "signal-outside": tc.signal}
			for k, v := range common {
				if tc.mode == sandbox.Off {
					v = "ok"
				}
				want[k] = v
			}
			for name, w := range want {
				if got[name] != w {
					t.Errorf("%s: %q, want %q", name, got[name], w)
				}
			}
			if len(got) != len(want) {
				t.Errorf("the probe reported %d attempts, want %d: %v", len(got), len(want), got)
			}
			if conns != tc.connectionsWanted {
				t.Errorf("the listener took %d connections, want %d", conns, tc.connectionsWanted)
			}
			for _, f := range []string{filepath.Join(ws, "sub"), filepath.Join(runDir, "r.txt"), filepath.Join(runDir, "w.txt")} {
				if _, err := os.Stat(f); err != nil {
					t.Errorf("what the probe wrote: %v", err)
				}
			}
		})
	}
}

// TestHelperFails checks that the helper refuses bad arguments and a
// program it cannot run, with exit status 126 and a message.
func TestHelperFails(t *testing.T) {
	if err := sandbox.Check(sandbox.ReadOnlyProject); err != nil {
		t.Skipf("SKIP, not a pass: %v", err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--mode", "strict", "--write", "/tmp"}, "no -- before the program"},
		{[]string{"--mode", "strict", "/bin/true"}, "/bin/true needs a value"},
		{[]string{"--mode", "off", "--", "/bin/true"}, `--mode "off"`},
		{[]string{"--", "/bin/true"}, "no --mode"},
		{[]string{"--mode", "strict", "--"}, "no program after --"},
		{[]string{"--mode", "strict", "--bogus", "x", "--", "/bin/true"}, `unknown argument "--bogus"`},
		{[]string{"--mode", "strict", "--write", "/nonexistent-dir", "--", "/bin/true"}, "landlock ruleset"},
		{[]string{"--mode", "strict", "--", "/nonexistent-program"}, "/nonexistent-program: no such file or directory"},
	} {
		cmd := exec.Command(os.Args[0], append([]string{sandbox.HelperArg}, tc.args...)...)
		out, err := cmd.CombinedOutput()
		ee, ok := err.(*exec.ExitError)
		if !ok || ee.ExitCode() != 126 || !strings.Contains(string(out), "taskctl sandbox: ") || !strings.Contains(string(out), tc.want) {
			t.Errorf("helper %q: %v, %q; want exit 126 and %q", tc.args, err, out, tc.want)
		}
	}
}
