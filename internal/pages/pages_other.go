//go:build !linux

package pages

// Populate does nothing: the zero page's second fault was measured on
// Linux only.
func Populate[T any](s []T) bool { return false }

// Bytes returns n zero bytes, made as any others: huge pages were measured
// on Linux only.
func Bytes(n int) []byte { return make([]byte, n) }
