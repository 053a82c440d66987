//go:build linux

package pages

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

var pageSize = unix.Getpagesize()

// Populate maps the whole pages of s, fresh memory about to be read before
// it is written, as writable pages of their own, and reports whether it
// did: it does not for less than two whole pages (a fault each costs less
// than the system call) nor on kernels before 5.14, which lack
// MADV_POPULATE_WRITE. What s holds is unchanged.
func Populate[T any](s []T) bool {
	var t T
	n := uintptr(len(s)) * unsafe.Sizeof(t)
	page := uintptr(pageSize)
	p := unsafe.Pointer(unsafe.SliceData(s))
	start := (page - uintptr(p)%page) % page // offsets in s of its first whole page
	end := (uintptr(p) + n) &^ (page - 1)    // and of the end of its last
	if end < uintptr(p)+start+2*page {
		return false
	}
	end -= uintptr(p)
	b := unsafe.Slice((*byte)(unsafe.Add(p, start)), end-start)
	return unix.Madvise(b, unix.MADV_POPULATE_WRITE) == nil
}
