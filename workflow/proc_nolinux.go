//go:build !linux

package workflow

import "os/exec"

func runLocked(cmd *exec.Cmd) error { return cmd.Run() }
