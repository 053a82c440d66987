package xmltext_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/taskctl/taskctl/internal/xmltext"
)

func encode16(s string, order binary.AppendByteOrder, bom bool) []byte {
	var b []byte
	if bom {
		b = order.AppendUint16(b, 0xfeff)
	}
	for _, u := range utf16.Encode([]rune(s)) {
		b = order.AppendUint16(b, u)
	}
	return b
}

const sample = "<?xml version=\"1.0\" encoding=\"UTF-16\"?>\r\n<task name=\"a\">\n  <description>naïve 日本 😀</description>\n</task>\n"

func TestDecode(t *testing.T) {
	for _, c := range []struct {
		name string
		in   []byte
		want string
	}{
		{"utf-8", []byte(sample), sample},
		{"utf-8 with a mark", append([]byte("\xef\xbb\xbf"), sample...), sample},
		{"utf-16le with a mark", encode16(sample, binary.LittleEndian, true), sample},
		{"utf-16be with a mark", encode16(sample, binary.BigEndian, true), sample},
		{"empty", nil, ""},
		{"a utf-16 mark alone", []byte{0xff, 0xfe}, ""},
		{"invalid utf-8 is left to the parsers", []byte("<a>\xe9</a>"), "<a>\xe9</a>"},
		{"a NUL later on is left to the parsers", []byte("<a>\x00</a>"), "<a>\x00</a>"},
		{"U+FEFF inside the text", encode16("<a>\ufeff</a>", binary.BigEndian, true), "<a>\ufeff</a>"},
	} {
		got, err := xmltext.Decode(c.in)
		if err != nil || string(got) != c.want {
			t.Errorf("%s: Decode = %q, %v; want %q", c.name, got, err, c.want)
		}
	}
}

func TestDecodeRefuses(t *testing.T) {
	le := encode16("<task>\n  <description>ab</description></task>", binary.LittleEndian, true)
	b := 2 + 2*len([]rune("<task>\n  <description>a")) // the offset of 'b'
	insert := func(at int, x ...byte) []byte {
		return append(append(append([]byte(nil), le[:at]...), x...), le[at:]...)
	}
	for _, c := range []struct {
		name      string
		in        []byte
		line, col int
		msg       string
	}{
		{"odd length", append(bytes.Clone(le), '\n'), 2, 39, "invalid UTF-16LE: the document has an odd number of bytes, so its last character is cut short; save it as UTF-8, or as UTF-16 with a byte-order mark"},
		{"high surrogate, then no low one", insert(b, 0x3d, 0xd8), 2, 17, "invalid UTF-16LE: unpaired surrogate U+D83D; save it as UTF-8, or as UTF-16 with a byte-order mark"},
		{"low surrogate alone", insert(b, 0x00, 0xdc), 2, 17, "invalid UTF-16LE: unpaired surrogate U+DC00; save it as UTF-8, or as UTF-16 with a byte-order mark"},
		{"high surrogate at the end", append(bytes.Clone(le), 0x3d, 0xd8), 2, 39, "invalid UTF-16LE: unpaired surrogate U+D83D; save it as UTF-8, or as UTF-16 with a byte-order mark"},
		{"big-endian", encode16("<a>\n\n\U0001F600", binary.BigEndian, true)[:14], 3, 1, "invalid UTF-16BE: unpaired surrogate U+D83D; save it as UTF-8, or as UTF-16 with a byte-order mark"},
		{"utf-16le without a mark", le[2:], 1, 1, "the document looks UTF-16 or UTF-32 encoded without a byte-order mark; save it as UTF-8, or as UTF-16 with a byte-order mark"},
		{"utf-16be without a mark", encode16("<a/>", binary.BigEndian, false), 1, 1, "the document looks UTF-16 or UTF-32 encoded without a byte-order mark; save it as UTF-8, or as UTF-16 with a byte-order mark"},
		{"utf-32le", []byte{0xff, 0xfe, 0, 0, '<', 0, 0, 0}, 1, 1, "the document is UTF-32 encoded; save it as UTF-8, or as UTF-16 with a byte-order mark"},
		{"utf-32be", []byte{0, 0, 0xfe, 0xff, 0, 0, 0, '<'}, 1, 1, "the document is UTF-32 encoded; save it as UTF-8, or as UTF-16 with a byte-order mark"},
		{"ebcdic", []byte{0x4c, 0x6f, 0xa7, 0x94, 0x93}, 1, 1, "the document looks EBCDIC encoded; save it as UTF-8, or as UTF-16 with a byte-order mark"},
		{"two utf-8 marks", []byte("\ufeff\ufeff<a/>"), 1, 1, "the document starts with two byte-order marks"},
		{"a utf-16 mark, then another", encode16("\ufeff<a/>", binary.LittleEndian, true), 1, 1, "the document starts with two byte-order marks"},
	} {
		got, err := xmltext.Decode(c.in)
		var xe *xmltext.Error
		if !errors.As(err, &xe) || got != nil {
			t.Errorf("%s: Decode = %q, %v; want an *Error", c.name, got, err)
			continue
		}
		if xe.Line != c.line || xe.Col != c.col || xe.Msg != c.msg {
			t.Errorf("%s: %d:%d: %s\nwant %d:%d: %s", c.name, xe.Line, xe.Col, xe.Msg, c.line, c.col, c.msg)
		}
	}
}

// FuzzDecode: Decode never panics; what it returns is its input without a
// mark, or the UTF-8 of valid UTF-16, and a UTF-16 twin of valid UTF-8
// decodes back to it.
func FuzzDecode(f *testing.F) {
	f.Add([]byte(sample))
	f.Add(encode16(sample, binary.LittleEndian, true))
	f.Add(encode16(sample, binary.BigEndian, true))
	f.Add([]byte{0xff, 0xfe, 0x3d, 0xd8, '<', 0})
	f.Fuzz(func(t *testing.T, in []byte) {
		orig := bytes.Clone(in)
		got, err := xmltext.Decode(in)
		if !bytes.Equal(in, orig) {
			t.Fatal("Decode modified its input")
		}
		if err != nil {
			var xe *xmltext.Error
			if !errors.As(err, &xe) || xe.Line < 1 || xe.Col < 1 || xe.Msg == "" {
				t.Fatalf("bad error %v", err)
			}
			return
		}
		if bytes.HasPrefix(got, []byte("\ufeff")) {
			t.Fatalf("%q still has a mark", got)
		}
		if !utf8.Valid(in) {
			return
		}
		s := string(bytes.TrimPrefix(in, []byte("\ufeff")))
		if len(s) > 0 && s[0] == 0 {
			return // FF FE 00 00 is the mark of UTF-32LE (XML 1.0 Appendix F)
		}
		for _, order := range []binary.AppendByteOrder{binary.LittleEndian, binary.BigEndian} {
			back, err := xmltext.Decode(encode16(s, order, true))
			if err != nil || string(back) != s {
				t.Fatalf("the UTF-16 twin of %q decodes to %q, %v", s, back, err)
			}
		}
	})
}
