package memory

import (
	"sync/atomic"

	"github.com/taskctl/taskctl/internal/pages"
)

// wordTable caches the analysis of every word the analysers of one Refresh
// met. They share it, so that a word is analysed about once however many
// workers meet it, and they read it without a lock. It is a fixed array of
// slots (open addressing, linear probing), sized for the job when it is
// made; once it holds as many words as it was made for, a word it does not
// hold is analysed each time it is met, with the same result.
//
// A slot is a key, the word's hashWord, and a value, the word's analysis,
// stored after the key: a reader that finds the key with a zero value
// analyses the word itself. A lookup touches one slot of 16 bytes (a
// table of the words themselves took a second cache miss to compare
// them). The key is the 64-bit hash alone: two distinct words of a build
// share one with a chance of about n²/2⁶⁵ for n distinct words (3 in 10⁸
// for a million), and the hash's seed, drawn for each process, keeps a file
// from being crafted to collide, which would otherwise put its words in
// one run of slots that every new word walks.
//
// A value holds:
//
//	bits  0–31: the whole form's term ID + 1 (0: none)
//	bits 32–60: the parts: 0 for none, one part's ID + 1, or (bit 61
//	            set) the offset in parts of their count and their IDs
//	bit  62:    the word introduces a name (isDefiner)
//	bit  63:    set in every value, so that none is 0
type wordTable struct {
	slots []wordSlot
	mask  uint64
	room  atomic.Int64 // words the table may still take

	parts []uint32 // part lists of words of several parts
	used  atomic.Int64
}

type wordSlot struct {
	key, val atomic.Uint64
}

// maxWordLen bounds the words the analyser analyses: longer ones give no
// terms (see identifier).
const maxWordLen = 4 * maxTermLen

const (
	wordReady   = 1 << 63
	wordDefiner = 1 << 62
	wordMany    = 1 << 61
	wordIDMax   = 1<<29 - 1 // bits 32–60 of a value
)

// newWordTable returns a table for analysing about bytes bytes of text: a
// slot for 96 bytes, a power of two from 1024 to 4M (64 MB), of which up
// to 5/8 may fill. Code has about one distinct word in 200 bytes.
func newWordTable(bytes int64) *wordTable {
	t := makeWordTable(bytes)
	for _, m := range t.mapping(1) {
		m()
	}
	return t
}

// makeWordTable is newWordTable but for mapping the table's memory.
func makeWordTable(bytes int64) *wordTable {
	n := 1024
	for int64(n) < bytes/96 && n < 1<<22 {
		n *= 2
	}
	t := &wordTable{slots: make([]wordSlot, n), mask: uint64(n - 1), parts: make([]uint32, 2*n)}
	t.room.Store(int64(n) * 5 / 8)
	return t
}

// mapping returns the work of mapping the slots (read before written:
// see pages.Populate) in k parts that may be done in parallel.
func (t *wordTable) mapping(k int) []func() {
	ms := make([]func(), k)
	for i := range k {
		part := t.slots[len(t.slots)*i/k : len(t.slots)*(i+1)/k]
		ms[i] = func() { pages.Populate(part) }
	}
	return ms
}

// find returns the value of the word with key h, or 0 and the slot where
// it would go (-1 when the table is full).
func (t *wordTable) find(h uint64) (int, uint64) {
	for i := h & t.mask; ; i = (i + 1) & t.mask {
		s := &t.slots[i]
		switch s.key.Load() {
		case h:
			if v := s.val.Load(); v != 0 {
				return -1, v
			}
			return -1, 0 // another analyser is writing it
		case 0:
			if t.room.Load() <= 0 {
				return -1, 0
			}
			return int(i), 0
		}
	}
}

// decode returns the analysis a value holds; parts is valid until the
// next decode into one.
func (t *wordTable) decode(v uint64, one *[1]uint32) (whole int32, definer bool, parts []uint32) {
	whole = int32(uint32(v)) - 1
	definer = v&wordDefiner != 0
	switch p := uint32(v>>32) & wordIDMax; {
	case v&wordMany != 0:
		n := t.parts[p]
		return whole, definer, t.parts[p+1 : p+1+n]
	case p != 0:
		one[0] = p - 1
		return whole, definer, one[:]
	}
	return whole, definer, nil
}

// insert adds the analysis of the word with key h, starting at slot i,
// where find found no such word. Another analyser may have taken the slot
// meanwhile, for this word or another: it then goes on probing.
func (t *wordTable) insert(i int, h uint64, whole int32, definer bool, parts []uint32) {
	v := uint64(wordReady) | uint64(uint32(whole+1))
	if definer {
		v |= wordDefiner
	}
	for _, id := range parts {
		if id >= wordIDMax {
			return // not that many terms: kept out of the table
		}
	}
	switch len(parts) {
	case 0:
	case 1:
		v |= uint64(parts[0]+1) << 32
	default:
		n := int64(len(parts) + 1)
		end := t.used.Add(n)
		if end > int64(len(t.parts)) {
			return
		}
		off := end - n
		t.parts[off] = uint32(len(parts))
		copy(t.parts[off+1:end], parts)
		v |= wordMany | uint64(off)<<32
	}
	if t.room.Add(-1) < 0 {
		return
	}
	for j := uint64(i); ; j = (j + 1) & t.mask {
		s := &t.slots[j]
		if s.key.CompareAndSwap(0, h) {
			s.val.Store(v)
			return
		}
		if s.key.Load() == h {
			return // another analyser put it
		}
	}
}
