//go:build !unix

package workflow

import (
	"os"
	"os/exec"
)

func processAlive(pid int) bool { return true }

func setGroup(*exec.Cmd, bool) {}

func signalGroup(cmd *exec.Cmd, sig os.Signal) error {
	if cmd.Process == nil {
		return nil
	}
	return cmd.Process.Kill()
}

var (
	sigTerm os.Signal = os.Kill
	sigKill os.Signal = os.Kill
)
