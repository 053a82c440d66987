package workflow

import (
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"slices"
	"syscall"

	"github.com/taskctl/taskctl/internal/sandbox"
)

// deathSignal has the process taskctl starts signalled when taskctl dies
// without stopping it (SIGKILL, the OOM killer), so that no step runs on
// unwatched: a supervisor gets SIGTERM, on which it kills the step's whole
// process group; an executor run without one gets SIGKILL (the processes
// it started may then outlive it).
func deathSignal(a *syscall.SysProcAttr, supervised bool) {
	a.Pdeathsig = syscall.SIGKILL
	if supervised {
		a.Pdeathsig = syscall.SIGTERM
	}
}

// supervise makes cmd run its command line through the supervisor command
// line sup, if there is one.
func supervise(cmd *exec.Cmd, sup []string) bool {
	if len(sup) == 0 {
		return false
	}
	args := append(append(slices.Clone(sup[1:]), cmd.Path), cmd.Args[1:]...)
	cmd.Path, cmd.Args = sup[0], append([]string{sup[0]}, args...)
	cmd.Err = nil
	return true
}

// Supervise is the supervisor's main: it runs args (the executor's path
// and arguments) in its own process group, which taskctl made for it, and
// returns the exit status to exit with, the executor's. On SIGTERM or
// SIGHUP it looks whether taskctl, its parent, still runs: if not (taskctl
// was killed and the kernel sent the death signal), it kills the whole
// group, itself included, so that nothing of the step survives; if taskctl
// runs, taskctl is stopping the step, has signalled the group and will
// escalate, and the supervisor waits for the executor as before.
func Supervise(args []string) int {
	if len(args) == 0 {
		fmt.Fprintln(os.Stderr, "taskctl __supervise: no command")
		return 2
	}
	// (Had taskctl died before this process ran, the death signal would
	// have been sent at its start, which Go's fork does.)
	parent := os.Getppid()
	sig := make(chan os.Signal, 4)
	signal.Notify(sig, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGINT)
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	if err := startWithoutTerminalInput(cmd); err != nil {
		fmt.Fprintf(os.Stderr, "taskctl: %v\n", err)
		return 127
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	for {
		select {
		case <-done:
			st, _ := cmd.ProcessState.Sys().(syscall.WaitStatus)
			if st.Signaled() {
				// die as the executor died, so that taskctl sees the same
				signal.Reset()
				syscall.Kill(os.Getpid(), st.Signal())
			}
			return cmd.ProcessState.ExitCode()
		case <-sig:
			if os.Getppid() != parent {
				syscall.Kill(0, syscall.SIGKILL)
			}
		}
	}
}

// startWithoutTerminalInput starts cmd under the seccomp filter that
// refuses TIOCSTI and TIOCLINUX, when this process may install it without
// setting no_new_privs (which would change what the executor's set-user-ID
// programs may do, in a sandbox the user turned off): as root, the one user
// whom a session without a terminal does not stop (CAP_SYS_ADMIN may push
// input into any terminal it opens). A confined executor gets the filter
// from the sandbox helper in any case.
func startWithoutTerminalInput(cmd *exec.Cmd) error {
	runtime.LockOSThread() // the filter is the thread's, which forks the executor
	defer runtime.UnlockOSThread()
	if os.Geteuid() == 0 {
		if err := sandbox.RefuseTerminalInput(); err != nil {
			return err
		}
	}
	return cmd.Start()
}

// runLocked runs cmd with the calling goroutine locked to its thread. The
// kernel sends the death signal when the thread that started the process
// exits, not the process; a locked thread cannot exit (or be handed to
// another goroutine) until the command has been waited for.
func runLocked(cmd *exec.Cmd) error {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	return cmd.Run()
}
