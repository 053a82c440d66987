//go:build unix && !linux

package state

import "golang.org/x/sys/unix"

// dirOpenFlag: without O_PATH, a state directory is opened for reading.
const dirOpenFlag = unix.O_RDONLY
