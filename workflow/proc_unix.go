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

// setGroup puts the command in a process group of its own (and, on Linux,
// has it stopped if taskctl dies: see deathSignal).
func setGroup(cmd *exec.Cmd, supervised bool) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
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
