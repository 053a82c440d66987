package tokens

import (
	_ "embed"
	"fmt"
)

//go:generate go run gen_vocab.go
//go:generate go test -run TestRankTableFiles -update

// The vocabularies, derived from github.com/tiktoken-go/tokenizer by
// gen_vocab.go: every ordinary token in rank order, each as one length byte
// followed by its bytes; a zero length byte is a rank without a token.
var (
	//go:embed o200k_base.tokens
	o200kBaseTokens string
	//go:embed cl100k_base.tokens
	cl100kBaseTokens string
)

// buildRanks builds the rank table of a vocabulary in the format above. The
// table's bytes are the vocabulary's own: nothing is copied. It makes the
// tables the binary embeds (ranktable.go; TestRankTableFiles writes them),
// and is the first count's wait on a machine that cannot read those in
// place.
//
// Inserting the tokens one by one, each at a random place in a 4 MB table,
// costs a cache miss each (some 20 ms for o200k_base). So the tokens are
// first sorted by home slot (a radix sort, in two passes of sequential
// reads and writes) and then laid down in that order: a token goes to its
// home slot or, if that is taken, to the slot after the last one filled,
// which is where linear probing would have put it. Tokens pushed past the end of the table are then inserted
// by probing from the start.
func buildRanks(vocab string) *rankTable {
	t := newRankTable(vocab)
	ents := t.homes(vocab)
	ents = sortByHome(ents, uint(64-t.shift))
	t.layDown(vocab, ents)
	return t
}

// newRankTable makes the empty table of vocab: its slots (a quarter more
// than tokens, a power of two), its filter and its table of pairs.
func newRankTable(vocab string) *rankTable {
	if len(vocab) >= 1<<24 {
		panic("tokens: vocabulary does not fit the rank table")
	}
	n := 0
	for i := 0; i < len(vocab); i += 1 + int(vocab[i]) {
		if vocab[i] != 0 {
			n++
		}
	}
	t := &rankTable{buf: vocab, n: n}
	bits := uint(10)
	for 1<<bits < n*5/4 {
		bits++
	}
	t.slots = make([]rankSlot, 1<<bits)
	t.shift = 64 - bits
	t.filter = make([]uint64, 1<<(filterBits-6))
	t.pairs = make([]uint32, 1<<16)
	for i := range t.pairs {
		t.pairs[i] = noRank
	}
	return t
}

// homes returns every token's home slot, rank and offset in vocab, as one
// number (home<<42 | rank<<24 | offset), in rank order: 8 bytes a token,
// so that little memory is touched for the first time. It fills the
// filter and the table of pairs on the way.
func (t *rankTable) homes(vocab string) []uint64 {
	ents := make([]uint64, 0, t.n)
	rank := uint64(0)
	for i := 0; i < len(vocab); i, rank = i+1+int(vocab[i]), rank+1 {
		l := int(vocab[i])
		if l == 0 {
			continue
		}
		if i+1+l > len(vocab) {
			panic(fmt.Sprintf("tokens: vocabulary cut short at rank %d", rank))
		}
		if rank >= 1<<18 {
			panic("tokens: vocabulary has more ranks than the rank table can hold")
		}
		s := vocab[i+1 : i+1+l]
		h := t.hash(key8(s), s)
		w, m := filterWord(h)
		t.filter[w] |= m
		if l == 2 {
			t.pairs[uint16(s[0])<<8|uint16(s[1])] = uint32(rank)
		}
		ents = append(ents, h>>t.shift<<42|rank<<24|uint64(i+1))
	}
	return ents
}

// sortByHome sorts the entries by home slot (bits wide): least
// significant half of its bits first, then the rest (each pass stable).
func sortByHome(ents []uint64, bits uint) []uint64 {
	lo := bits / 2
	sorted := make([]uint64, len(ents))
	for _, pass := range [2]struct{ shift, bits uint }{{42, lo}, {42 + lo, bits - lo}} {
		count := make([]int, 1<<pass.bits+1)
		for _, e := range ents {
			count[e>>pass.shift&(1<<pass.bits-1)+1]++
		}
		for d := 1; d < len(count); d++ {
			count[d] += count[d-1]
		}
		for _, e := range ents {
			d := e >> pass.shift & (1<<pass.bits - 1)
			sorted[count[d]] = e
			count[d]++
		}
		ents, sorted = sorted, ents
	}
	return ents
}

// layDown lays the tokens down in order of home slot: each at its home or
// the first free slot after the last one filled; those pushed past the
// end wrap around to the first free slot from their home.
func (t *rankTable) layDown(vocab string, ents []uint64) {
	slot := func(e uint64) rankSlot {
		off := uint32(e & (1<<24 - 1))
		l := uint32(vocab[off-1])
		return rankSlot{key: key8(vocab[off : off+l]), meta: l<<24 | off, rank: uint32(e >> 24 & (1<<18 - 1))}
	}
	next := 0 // the slot after the last one filled
	var wrapped []uint64
	for _, e := range ents {
		p := max(int(e>>42), next)
		if p >= len(t.slots) {
			wrapped = append(wrapped, e)
			continue
		}
		t.slots[p] = slot(e)
		next = p + 1
	}
	mask := len(t.slots) - 1
	for _, e := range wrapped {
		p := int(e >> 42)
		for t.slots[p].meta != 0 {
			p = (p + 1) & mask
		}
		t.slots[p] = slot(e)
	}
}
