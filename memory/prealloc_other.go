//go:build !linux

package memory

import "os"

// preallocate does nothing: the flush it avoids is ext4's, on Linux.
func preallocate(f *os.File, n int64) {}
