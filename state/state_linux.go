package state

import "golang.org/x/sys/unix"

// dirOpenFlag: a state directory is opened with O_PATH, for *at calls
// only, so that a directory on its path that may be searched but not read
// (mode 0711) does not stop it.
const dirOpenFlag = unix.O_PATH
