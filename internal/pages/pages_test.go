//go:build linux

package pages

import (
	"runtime"
	"syscall"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"
)

// freshWords maps n fresh words that no one has touched: the Go heap may
// hand out pages it already mapped.
func freshWords(t *testing.T, n int) []uint64 {
	b, err := syscall.Mmap(-1, 0, n*8, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Munmap(b) })
	return unsafe.Slice((*uint64)(unsafe.Pointer(unsafe.SliceData(b))), n)
}

// readThenWrite reads and then writes a word of every page of s, as a
// hash table's first lookups and inserts do, and returns the page faults
// this thread took.
func readThenWrite(t *testing.T, s []uint64) int64 {
	var before, after unix.Rusage
	if err := unix.Getrusage(unix.RUSAGE_THREAD, &before); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < len(s); i += pageSize / 8 {
		if s[i] == 0 {
			s[i] = uint64(i) + 1
		}
	}
	if err := unix.Getrusage(unix.RUSAGE_THREAD, &after); err != nil {
		t.Fatal(err)
	}
	return after.Minflt - before.Minflt
}

func TestPopulate(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	const words = 4 << 20 / 8 // 1024 pages
	pages := int64(words * 8 / pageSize)

	plain := readThenWrite(t, freshWords(t, words))
	if plain < pages {
		t.Fatalf("reading then writing %d fresh pages took %d faults: the test measures nothing", pages, plain)
	}

	// Populate maps the pages of an unaligned slice, and keeps what it
	// holds
	s := freshWords(t, words)
	s[1000] = 7
	if !Populate(s[1:]) {
		t.Fatal("Populate did not map the pages (MADV_POPULATE_WRITE needs Linux 5.14)")
	}
	if s[1000] != 7 {
		t.Fatalf("Populate changed the slice: %d", s[1000])
	}
	got := readThenWrite(t, s)
	t.Logf("faults reading then writing %d pages: %d, %d after Populate", pages, plain, got)
	if got > pages/16 {
		t.Errorf("after Populate, reading then writing %d pages took %d faults (%d without)", pages, got, plain)
	}
	if Populate(s[:100]) {
		t.Error("Populate made a system call for less than a page")
	}
}
