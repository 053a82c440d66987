//go:build !linux

package workflow

import (
	"fmt"
	"os"
	"os/exec"
)

func runLocked(cmd *exec.Cmd) error { return cmd.Run() }

// supervise uses no supervisor: only Linux has the death signal that
// starts one's work.
func supervise(*exec.Cmd, []string) bool { return false }

// Supervise runs args (the executor's path and arguments) and returns its
// exit status; only on Linux does it also watch taskctl (see there).
func Supervise(args []string) int {
	if len(args) == 0 {
		fmt.Fprintln(os.Stderr, "taskctl __supervise: no command")
		return 2
	}
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil && cmd.ProcessState == nil {
		fmt.Fprintf(os.Stderr, "taskctl: %v\n", err)
		return 127
	}
	return cmd.ProcessState.ExitCode()
}
