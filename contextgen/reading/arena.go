package reading

import (
	"unsafe"

	"github.com/taskctl/taskctl/internal/pages"
)

// An arena hands one read worker the buffers it reads files into: pieces
// of a larger block, one file after the other. The contents of a packed
// tree live until the document is rendered; read each into memory of its
// own, every page of them would fault as the kernel copies the file in,
// and the passes that follow (decoding, the secret scan, hashing,
// rendering) would miss the TLB on every page. A block is fresh memory
// that asks for huge pages (pages.Bytes), and the next arenaAhead bytes of
// it are mapped in one call before a file is read into them
// (pages.Populate). An arena is not safe for concurrent use: each worker
// has one.
//
// Blocks double from arenaFirst up to arenaMax, so that a task of a few
// files does not take megabytes, and a block is replaced once less than
// an eighth of it is left (4 MiB of the largest). A file larger than what
// is left is read into memory of its own (root.Root.ReadInto allocates it),
// and the files after it go on filling the block. Memory of its own is
// what the collector-less heap gives: fresh small pages, each faulted in
// as the read fills it, which costs far more on a virtual machine than a
// huge page or Populate's one call; hence blocks large enough that a file
// of a few megabytes still fits. What is left of a block and never
// touched costs address space, not memory. What the last block has mapped
// and not used is lost: at most arenaAhead, or a huge page.
type arena struct {
	free   []byte // what is left of the current block
	mapped int    // how much of free is mapped
	size   int    // the current block's size
}

const (
	arenaFirst = 32 << 10
	arenaMax   = 32 << 20
	arenaAhead = 256 << 10
)

// buffer returns the buffer to read the next file into: empty, with the
// rest of the block as its capacity.
func (a *arena) buffer() []byte {
	if cap(a.free) < a.size/8 || a.size == 0 {
		a.size = min(max(2*a.size, arenaFirst), arenaMax)
		a.free, a.mapped = pages.Bytes(a.size), 0
	}
	if a.mapped < arenaAhead/2 && a.mapped < len(a.free) {
		end := min(a.mapped+arenaAhead, len(a.free))
		pages.Populate(a.free[a.mapped:end])
		a.mapped = end
	}
	return a.free[:0]
}

// keep takes content, read into the last buffer or into memory of its
// own, out of the block, and returns it with its capacity cut to its
// length, so that appending to it can never write over the next file's.
func (a *arena) keep(content []byte) []byte {
	if n := len(content); n > 0 && cap(a.free) > 0 && unsafe.SliceData(content) == unsafe.SliceData(a.free) {
		a.free = a.free[n:]
		a.mapped = max(a.mapped-n, 0)
	}
	return content[:len(content):len(content)]
}
