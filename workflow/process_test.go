//go:build unix

package workflow_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/taskctl/taskctl/workflow"
)

const hanging = `<task name="h" type="sequential">
  <description>Hangs in step 2</description>
  <steps>
    <task name="first"><description>first</description></task>
    <task name="hang"><description>second</description></task>
    <task name="never"><description>third</description></task>
  </steps>
</task>`

// waitPids waits for hang.sh to write its pids.
func waitPids(t *testing.T, file string) []int {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		data, err := os.ReadFile(file)
		if err == nil {
			var pids []int
			for _, f := range strings.Fields(string(data)) {
				n, err := strconv.Atoi(f)
				if err != nil {
					t.Fatal(err)
				}
				pids = append(pids, n)
			}
			return pids
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("hang.sh did not start")
	return nil
}

// gone reports whether pid no longer runs (a zombie waiting for its reaper
// counts as gone), waiting a while for signals to land.
func gone(pid int) bool {
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
			return true
		}
		stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err == nil {
			if i := strings.LastIndexByte(string(stat), ')'); i > 0 && strings.HasPrefix(string(stat[i+1:]), " Z") {
				return true
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	return false
}

func killGroup(pids []int) {
	if len(pids) > 0 {
		_ = syscall.Kill(-pids[0], syscall.SIGKILL)
	}
}

func TestTimeout(t *testing.T) {
	project, runs := setup(t)
	pidfile := filepath.Join(t.TempDir(), "pids")
	t.Setenv("HANG_PIDFILE", pidfile)
	opt := options(&fake{dir: project}, project, runs, script(t, "dispatch.sh"))
	opt.WriteRoots = []string{filepath.Dir(pidfile)} // (where hang.sh says its pids)
	// (long enough for hang.sh to start under -race on a loaded machine,
	// through the supervisor and the sandbox helper, two starts of this
	// binary)
	opt.StepTimeout = 6 * time.Second
	rec, err := workflow.Run(context.Background(), parse(t, hanging), opt)
	pids := waitPids(t, pidfile)
	t.Cleanup(func() { killGroup(pids) })
	if !errors.Is(err, workflow.ErrTimeout) {
		t.Fatalf("Run = %v, want ErrTimeout", err)
	}
	if rec.Status != workflow.RunFailed || rec.Step("hang").Status != workflow.StepTimeout ||
		rec.Step("first").Status != workflow.StepOK || rec.Step("never").Status != workflow.StepSkipped {
		t.Errorf("run %q, steps %q %q %q", rec.Status, rec.Step("first").Status, rec.Step("hang").Status, rec.Step("never").Status)
	}
	for _, pid := range pids {
		if !gone(pid) {
			t.Errorf("process %d of the executor's group still runs", pid)
		}
	}
	got, err := workflow.LoadRun(runs, rec.ID)
	if err != nil || got.Step("hang").Status != workflow.StepTimeout {
		t.Errorf("LoadRun: %v", err)
	}
}

func TestCancel(t *testing.T) {
	project, runs := setup(t)
	pidfile := filepath.Join(t.TempDir(), "pids")
	t.Setenv("HANG_PIDFILE", pidfile)
	opt := options(&fake{dir: project}, project, runs, script(t, "dispatch.sh"))
	opt.WriteRoots = []string{filepath.Dir(pidfile)}
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	sigint := errors.New("interrupt signal received")
	pidc := make(chan []int, 1)
	go func() {
		pids := waitPids(t, pidfile)
		pidc <- pids
		cancel(sigint) // as signal.NotifyContext does
	}()
	rec, err := workflow.Run(ctx, parse(t, hanging), opt)
	pids := <-pidc
	t.Cleanup(func() { killGroup(pids) })
	var se *workflow.StepError
	if !errors.As(err, &se) || se.Step != "hang" || !errors.Is(err, context.Canceled) || !errors.Is(err, sigint) ||
		err.Error() != "step hang: interrupted: interrupt signal received" {
		t.Fatalf("Run = %v, want a StepError for hang wrapping context.Canceled and the cause", err)
	}
	if rec.Status != workflow.RunInterrupted || rec.Step("hang").Status != workflow.StepInterrupted {
		t.Errorf("run %q, hang %q; want interrupted", rec.Status, rec.Step("hang").Status)
	}
	for _, pid := range pids {
		if !gone(pid) {
			t.Errorf("process %d of the executor's group still runs", pid)
		}
	}
	got, err := workflow.LoadRun(runs, rec.ID)
	if err != nil || got.Status != workflow.RunInterrupted {
		t.Errorf("LoadRun: %v, %v", got, err)
	}
}

// TestHelperRun is not a test: TestKilled runs the test binary with it as a
// helper process that starts a run and hangs in step 2.
func TestHelperRun(t *testing.T) {
	if os.Getenv("WORKFLOW_HELPER_RUNS") == "" {
		t.Skip("helper process for TestKilled")
	}
	runs, project := os.Getenv("WORKFLOW_HELPER_RUNS"), os.Getenv("WORKFLOW_HELPER_PROJECT")
	opt := options(&fake{dir: project}, project, runs, script(t, "dispatch.sh"))
	opt.WriteRoots = []string{filepath.Dir(os.Getenv("HANG_PIDFILE"))}
	_, err := workflow.Run(context.Background(), parse(t, hanging), opt)
	t.Fatalf("the run returned: %v", err)
}

func TestKilled(t *testing.T) {
	project, runs := setup(t)
	pidfile := filepath.Join(t.TempDir(), "pids")
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperRun$", "-test.count=1")
	cmd.Env = append(os.Environ(), "WORKFLOW_HELPER_RUNS="+runs, "WORKFLOW_HELPER_PROJECT="+project, "HANG_PIDFILE="+pidfile)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pids := waitPids(t, pidfile)
	t.Cleanup(func() { killGroup(pids) })
	ids, err := workflow.Runs(runs)
	if err != nil || len(ids) != 1 {
		t.Fatalf("Runs = %q, %v", ids, err)
	}
	rec, err := workflow.LoadRun(runs, ids[0])
	if err != nil || rec.Status != workflow.RunRunning || rec.PID != cmd.Process.Pid || rec.Step("hang").Status != workflow.StepRunning {
		t.Fatalf("while the run runs: %+v, %v", rec, err)
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	if runtime.GOOS == "linux" {
		for _, pid := range pids {
			if !gone(pid) {
				t.Errorf("pid %d of the step (executor, then its child) outlived the killed run", pid)
			}
		}
	}
	rec, err = workflow.LoadRun(runs, ids[0])
	if err != nil {
		t.Fatal(err)
	}
	if rec.Status != workflow.RunInterrupted || rec.Step("first").Status != workflow.StepOK ||
		rec.Step("hang").Status != workflow.StepInterrupted || rec.Step("never").Status != workflow.StepSkipped {
		t.Errorf("after SIGKILL: run %q, steps %q %q %q", rec.Status,
			rec.Step("first").Status, rec.Step("hang").Status, rec.Step("never").Status)
	}
	if !strings.Contains(rec.Error, strconv.Itoa(cmd.Process.Pid)) {
		t.Errorf("error %q does not name the dead pid", rec.Error)
	}

	// The next run rewrites the killed run's record to say it was
	// interrupted.
	record := filepath.Join(runs, ids[0], "run.json")
	if data, _ := os.ReadFile(record); !strings.Contains(string(data), `"status": "running"`) {
		t.Fatalf("before the next run, run.json says:\n%s", data)
	}
	next := `<task name="next" type="sequential"><description>d</description><steps><task name="only"><description>d</description></task></steps></task>`
	if _, err := workflow.Run(context.Background(), parse(t, next), options(&fake{dir: project}, project, runs, script(t, "notes.sh"))); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(record)
	if err != nil {
		t.Fatal(err)
	}
	var raw workflow.Record
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	if raw.Status != workflow.RunInterrupted || raw.Step("hang").Status != workflow.StepInterrupted || raw.Step("never").Status != workflow.StepSkipped {
		t.Errorf("after the next run, run.json says run %q, steps %q %q", raw.Status, raw.Step("hang").Status, raw.Step("never").Status)
	}
}
