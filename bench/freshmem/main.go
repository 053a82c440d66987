//go:build linux

// Command freshmem measures what memory costs a process the first time it
// touches it, the way taskctl's read arenas take it (contextgen/arena.go:
// an anonymous mapping that asks for huge pages, populated by one
// madvise(MADV_POPULATE_WRITE)), and the same again right after unmapping
// it.
//
//	go run ./bench/freshmem [-mib 128] [-rounds 4]
//
// On a machine whose memory is that of the CPU, both cost what zeroing
// costs. On a virtual machine whose balloon driver reports free memory to
// the host (free page reporting, /sys/module/page_reporting), memory that
// has been free a while is no longer backed, and the first touch of each
// page waits for the host to back it again; a mapping made right after
// another was unmapped gets pages the host still backs. bench/readall, the
// floor, reuses one buffer and pays neither; a pack keeps every file it
// reads until the document is written, in memory it touches for the first
// time (docs/benchmarks.md).
package main

import (
	"flag"
	"fmt"
	"os"
	"time"

	"golang.org/x/sys/unix"
)

func main() {
	mib := flag.Int("mib", 128, "size of each mapping in MiB")
	rounds := flag.Int("rounds", 4, "mappings to make, one after the other")
	flag.Parse()
	for i := range *rounds {
		d, err := populate(*mib << 20)
		if err != nil {
			fmt.Fprintln(os.Stderr, "freshmem:", err)
			os.Exit(1)
		}
		fmt.Printf("round %d: %d MiB populated in %7.1f ms (%6.0f MiB/s)\n",
			i+1, *mib, float64(d.Microseconds())/1000, float64(*mib)/d.Seconds())
	}
}

// populate maps n bytes, populates them and unmaps them, and returns how
// long populating took.
func populate(n int) (time.Duration, error) {
	b, err := unix.Mmap(-1, 0, n, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANON)
	if err != nil {
		return 0, fmt.Errorf("mmap: %w", err)
	}
	defer unix.Munmap(b)
	if err := unix.Madvise(b, unix.MADV_HUGEPAGE); err != nil {
		return 0, fmt.Errorf("madvise(MADV_HUGEPAGE): %w", err)
	}
	start := time.Now()
	if err := unix.Madvise(b, unix.MADV_POPULATE_WRITE); err != nil {
		return 0, fmt.Errorf("madvise(MADV_POPULATE_WRITE): %w", err)
	}
	return time.Since(start), nil
}
