//go:build linux

package pages

import (
	"os"
	"strconv"
	"strings"
	"sync"
	"unsafe"

	"golang.org/x/sys/unix"
)

var pageSize = unix.Getpagesize()

// hugePageSize is the size of a transparent huge page, or 0 when the kernel
// has none to give (THP off, or not built in).
var hugePageSize = sync.OnceValue(func() uintptr {
	const thp = "/sys/kernel/mm/transparent_hugepage/"
	mode, err := os.ReadFile(thp + "enabled")
	if err != nil || strings.Contains(string(mode), "[never]") {
		return 0
	}
	size, err := os.ReadFile(thp + "hpage_pmd_size")
	if err != nil {
		return 0
	}
	n, err := strconv.ParseUint(strings.TrimSpace(string(size)), 10, 64)
	if err != nil || n == 0 || n&(n-1) != 0 {
		return 0
	}
	return uintptr(n)
})

// Bytes returns n zero bytes of fresh memory for a large buffer that will
// be filled and read back: the whole huge pages that fit in it are advised
// MADV_HUGEPAGE, so that filling them takes one fault per huge page, not
// one per page, and reading them back fewer TLB misses (which on a virtual
// machine cost twice). The kernel may decline the hint, and n is not
// rounded up, so a buffer smaller than two huge pages may hold none. No
// page is mapped until it is written or passed to Populate, so a caller
// that fills the buffer bit by bit maps only what it uses.
func Bytes(n int) []byte {
	b := make([]byte, n)
	if lo, hi := hugeRange(b); hi > lo {
		unix.Madvise(b[lo:hi], unix.MADV_HUGEPAGE)
	}
	return b
}

// hugeRange returns the offsets in b of the first and the end of the last
// whole huge page it holds (lo == hi: none).
func hugeRange(b []byte) (lo, hi int) {
	huge := hugePageSize()
	if huge == 0 || len(b) == 0 {
		return 0, 0
	}
	p := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	start := (p + huge - 1) &^ (huge - 1)
	end := (p + uintptr(len(b))) &^ (huge - 1)
	if end <= start {
		return 0, 0
	}
	return int(start - p), int(end - p)
}

// Populate maps the whole pages of s, fresh memory about to be read before
// it is written or to be filled (read(2) into it), as writable pages of
// their own, and reports whether it did: it does not for less than two whole pages (a fault each costs less
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
