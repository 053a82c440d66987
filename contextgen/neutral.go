package contextgen

import (
	"fmt"
	"unicode/utf8"
)

// Characters that change how a terminal or an editor shows text, rather
// than being shown: a file's content could use them to hide a line from
// the person who reads the document in a terminal (ESC [8m conceals what
// follows, a lone carriage return or backspaces write over it, an 8-bit
// CSI starts an escape sequence) or to make it read otherwise than it is
// (the bidirectional controls of "Trojan Source"). They are replaced by
// visible escapes when a file is read: \xHH for a C0 control or DEL,
// \uHHHH for a C1 control or a bidirectional control.

// displayControl reports whether r, at the start of s (size bytes), is
// such a character. all says whether C0 controls count (the markdown and
// plain styles); the XML style shows those it cannot carry as U+FFFD
// (xmlSafe) and keeps tab, newline and carriage return, of which a lone
// carriage return counts here in every style.
func displayControl(r rune, s []byte, all bool) bool {
	switch {
	case r == '\t' || r == '\n':
		return false
	case r == '\r':
		return len(s) < 2 || s[1] != '\n' // (a CRLF line end is a line end)
	case r < 0x20 || r == 0x7f:
		return all
	case r >= 0x80 && r < 0xa0:
		return true
	}
	return bidiControl(r)
}

// bidiControl reports whether r is a bidirectional control: the marks
// (U+061C, U+200E, U+200F), the embeddings and overrides (U+202A to
// U+202E) and the isolates (U+2066 to U+2069).
func bidiControl(r rune) bool {
	return r == 0x061c || r == 0x200e || r == 0x200f || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069
}

// mayHoldDisplayControl reports whether text may hold a display control:
// a byte below 0x20 other than tab and newline, DEL, or the first byte of
// a C1 control (0xC2) or of a bidirectional control (0xD8, 0xE2). It is
// the fast test most files pass.
func mayHoldDisplayControl(text []byte, all bool) bool {
	for _, c := range text {
		switch {
		case c == '\r' || c == 0xc2 || c == 0xd8 || c == 0xe2:
			return true
		case all && (c < 0x20 && c != '\t' && c != '\n' || c == 0x7f):
			return true
		}
	}
	return false
}

// neutralise returns text with each display control replaced by its
// visible escape, and how many were; text itself when it holds none.
func neutralise(text []byte, all bool) ([]byte, int) {
	if !mayHoldDisplayControl(text, all) {
		return text, 0
	}
	var out []byte
	n, done := 0, 0
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRune(text[i:])
		if size == 1 && r == utf8.RuneError {
			i++ // (invalid UTF-8 is xmlSafe's and the decoder's business)
			continue
		}
		if displayControl(r, text[i:], all) {
			if out == nil {
				out = make([]byte, 0, len(text)+16)
			}
			out = append(out, text[done:i]...)
			if r < 0x80 {
				out = fmt.Appendf(out, `\x%02x`, r)
			} else {
				out = fmt.Appendf(out, `\u%04x`, r)
			}
			n++
			done = i + size
		}
		i += size
	}
	if n == 0 {
		return text, 0
	}
	return append(out, text[done:]...), n
}
