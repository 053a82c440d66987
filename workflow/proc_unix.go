//go:build unix

package workflow

import (
	"errors"
	"os/exec"
	"syscall"
)

// processAlive reports whether a process with this pid exists.
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// setGroup puts the command in a session of its own, and so in a process
// group of its own, with no controlling terminal: it cannot open /dev/tty,
// and no terminal it opens becomes its (the user's is another session's),
// so without CAP_SYS_ADMIN it cannot push input into the user's terminal
// with TIOCSTI for the shell to run after taskctl exits. On Linux it is
// also stopped if taskctl dies: see deathSignal.
func setGroup(cmd *exec.Cmd, supervised bool) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	deathSignal(cmd.SysProcAttr, supervised)
}

// signalGroup sends sig to the command's process group.
func signalGroup(cmd *exec.Cmd, sig syscall.Signal) error {
	if cmd.Process == nil {
		return nil
	}
	err := syscall.Kill(-cmd.Process.Pid, sig)
	if errors.Is(err, syscall.ESRCH) {
		return nil
	}
	return err
}

const (
	sigTerm = syscall.SIGTERM
	sigKill = syscall.SIGKILL
)
