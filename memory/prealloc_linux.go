package memory

import (
	"os"

	"golang.org/x/sys/unix"
)

// preallocate reserves n bytes for the new index file f before it is
// written, where the file system can. On ext4, a file written without
// its blocks reserved is flushed to the disk when it is renamed over
// another (the "auto_da_alloc" heuristic for programs that do not
// fsync), and the rename waits for it. An error is no matter: the file is
// written as before.
func preallocate(f *os.File, n int64) {
	if n > 0 {
		unix.Fallocate(int(f.Fd()), 0, 0, n)
	}
}
