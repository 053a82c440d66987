package encoding_test

import (
	"bytes"
	"encoding/binary"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/taskctl/taskctl/content/encoding"
)

func utf16Bytes(s string, bigEndian, bom bool) []byte {
	var order binary.AppendByteOrder = binary.LittleEndian
	if bigEndian {
		order = binary.BigEndian
	}
	units := utf16.Encode([]rune(s))
	if bom {
		units = append([]uint16{0xFEFF}, units...)
	}
	var out []byte
	for _, u := range units {
		out = order.AppendUint16(out, u)
	}
	return out
}

func utf32Bytes(s string, bigEndian bool) []byte {
	var order binary.AppendByteOrder = binary.LittleEndian
	if bigEndian {
		order = binary.BigEndian
	}
	out := order.AppendUint32(nil, 0xFEFF)
	for _, r := range s {
		out = order.AppendUint32(out, uint32(r))
	}
	return out
}

const sample = "naïve 日本 😀\r\nline two\n"

var pngHeader = []byte{
	0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n',
	0, 0, 0, 0x0D, 'I', 'H', 'D', 'R', 0, 0, 0, 0x10, 0, 0, 0, 0x10, 8, 6, 0, 0, 0,
	0x1F, 0xF3, 0xFF, 0x61,
}

func TestDecode(t *testing.T) {
	tests := []struct {
		name string
		in   []byte
		want string
		res  encoding.Result
	}{
		{"empty", nil, "", encoding.Result{Encoding: "utf-8"}},
		{"utf-8", []byte(sample), sample, encoding.Result{Encoding: "utf-8"}},
		{"utf-8 with NUL after sniff window", append(bytes.Repeat([]byte("a"), encoding.SniffLen), 0, 'b'),
			string(bytes.Repeat([]byte("a"), encoding.SniffLen)) + "\x00b", encoding.Result{Encoding: "utf-8"}},
		{"utf-8 bom", append([]byte{0xEF, 0xBB, 0xBF}, sample...), sample, encoding.Result{Encoding: "utf-8-bom"}},
		{"utf-8 bom then latin-1", []byte("\xef\xbb\xbfcaf\xe9"), "café",
			encoding.Result{Encoding: "utf-8-bom", Converted: true, InvalidBytes: 1}},
		{"utf-16le bom then U+0000", append([]byte{0xFF, 0xFE}, 0, 0, 'a', 0), "\x00a",
			encoding.Result{Encoding: "utf-16le", Converted: true}},
		{"utf-8 bom only", []byte{0xEF, 0xBB, 0xBF}, "", encoding.Result{Encoding: "utf-8-bom"}},
		{"utf-16le bom", utf16Bytes(sample, false, true), sample, encoding.Result{Encoding: "utf-16le", Converted: true}},
		{"utf-16be bom", utf16Bytes(sample, true, true), sample, encoding.Result{Encoding: "utf-16be", Converted: true}},
		{"utf-16le bom only", []byte{0xFF, 0xFE}, "", encoding.Result{Encoding: "utf-16le", Converted: true}},
		{"utf-16le no bom", utf16Bytes("package main\n\nfunc main() {}\n// naïve\n", false, false),
			"package main\n\nfunc main() {}\n// naïve\n", encoding.Result{Encoding: "utf-16le", Converted: true}},
		{"utf-16be no bom", utf16Bytes("hello, wörld 日本\n", true, false),
			"hello, wörld 日本\n", encoding.Result{Encoding: "utf-16be", Converted: true}},
		{"utf-16le unpaired surrogate", append(utf16Bytes("ab", false, true), 0x00, 0xD8, 'c', 0),
			"ab\uFFFDc", encoding.Result{Encoding: "utf-16le", Converted: true, InvalidBytes: 2}},
		{"utf-16le odd length", append(utf16Bytes("ab", false, true), 'c'),
			"ab\uFFFD", encoding.Result{Encoding: "utf-16le", Converted: true, InvalidBytes: 1}},
		{"utf-32le bom", utf32Bytes(sample, false), sample, encoding.Result{Encoding: "utf-32le", Converted: true}},
		{"utf-32be bom", utf32Bytes(sample, true), sample, encoding.Result{Encoding: "utf-32be", Converted: true}},
		{"utf-32be out of range", append(utf32Bytes("a", true), 0x00, 0x11, 0, 0),
			"a\uFFFD", encoding.Result{Encoding: "utf-32be", Converted: true, InvalidBytes: 4}},
		{"latin-1", []byte("caf\xe9 cr\xe8me br\xfbl\xe9e \xa9 2024\n"), "café crème brûlée © 2024\n",
			encoding.Result{Encoding: "windows-1252", Converted: true, InvalidBytes: 5}},
		{"windows-1252 specials", []byte("\x93quoted\x94 \x80 5 \x81"), "\u201cquoted\u201d € 5 \u0081",
			encoding.Result{Encoding: "windows-1252", Converted: true, InvalidBytes: 4}},
		{"utf-8 with a stray latin-1 byte", []byte("naïve caf\xe9"), "naïve café",
			encoding.Result{Encoding: "utf-8", Converted: true, InvalidBytes: 1}},
		{"truncated utf-8 sequence", []byte("日本\xe6\x97"), "日本æ\u2014",
			encoding.Result{Encoding: "utf-8", Converted: true, InvalidBytes: 2}},
		{"png", pngHeader, "", encoding.Result{Encoding: "binary", Binary: true}},
		{"nul in text", []byte("abc\x00def\x00\x01\x02\x03xyz"), "", encoding.Result{Encoding: "binary", Binary: true}},
		{"little-endian integers", []byte{5, 0, 18, 0, 3, 0, 200, 0, 1, 0, 7, 0}, "", encoding.Result{Encoding: "binary", Binary: true}},
		{"utf-32le without bom", utf32Bytes("hello", false)[4:], "", encoding.Result{Encoding: "binary", Binary: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, res := encoding.Decode(tt.in)
			if string(got) != tt.want || res != tt.res {
				t.Errorf("Decode(%q) = %q, %+v; want %q, %+v", tt.in, got, res, tt.want, tt.res)
			}
			if !utf8.Valid(got) {
				t.Errorf("Decode(%q) returned invalid UTF-8 %q", tt.in, got)
			}
			if lb := encoding.LooksBinary(tt.in); lb != tt.res.Binary {
				t.Errorf("LooksBinary(%q) = %v, want %v", tt.in, lb, tt.res.Binary)
			}
			if res.Binary && got != nil {
				t.Errorf("Decode(%q): binary content returned text %q", tt.in, got)
			}
		})
	}
}

func TestDecodeDoesNotModifyInput(t *testing.T) {
	in := []byte("caf\xe9")
	orig := bytes.Clone(in)
	encoding.Decode(in)
	if !bytes.Equal(in, orig) {
		t.Errorf("Decode modified its input: %q, was %q", in, orig)
	}
}

func FuzzDecode(f *testing.F) {
	f.Add([]byte(sample))
	f.Add([]byte("caf\xe9"))
	f.Add(pngHeader)
	f.Add(utf16Bytes(sample, false, true))
	f.Add(utf16Bytes(sample, true, false))
	f.Add(utf32Bytes(sample, false))
	f.Add(utf32Bytes(sample, true))
	f.Add([]byte{0xEF, 0xBB, 0xBF, 0xFF})
	f.Add([]byte{0xFF, 0xFE, 0, 0, 0xFF})
	f.Fuzz(func(t *testing.T, in []byte) {
		orig := bytes.Clone(in)
		got, res := encoding.Decode(in)
		if !utf8.Valid(got) {
			t.Fatalf("Decode(%q) = %q: invalid UTF-8", in, got)
		}
		if res.Binary != (got == nil && res.Encoding == "binary") {
			t.Fatalf("Decode(%q): inconsistent binary result %+v, text %q", in, res, got)
		}
		if res.Binary != encoding.LooksBinary(in) {
			t.Fatalf("LooksBinary(%q) disagrees with Decode %+v", in, res)
		}
		if res.InvalidBytes < 0 || res.InvalidBytes > len(in) {
			t.Fatalf("Decode(%q): InvalidBytes %d out of range", in, res.InvalidBytes)
		}
		if !res.Converted && !res.Binary && !bytes.HasSuffix(in, got) {
			t.Fatalf("Decode(%q) = %q without conversion", in, got)
		}
		if !bytes.Equal(in, orig) {
			t.Fatalf("Decode modified its input")
		}
	})
}

// TestDecodeUnknownLegacy: text in a multi-byte legacy encoding (or a
// non-Latin 8-bit one) is not labelled utf-8 or windows-1252, even where
// some of its byte pairs happen to be valid UTF-8: it is "unknown", and
// every non-ASCII byte is read as one Windows-1252 character and counted.
func TestDecodeUnknownLegacy(t *testing.T) {
	for name, in := range map[string]string{
		"gbk":          "\xd6\xd0\xce\xc4\xce\xc4\xb1\xbe\xc4\xda\xc8\xdd\xa3\xac\xd5\xe2\xca\xc7\xd2\xbb\xb8\xf6\xb2\xe2\xca\xd4\xa1\xa3",
		"shift-jis":    "// \x93\xfa\x96\x7b\x8c\xea\x82\xcc\x83\x65\x83\x4c\x83\x58\x83\x67\x82\xc5\x82\xb7\x81\x42\n",
		"big5":         "\xa4\xa4\xa4\xe5\xa4\xe5\xa5\xbb\xa4\xba\xae\x65",
		"euc-kr":       "\xc7\xd1\xb1\xb9\xbe\xee\x20\xc5\xd8\xbd\xba\xc6\xae\xc0\xd4\xb4\xcf\xb4\xd9",
		"windows-1251": "\xcf\xf0\xe8\xe2\xe5\xf2, \xec\xe8\xf0\n",
	} {
		got, res := encoding.Decode([]byte(in))
		high := 0
		for i := 0; i < len(in); i++ {
			if in[i] >= 0x80 {
				high++
			}
		}
		if res.Encoding != encoding.Unknown || res.InvalidBytes != high || !res.Converted ||
			utf8.RuneCount(got) != len(in) || !utf8.Valid(got) {
			t.Errorf("%s: Decode(%q) = %q, %+v; want encoding %q, %d invalid bytes, one character a byte",
				name, in, got, res, encoding.Unknown, high)
		}
	}
}
