package walk

import (
	"strings"

	"golang.org/x/sys/unix"
)

// RefuseWatches makes the kernel's refusal to watch (ENOSPC, the watch
// limit) the answer for every directory named name, until the returned
// function is called.
func RefuseWatches(name string) (restore func()) {
	addWatch = func(fd int, path string, mask uint32) (int, error) {
		if strings.HasSuffix(path, "/"+name) {
			return -1, unix.ENOSPC
		}
		return unix.InotifyAddWatch(fd, path, mask)
	}
	return func() { addWatch = unix.InotifyAddWatch }
}

// WatchWalked returns the number of directories w's last Sync walked.
func WatchWalked(w *Watcher) int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.walked
}

// WatchOverflow makes w take an overflow of its event queue.
func WatchOverflow(w *Watcher) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.event(-1, 0x4000, "") // IN_Q_OVERFLOW
}
