//go:build unix

package main

import (
	"os"
	"syscall"
)

// readFile reads the file name to its end through buf and returns its size:
// one open, reads until one returns nothing, one close.
func readFile(name string, buf []byte) (int64, error) {
	fd, err := retry(func() (int, error) { return syscall.Open(name, syscall.O_RDONLY|syscall.O_CLOEXEC, 0) })
	if err != nil {
		return 0, &os.PathError{Op: "open", Path: name, Err: err}
	}
	defer syscall.Close(fd)
	var total int64
	for {
		n, err := retry(func() (int, error) { return syscall.Read(fd, buf) })
		if err != nil {
			return total, &os.PathError{Op: "read", Path: name, Err: err}
		}
		if n == 0 {
			return total, nil
		}
		total += int64(n)
	}
}

// retry calls f again while it is interrupted by a signal.
func retry(f func() (int, error)) (int, error) {
	for {
		n, err := f()
		if err != syscall.EINTR {
			return n, err
		}
	}
}
