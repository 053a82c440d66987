package memory

// Reset makes the next Refresh ignore the index on disk and read and
// analyse every file again (taskctl index --rebuild). Until that Refresh
// finishes, readers keep seeing the previous index.
func (ix *Index) Reset() {
	ix.mu.Lock()
	ix.reset = true
	ix.mu.Unlock()
}
