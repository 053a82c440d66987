//go:build !linux

package pages

// Populate does nothing: the zero page's second fault was measured on
// Linux only.
func Populate[T any](s []T) bool { return false }
