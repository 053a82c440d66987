//go:build !linux

package engine

import "net"

// sameUser reports whether the process at the other end of c runs as this
// process's user; where that cannot be asked, never (and no watcher runs:
// project.Watch is Linux only).
func sameUser(*net.UnixConn) bool { return false }
