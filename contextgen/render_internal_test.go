package contextgen

import (
	"bytes"
	"testing"
)

// TestXMLCleanEveryByte checks the word-at-a-time tests against their
// definition for every byte value at every position of an ASCII block, a
// block that is not all ASCII, a word and the tail, next to bytes that are
// fine and bytes that are not.
func TestXMLCleanEveryByte(t *testing.T) {
	bad := func(c byte) bool { return c < 0x20 && c != '\t' && c != '\n' && c != '\r' || c == 0xEF }
	for _, fill := range []byte{'a', '\t', '\n', '\r', ' ', 0x1F, 0x7F, 0xEE, 0xF0, 0x80, 0xFF} {
		for _, other := range []byte{fill, 'z', 0xC3} {
			for c := range 256 {
				for pos := range 43 {
					b := bytes.Repeat([]byte{fill}, 43)
					b[(pos+17)%43] = other
					b[pos] = byte(c)
					want := !bad(byte(c)) && !bad(fill) && !bad(other)
					got, ascii := xmlClean(string(b))
					if got != want {
						t.Fatalf("xmlClean(%q) = %v, want %v", b, got, want)
					}
					// ascii: a prefix of ASCII bytes, at most 31 short of
					// the first other byte
					first := bytes.IndexFunc(b, func(r rune) bool { return r >= 0x80 })
					if first < 0 {
						first = len(b)
					}
					if got && (ascii > first || ascii < first-31 || ascii < 0) {
						t.Fatalf("xmlClean(%q) = %v, %d; first non-ASCII byte at %d", b, got, ascii, first)
					}
				}
			}
		}
	}
}
