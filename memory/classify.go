package memory

import "encoding/binary"

// classifyBlocksGo is classifyBlocks in portable Go, eight bytes at a
// time: the reference the assembly is tested against, and the
// implementation where there is none.
func classifyBlocksGo(text []byte, m, w, h []uint64) {
	for k := range len(text) / 64 {
		block := text[64*k:][:64]
		var wk, hk, hi uint64
		for j := 0; j < 64; j += 8 {
			v := binary.LittleEndian.Uint64(block[j:])
			wk |= highBits(wordBytes(v)) << j
			hy := (v &^ highs) ^ '-'*ones
			hk |= highBits(^(hy+0x7f*ones)&^v) << j
			hi |= highBits(v) << j
		}
		m[k], w[k], h[k] = hi, wk, hk
	}
}
