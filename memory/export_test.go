package memory

// SetWriteHook sets a function called after each chunk of an index file is
// written (for the crash-safety test); nil removes it.
func SetWriteHook(f func(written int)) { writeHook = f }
