package workflow

import (
	"os/exec"
	"runtime"
	"syscall"
)

// deathSignal has the executor killed when taskctl dies without stopping
// it (SIGKILL, the OOM killer), so that no step runs on unwatched. Only
// the executor itself: processes it started in its group may outlive it.
func deathSignal(a *syscall.SysProcAttr) {
	a.Pdeathsig = syscall.SIGKILL
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
