// Package encoding turns the bytes of a project file into UTF-8 text for the
// context document, or recognises that they are binary.
//
// [Decode] looks at the bytes in this order:
//
//  1. empty input: utf-8, nothing to do;
//  2. a byte-order mark: UTF-32LE/BE (FF FE 00 00, 00 00 FE FF), UTF-8
//     (EF BB BF), UTF-16LE/BE (FF FE, FE FF). The mark is removed and the
//     rest converted to UTF-8;
//  3. a NUL byte in the first 8 KiB: UTF-16 without a mark when the NULs
//     fall on the high byte of at least 40% of the code units (mostly ASCII
//     text such as source code), almost never on the low byte, and the
//     sample decodes to text without stray control characters; otherwise
//     the content is binary;
//  4. valid UTF-8: returned as it is;
//  5. anything else is not (all) UTF-8. When its valid multi-byte
//     sequences are at least as many as its invalid bytes, it is UTF-8 with
//     stray bytes: it stays utf-8 and each stray byte is read as
//     Windows-1252. Otherwise every non-ASCII byte is read as one
//     Windows-1252 character (a superset of the printable ISO 8859-1
//     range; the five bytes Windows-1252 leaves undefined as the C1
//     controls of ISO 8859-1) and counted in [Result.InvalidBytes]. The
//     encoding is then reported as windows-1252 when most non-ASCII bytes
//     stand alone between ASCII bytes (accented letters in Latin text),
//     and as unknown when most come in runs: the characters of a
//     multi-byte legacy encoding (GBK, Big5, Shift-JIS, EUC-KR …) or of
//     Cyrillic or Greek in an 8-bit one, which no byte-wise reading shows
//     rightly.
//
// Guarantees:
//   - The text returned is always valid UTF-8, for every input.
//   - Nothing is dropped silently: content is converted byte for byte, and
//     every byte or code unit that needed a substitute (an unpaired UTF-16
//     surrogate, a UTF-32 value outside Unicode, a truncated trailing code
//     unit, a byte that is not UTF-8) is counted in [Result.InvalidBytes].
//   - Decode never panics and does not modify its input; the text it
//     returns may share memory with the input when no conversion was needed.
//
// Non-guarantees: multi-byte legacy encodings (Shift-JIS, GBK, EUC-KR, …)
// are reported as unknown, not identified or converted: their byte ranges
// overlap so much that short texts decode cleanly in several of them, and
// a wrong guess would look right while saying something else. UTF-16 text
// without a mark and without NUL bytes (for example pure CJK) is not
// recognised either. In both cases the bytes come out as Windows-1252,
// never dropped, with InvalidBytes telling the caller the text is garbled.
// UTF-32 without a byte-order mark is reported as binary.
package encoding
