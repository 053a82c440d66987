package contextgen

import "testing"

// TestXMLCleanEveryByte checks the word-at-a-time test against its
// definition for every byte value at every position of a word and of the
// tail, next to bytes that are fine and bytes that are not.
func TestXMLCleanEveryByte(t *testing.T) {
	bad := func(c byte) bool { return c < 0x20 && c != '\t' && c != '\n' && c != '\r' || c == 0xEF }
	for _, fill := range []byte{'a', '\t', '\n', '\r', ' ', 0x1F, 0xEE, 0xF0, 0x80, 0xFF} {
		for c := range 256 {
			for pos := range 11 {
				b := []byte{fill, fill, fill, fill, fill, fill, fill, fill, fill, fill, fill}
				b[pos] = byte(c)
				if got, want := xmlClean(string(b)), !bad(byte(c)) && !bad(fill); got != want {
					t.Fatalf("xmlClean(%q) = %v, want %v", b, got, want)
				}
			}
		}
	}
}
