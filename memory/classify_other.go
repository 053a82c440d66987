//go:build !amd64

package memory

// classifyBlocks classifies the bytes of text, whole blocks of 64 (its
// length is a multiple of 64), into bitmaps, bit i%64 of word i/64 for
// byte i: in w, the ASCII bytes words are made of (letters, digits, '_');
// in h, hyphens; in m, the bytes with the high bit set (parts of runes).
func classifyBlocks(text []byte, m, w, h []uint64) { classifyBlocksGo(text, m, w, h) }
