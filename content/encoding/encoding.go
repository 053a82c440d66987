package encoding

import (
	"bytes"
	"unicode/utf16"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"
)

// Names reported in [Result.Encoding].
const (
	UTF8        = "utf-8"
	UTF8BOM     = "utf-8-bom"
	UTF16LE     = "utf-16le"
	UTF16BE     = "utf-16be"
	UTF32LE     = "utf-32le"
	UTF32BE     = "utf-32be"
	Windows1252 = "windows-1252"
	// Unknown is text that is neither UTF-8 nor, by the look of its
	// non-ASCII bytes, a Latin 8-bit encoding: most likely a multi-byte
	// legacy encoding (GBK, Big5, Shift-JIS, EUC-KR …) or a non-Latin 8-bit
	// one (Windows-1251 …). Its non-ASCII bytes are read as Windows-1252
	// one by one, so the text is garbled but nothing is lost.
	Unknown = "unknown"
	Binary  = "binary"
)

// SniffLen is how many leading bytes decide whether content is binary.
const SniffLen = 8 << 10

// Result describes what [Decode] found and did.
type Result struct {
	// Encoding is one of the names above.
	Encoding string
	// Converted reports that the returned text differs from the input
	// bytes beyond the removal of a UTF-8 byte-order mark.
	Converted bool
	// InvalidBytes counts the input bytes that were not valid in the
	// detected encoding and were substituted: stray bytes in UTF-8 text or,
	// in text that is not UTF-8 (windows-1252, unknown), every non-ASCII
	// byte (each read as Windows-1252), or bytes of undecodable UTF-16/UTF-32
	// code units (replaced by U+FFFD). Zero means the conversion was exact.
	InvalidBytes int
	// Binary reports that the content is binary; the text is then nil.
	Binary bool
}

type kind int

const (
	kindUTF8 kind = iota
	kindUTF8BOM
	kindUTF16LE
	kindUTF16BE
	kindUTF32LE
	kindUTF32BE
	kindUTF16LENoBOM
	kindUTF16BENoBOM
	kindBinary
)

// Decode returns b as UTF-8 text and describes what it found. For binary
// content it returns nil text and a Result with Binary set. See the package
// documentation for the order of the checks and the guarantees.
func Decode(b []byte) (text []byte, r Result) {
	switch detect(b) {
	case kindUTF8BOM:
		return decodeUTF8(b[3:], UTF8BOM)
	case kindUTF32LE:
		return decodeUTF32(b[4:], false, UTF32LE)
	case kindUTF32BE:
		return decodeUTF32(b[4:], true, UTF32BE)
	case kindUTF16LE:
		return decodeUTF16(b[2:], false, UTF16LE)
	case kindUTF16BE:
		return decodeUTF16(b[2:], true, UTF16BE)
	case kindUTF16LENoBOM:
		return decodeUTF16(b, false, UTF16LE)
	case kindUTF16BENoBOM:
		return decodeUTF16(b, true, UTF16BE)
	case kindBinary:
		return nil, Result{Encoding: Binary, Binary: true}
	default:
		return decodeUTF8(b, UTF8)
	}
}

// LooksBinary reports whether [Decode] would treat b as binary: it has a NUL
// byte in its first [SniffLen] bytes that neither a UTF-16/UTF-32 byte-order
// mark nor the regular NUL pattern of UTF-16 text explains.
func LooksBinary(b []byte) bool {
	return detect(b) == kindBinary
}

func detect(b []byte) kind {
	switch {
	case bytes.HasPrefix(b, []byte{0xFF, 0xFE, 0, 0}) && len(b)%4 == 0 && validUTF32(b[4:], false):
		return kindUTF32LE
	case bytes.HasPrefix(b, []byte{0, 0, 0xFE, 0xFF}):
		return kindUTF32BE
	case bytes.HasPrefix(b, []byte{0xEF, 0xBB, 0xBF}):
		return kindUTF8BOM
	case bytes.HasPrefix(b, []byte{0xFF, 0xFE}):
		return kindUTF16LE
	case bytes.HasPrefix(b, []byte{0xFE, 0xFF}):
		return kindUTF16BE
	}
	sample := b[:min(len(b), SniffLen)]
	if bytes.IndexByte(sample, 0) < 0 {
		return kindUTF8
	}
	if len(b)%2 == 0 {
		if looksUTF16(sample, false) {
			return kindUTF16LENoBOM
		}
		if looksUTF16(sample, true) {
			return kindUTF16BENoBOM
		}
	}
	return kindBinary
}

// looksUTF16 reports whether sample (which holds at least one NUL) reads as
// UTF-16 text in the given byte order: NULs sit on the high byte of at least
// 40% of the code units (text that is mostly ASCII or Latin-1, like source
// code) and almost never on the low byte, the code units
// pair up as UTF-16 requires, and almost none of them is a control character
// other than the usual whitespace.
func looksUTF16(sample []byte, bigEndian bool) bool {
	sample = sample[:len(sample)&^1]
	units := len(sample) / 2
	if units == 0 {
		return false
	}
	hi, lo := 1, 0
	if bigEndian {
		hi, lo = 0, 1
	}
	zeroHi, zeroLo := 0, 0
	for i := 0; i+1 < len(sample); i += 2 {
		if sample[i+hi] == 0 {
			zeroHi++
		}
		if sample[i+lo] == 0 {
			zeroLo++
		}
	}
	if zeroHi*5 < units*2 || zeroLo*16 > zeroHi {
		return false
	}
	controls := 0
	for i := 0; i+1 < len(sample); i += 2 {
		u := rune(sample[i+hi])<<8 | rune(sample[i+lo])
		switch {
		case utf16.IsSurrogate(u):
			if u >= 0xDC00 {
				return false // low surrogate first
			}
			if i+3 >= len(sample) {
				break // pair cut by the end of the sample
			}
			v := rune(sample[i+2+hi])<<8 | rune(sample[i+2+lo])
			if v < 0xDC00 || v > 0xDFFF {
				return false
			}
			i += 2
		case u < 0x20 && u != '\t' && u != '\n' && u != '\r' && u != '\f' && u != '\v':
			controls++
		case u == 0x7F || u == 0xFFFE || u == 0xFFFF:
			controls++
		}
	}
	return controls*100 <= units
}

func validUTF32(b []byte, bigEndian bool) bool {
	for i := 0; i+3 < len(b); i += 4 {
		if !utf8.ValidRune(utf32At(b[i:], bigEndian)) {
			return false
		}
	}
	return true
}

func utf32At(b []byte, bigEndian bool) rune {
	if bigEndian {
		return rune(uint32(b[0])<<24 | uint32(b[1])<<16 | uint32(b[2])<<8 | uint32(b[3]))
	}
	return rune(uint32(b[3])<<24 | uint32(b[2])<<16 | uint32(b[1])<<8 | uint32(b[0]))
}

// decodeUTF8 returns b unchanged when it is valid UTF-8. Otherwise:
//
//   - when b's valid multi-byte sequences are at least as many as its
//     invalid bytes, it is UTF-8 with stray bytes: it keeps name, the valid
//     sequences are kept and each invalid byte is read as Windows-1252;
//   - otherwise it is not UTF-8 (a few valid-looking pairs are chance), and
//     every non-ASCII byte is read as Windows-1252. It is named
//     windows-1252 when most of its non-ASCII bytes stand alone between
//     ASCII bytes, as accented letters in Latin text do, and unknown when
//     most come in runs, as the characters of a multi-byte legacy
//     encoding (or of Cyrillic or Greek in an 8-bit one) do.
func decodeUTF8(b []byte, name string) ([]byte, Result) {
	if utf8.Valid(b) {
		return b, Result{Encoding: name}
	}
	invalid, multi := 0, 0
	for i := 0; i < len(b); {
		if b[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n == 1 {
			invalid++
		} else {
			multi++
		}
		i += n
	}
	out := make([]byte, 0, len(b)+len(b)/8)
	if multi >= invalid {
		for i := 0; i < len(b); {
			if c := b[i]; c < utf8.RuneSelf {
				out = append(out, c)
				i++
				continue
			}
			r, n := utf8.DecodeRune(b[i:])
			if r == utf8.RuneError && n == 1 {
				out = utf8.AppendRune(out, windows1252(b[i]))
				i++
				continue
			}
			out = append(out, b[i:i+n]...)
			i += n
		}
		return out, Result{Encoding: name, Converted: true, InvalidBytes: invalid}
	}
	high, inRuns := 0, 0
	for i, c := range b {
		if c < utf8.RuneSelf {
			out = append(out, c)
			continue
		}
		out = utf8.AppendRune(out, windows1252(c))
		high++
		if i > 0 && b[i-1] >= utf8.RuneSelf || i+1 < len(b) && b[i+1] >= utf8.RuneSelf {
			inRuns++
		}
	}
	if name == UTF8 {
		name = Windows1252
		if 2*inRuns > high {
			name = Unknown
		}
	}
	return out, Result{Encoding: name, Converted: true, InvalidBytes: high}
}

// windows1252 maps one byte to its Windows-1252 character; the five bytes
// Windows-1252 leaves undefined map to the C1 control of the same value, as
// the WHATWG encoding standard does, so no byte is lost.
func windows1252(c byte) rune {
	r := charmap.Windows1252.DecodeByte(c)
	if r == utf8.RuneError {
		return rune(c)
	}
	return r
}

func decodeUTF16(b []byte, bigEndian bool, name string) ([]byte, Result) {
	out := make([]byte, 0, len(b)+len(b)/2)
	invalid := 0
	unit := func(i int) rune {
		if bigEndian {
			return rune(b[i])<<8 | rune(b[i+1])
		}
		return rune(b[i+1])<<8 | rune(b[i])
	}
	i := 0
	for ; i+1 < len(b); i += 2 {
		u := unit(i)
		if !utf16.IsSurrogate(u) {
			out = utf8.AppendRune(out, u)
			continue
		}
		if u < 0xDC00 && i+3 < len(b) {
			if r := utf16.DecodeRune(u, unit(i+2)); r != utf8.RuneError {
				out = utf8.AppendRune(out, r)
				i += 2
				continue
			}
		}
		out = utf8.AppendRune(out, utf8.RuneError)
		invalid += 2
	}
	if i < len(b) { // odd trailing byte
		out = utf8.AppendRune(out, utf8.RuneError)
		invalid++
	}
	return out, Result{Encoding: name, Converted: true, InvalidBytes: invalid}
}

func decodeUTF32(b []byte, bigEndian bool, name string) ([]byte, Result) {
	out := make([]byte, 0, len(b))
	invalid := 0
	i := 0
	for ; i+3 < len(b); i += 4 {
		r := utf32At(b[i:], bigEndian)
		if !utf8.ValidRune(r) {
			r = utf8.RuneError
			invalid += 4
		}
		out = utf8.AppendRune(out, r)
	}
	if i < len(b) {
		out = utf8.AppendRune(out, utf8.RuneError)
		invalid += len(b) - i
	}
	return out, Result{Encoding: name, Converted: true, InvalidBytes: invalid}
}
