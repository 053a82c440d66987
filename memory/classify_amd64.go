package memory

// classifyBlocks classifies the bytes of text, whole blocks of 64 (its
// length is a multiple of 64), into bitmaps, bit i%64 of word i/64 for
// byte i: in w, the ASCII bytes words are made of (letters, digits, '_');
// in h, hyphens; in m, the bytes with the high bit set (parts of runes).
// On amd64 it is SSE2 assembly, sixteen bytes an instruction (SSE2 is in
// every amd64 processor).
func classifyBlocks(text []byte, m, w, h []uint64) {
	n := len(text) / 64
	if n == 0 {
		return
	}
	_, _, _ = m[n-1], w[n-1], h[n-1]
	classifySSE2(&text[0], n, &m[0], &w[0], &h[0])
}

// classifySSE2 is classifyBlocks on n blocks at p.
//
//go:noescape
func classifySSE2(p *byte, n int, m, w, h *uint64)
