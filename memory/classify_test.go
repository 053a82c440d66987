package memory

import (
	"math/rand"
	"testing"
)

// TestClassifyBlocks checks classifyBlocks (assembly where there is one)
// against classifyBlocksGo, and both against the definition byte by byte,
// on blocks of random bytes of every value and of the bytes around each
// class's bounds.
func TestClassifyBlocks(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	edges := []byte("@AZ[`az{/09:_-^.,\x00\x7f\x80\xad\xdf\xe1\xff")
	for n := range 300 {
		text := make([]byte, 64*(n%9))
		for i := range text {
			if n%2 == 0 {
				text[i] = byte(rng.Intn(256))
			} else {
				text[i] = edges[rng.Intn(len(edges))]
			}
		}
		k := len(text) / 64
		m, w, h := make([]uint64, k), make([]uint64, k), make([]uint64, k)
		gm, gw, gh := make([]uint64, k), make([]uint64, k), make([]uint64, k)
		classifyBlocks(text, m, w, h)
		classifyBlocksGo(text, gm, gw, gh)
		for i, c := range text {
			bit := uint64(1) << (i % 64)
			word := 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_'
			for _, got := range []struct {
				name    string
				m, w, h []uint64
			}{{"classifyBlocks", m, w, h}, {"classifyBlocksGo", gm, gw, gh}} {
				if got.w[i/64]&bit != 0 != word || got.h[i/64]&bit != 0 != (c == '-') || got.m[i/64]&bit != 0 != (c >= 0x80) {
					t.Fatalf("%s: byte %d (%#x) of %d: word %v, hyphen %v, high %v", got.name, i, c, len(text),
						got.w[i/64]&bit != 0, got.h[i/64]&bit != 0, got.m[i/64]&bit != 0)
				}
			}
		}
	}
}
