package tokens

import (
	_ "embed"
	"fmt"
)

//go:generate go run gen_vocab.go

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
// table's bytes are the vocabulary's own: nothing is copied.
func buildRanks(vocab string) *rankTable {
	if len(vocab) >= 1<<24 {
		panic("tokens: vocabulary does not fit the rank table")
	}
	n := 0
	for i := 0; i < len(vocab); i += 1 + int(vocab[i]) {
		if vocab[i] != 0 {
			n++
		}
	}
	t := &rankTable{buf: vocab}
	bits := uint(10)
	for 1<<bits < n*5/2 {
		bits++
	}
	t.slots = make([]rankSlot, 1<<bits)
	t.shift = 64 - bits
	mask := uint64(len(t.slots) - 1)
	t.pairs = make([]uint32, 1<<16)
	for i := range t.pairs {
		t.pairs[i] = noRank
	}
	rank := uint32(0)
insert:
	for i := 0; i < len(vocab); i, rank = i+1+int(vocab[i]), rank+1 {
		l := uint32(vocab[i])
		if l == 0 {
			continue
		}
		off := uint32(i + 1)
		if int(off+l) > len(vocab) {
			panic(fmt.Sprintf("tokens: vocabulary cut short at rank %d", rank))
		}
		s := vocab[off : off+l]
		k := key8(s)
		for j := t.hash(k, s); ; j = (j + 1) & mask {
			sl := &t.slots[j]
			if sl.meta == 0 {
				*sl = rankSlot{key: k, meta: l<<24 | off, rank: rank}
				t.n++
				if l == 2 {
					t.pairs[uint16(s[0])<<8|uint16(s[1])] = rank
				}
				continue insert
			}
			if sl.key == k && sl.meta>>24 == l && t.buf[sl.meta&(1<<24-1):][:l] == s {
				continue insert // the lower rank wins (no duplicates in these encodings)
			}
		}
	}
	return t
}
