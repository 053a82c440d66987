package project

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
