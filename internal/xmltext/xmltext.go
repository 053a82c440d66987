package xmltext

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"unicode/utf16"
	"unicode/utf8"
)

// Error is a document Decode cannot read, at a 1-based line and a column
// in code points.
type Error struct {
	Line, Col int
	Msg       string
}

func (e *Error) Error() string { return fmt.Sprintf("%d:%d: %s", e.Line, e.Col, e.Msg) }

var (
	bomUTF8    = []byte{0xef, 0xbb, 0xbf}
	bomUTF16LE = []byte{0xff, 0xfe}
	bomUTF16BE = []byte{0xfe, 0xff}
	bomUTF32LE = []byte{0xff, 0xfe, 0, 0}
	bomUTF32BE = []byte{0, 0, 0xfe, 0xff}
	ebcdicXML  = []byte{0x4c, 0x6f, 0xa7, 0x94} // "<?xm"
)

// saveAs is the advice every refusal ends with.
const saveAs = "save it as UTF-8, or as UTF-16 with a byte-order mark"

// Decode returns data as UTF-8 text without a byte-order mark, or an
// *Error saying why it cannot.
func Decode(data []byte) ([]byte, error) {
	var text []byte
	switch {
	case bytes.HasPrefix(data, bomUTF32LE), bytes.HasPrefix(data, bomUTF32BE):
		return nil, &Error{Line: 1, Col: 1, Msg: "the document is UTF-32 encoded; " + saveAs}
	case bytes.HasPrefix(data, bomUTF8):
		text = data[len(bomUTF8):]
	case bytes.HasPrefix(data, bomUTF16LE):
		t, err := decodeUTF16(data[len(bomUTF16LE):], binary.LittleEndian, "UTF-16LE")
		if err != nil {
			return nil, err
		}
		text = t
	case bytes.HasPrefix(data, bomUTF16BE):
		t, err := decodeUTF16(data[len(bomUTF16BE):], binary.BigEndian, "UTF-16BE")
		if err != nil {
			return nil, err
		}
		text = t
	case len(data) >= 2 && (data[0] == '<' && data[1] == 0 || data[0] == 0 && data[1] == '<'):
		return nil, &Error{Line: 1, Col: 1, Msg: "the document looks UTF-16 or UTF-32 encoded without a byte-order mark; " + saveAs}
	case bytes.HasPrefix(data, ebcdicXML):
		return nil, &Error{Line: 1, Col: 1, Msg: "the document looks EBCDIC encoded; " + saveAs}
	default:
		return data, nil
	}
	if bytes.HasPrefix(text, bomUTF8) {
		return nil, &Error{Line: 1, Col: 1, Msg: "the document starts with two byte-order marks"}
	}
	return text, nil
}

// decodeUTF16 converts b, UTF-16 in the given byte order after its mark,
// to UTF-8. name is the encoding's name for messages.
func decodeUTF16(b []byte, order binary.ByteOrder, name string) ([]byte, error) {
	out := make([]byte, 0, len(b)/2+len(b)/4) // ASCII takes half, and CJK three quarters more
	line, col := 1, 1
	for i := 0; i+1 < len(b); i += 2 {
		r := rune(order.Uint16(b[i:]))
		if utf16.IsSurrogate(r) {
			var low rune = -1
			if i+3 < len(b) {
				low = rune(order.Uint16(b[i+2:]))
			}
			pair := utf16.DecodeRune(r, low)
			if pair == utf8.RuneError {
				return nil, &Error{Line: line, Col: col,
					Msg: fmt.Sprintf("invalid %s: unpaired surrogate U+%04X; %s", name, r, saveAs)}
			}
			r = pair
			i += 2
		}
		out = utf8.AppendRune(out, r)
		if r == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	if len(b)%2 != 0 {
		return nil, &Error{Line: line, Col: col,
			Msg: fmt.Sprintf("invalid %s: the document has an odd number of bytes, so its last character is cut short; %s", name, saveAs)}
	}
	return out, nil
}
