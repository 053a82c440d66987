//go:build unix && !linux

package workflow

import "syscall"

func deathSignal(*syscall.SysProcAttr, bool) {}
