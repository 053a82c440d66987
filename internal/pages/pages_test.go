//go:build linux

package pages

import (
	"runtime"
	"slices"
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

// writeEveryPage writes a byte of every page of b, as a read(2) into it
// does, and returns the page faults this thread took.
func writeEveryPage(t *testing.T, b []byte) int64 {
	var before, after unix.Rusage
	if err := unix.Getrusage(unix.RUSAGE_THREAD, &before); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < len(b); i += pageSize {
		b[i] = 1
	}
	if err := unix.Getrusage(unix.RUSAGE_THREAD, &after); err != nil {
		t.Fatal(err)
	}
	return after.Minflt - before.Minflt
}

// TestBytes: Bytes gives n zero bytes, its length and capacity.
func TestBytes(t *testing.T) {
	for _, n := range []int{0, 1, 100, 5 << 20} {
		b := Bytes(n)
		if len(b) != n || cap(b) != n {
			t.Fatalf("Bytes(%d): len %d, cap %d", n, len(b), cap(b))
		}
		if i := slices.IndexFunc(b, func(c byte) bool { return c != 0 }); i >= 0 {
			t.Fatalf("Bytes(%d)[%d] = %d, want 0", n, i, b[i])
		}
	}
}

// TestBytesHugePages: writing a buffer of Bytes takes a fault per huge
// page in it, and one per page around them.
func TestBytesHugePages(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if hugePageSize() == 0 {
		t.Skip("the kernel gives no transparent huge pages")
	}
	if raceEnabled {
		// Every write then also writes the detector's shadow of the
		// page, fresh memory that faults a page at a time.
		t.Skip("the race detector's shadow memory faults on every page written")
	}
	// The buffer is larger than anything the test's heap held before, so
	// its memory is fresh (the Go heap may hand out pages it already
	// mapped, which take no fault either way).
	const large = 48<<20 + 3
	fresh := freshWords(t, large/8)
	if plain := writeEveryPage(t, unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(fresh))), large/8*8)); plain < large/int64(pageSize)/2 {
		t.Fatalf("writing %d fresh pages took %d faults: the test measures nothing", large/pageSize, plain)
	}
	b := Bytes(large)
	lo, hi := hugeRange(b)
	if hi-lo < large/2 {
		t.Fatalf("Bytes(%d) holds %d bytes of whole huge pages", large, hi-lo)
	}
	small := int64((large - (hi - lo)) / pageSize)
	want := small + int64((hi-lo)/int(hugePageSize())) + 16
	if got := writeEveryPage(t, b); got > want {
		t.Errorf("writing the %d pages of Bytes(%d) took %d faults, want at most %d (%d pages outside huge ones)",
			large/pageSize, large, got, want, small)
	}
}
