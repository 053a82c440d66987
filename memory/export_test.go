package memory

// SetWriteHook sets a function called after each chunk of an index file is
// written (for the crash-safety test); nil removes it.
func SetWriteHook(f func(written int)) { writeHook = f }

// SetSegmentBytes makes refreshes analyse batches of n bytes (see
// segmentBytes) until the returned function restores the size.
func SetSegmentBytes(n int64) (restore func()) {
	old := segmentBytes
	segmentBytes = n
	return func() { segmentBytes = old }
}
