package engine

import (
	"net"
	"os"

	"golang.org/x/sys/unix"
)

// sameUser reports whether the process at the other end of c runs as this
// process's user (SO_PEERCRED).
func sameUser(c *net.UnixConn) bool {
	sc, err := c.SyscallConn()
	if err != nil {
		return false
	}
	var cred *unix.Ucred
	var cerr error
	if err := sc.Control(func(fd uintptr) {
		cred, cerr = unix.GetsockoptUcred(int(fd), unix.SOL_SOCKET, unix.SO_PEERCRED)
	}); err != nil || cerr != nil {
		return false
	}
	return int(cred.Uid) == os.Getuid()
}
