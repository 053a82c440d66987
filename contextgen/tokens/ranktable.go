package tokens

import (
	_ "embed"
	"encoding/binary"
	"hash/crc32"
	"unsafe"
)

// The rank tables of the vocabularies, as buildRanks makes them, laid out
// in the files below so that a process uses them where the binary holds
// them: building o200k_base's table cost some 15 ms of CPU and 12 MB of
// fresh memory (3,000 page faults) in every process that counts, and a
// table that is part of the binary is only read, a page at a time, as it
// is used. TestRankTableFiles checks that the files are what buildRanks
// makes of the vocabularies, and writes them with -update.
var (
	//go:embed o200k_base.ranks
	o200kBaseRanks string
	//go:embed cl100k_base.ranks
	cl100kBaseRanks string
)

// rankFileMagic starts a rank table file; then come the number of bits of
// the table's size, the number of tokens, and the length and CRC-32C of
// the vocabulary the table's slots point into (each four bytes,
// little-endian), the slots (16 bytes each: key, meta and rank, all
// little-endian), the filter's words and the rank of every pair. A table
// is used only with the vocabulary it was built from: one left behind when
// the vocabulary was generated again is refused (and the test fails).
const rankFileMagic = "taskctl ranks 1\x00\x00\x00\x00\x00\x00\x00\x00\x00"

const rankFileHeader = len(rankFileMagic) + 16

// encodeRanks is the file of table t.
func encodeRanks(t *rankTable) []byte {
	bits := 64 - t.shift
	b := make([]byte, 0, rankFileHeader+len(t.slots)*16+len(t.filter)*8+len(t.pairs)*4)
	b = append(b, rankFileMagic...)
	b = binary.LittleEndian.AppendUint32(b, uint32(bits))
	b = binary.LittleEndian.AppendUint32(b, uint32(t.n))
	b = binary.LittleEndian.AppendUint32(b, uint32(len(t.buf)))
	b = binary.LittleEndian.AppendUint32(b, crc32.Checksum([]byte(t.buf), crc32.MakeTable(crc32.Castagnoli)))
	for _, sl := range t.slots {
		b = binary.LittleEndian.AppendUint64(b, sl.key)
		b = binary.LittleEndian.AppendUint32(b, sl.meta)
		b = binary.LittleEndian.AppendUint32(b, sl.rank)
	}
	for _, w := range t.filter {
		b = binary.LittleEndian.AppendUint64(b, w)
	}
	for _, r := range t.pairs {
		b = binary.LittleEndian.AppendUint32(b, r)
	}
	return b
}

// loadRanks returns the table in file data, over vocabulary vocab, without
// copying it; ok is false if data is not such a file or this machine
// cannot read it in place (it is not little-endian, or the bytes are not
// aligned for the slots' numbers).
func loadRanks(data, vocab string) (t *rankTable, ok bool) {
	if len(data) < rankFileHeader || data[:len(rankFileMagic)] != rankFileMagic || !littleEndian() {
		return nil, false
	}
	p := unsafe.StringData(data)
	if uintptr(unsafe.Pointer(p))%8 != 0 {
		return nil, false
	}
	h := data[len(rankFileMagic):]
	bits, n := uint(le32(h)), int(le32(h[4:]))
	slots, words := 1<<bits, 1<<(filterBits-6)
	if bits < 10 || bits > 24 || len(data) != rankFileHeader+slots*16+words*8+(1<<16)*4 ||
		int(le32(h[8:])) != len(vocab) ||
		le32(h[12:]) != crc32.Checksum(unsafe.Slice(unsafe.StringData(vocab), len(vocab)), crc32.MakeTable(crc32.Castagnoli)) {
		return nil, false
	}
	at := func(off int) unsafe.Pointer { return unsafe.Add(unsafe.Pointer(p), off) }
	off := rankFileHeader
	t = &rankTable{buf: vocab, n: n, shift: 64 - bits}
	t.slots = unsafe.Slice((*rankSlot)(at(off)), slots)
	off += slots * 16
	t.filter = unsafe.Slice((*uint64)(at(off)), words)
	off += words * 8
	t.pairs = unsafe.Slice((*uint32)(at(off)), 1<<16)
	return t, true
}

func littleEndian() bool {
	x := uint16(1)
	return *(*byte)(unsafe.Pointer(&x)) == 1
}
