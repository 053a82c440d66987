//go:build unix

package memory

import (
	"os"
	"syscall"
)

// lockFile takes an exclusive advisory lock on name, waiting for it. The
// kernel drops the lock when the process dies, so a killed writer never
// leaves a stale lock behind.
func lockFile(name string) (unlock func(), err error) {
	f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		f.Close()
		return nil, &os.PathError{Op: "flock", Path: name, Err: err}
	}
	return func() {
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}
