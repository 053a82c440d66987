// Package xmltext turns the bytes of an XML document (a task template or a
// configuration file) into the UTF-8 text that package schema (libxml2) and
// package template (encoding/xml) read. Both call [Decode] first, so a
// document is read the same way by the two.
//
// XML 1.0 (§4.3.3) requires every processor to read UTF-8 and UTF-16, and
// UTF-16 to begin with a byte-order mark. Decode accepts:
//   - UTF-8, with or without a byte-order mark (EF BB BF);
//   - UTF-16LE with its mark (FF FE) and UTF-16BE with its mark (FE FF):
//     what Windows PowerShell 5's `>` and Out-File write.
//
// It refuses, with an [*Error] at 1:1: UTF-32 (FF FE 00 00, 00 00 FE FF);
// UTF-16 or UTF-32 without a mark (a NUL byte beside the first '<'), which
// XML does not allow; EBCDIC ("<?xm" as 4C 6F A7 94), which libxml2 would
// otherwise switch to on its own; and a second byte-order mark after the
// first.
//
// Guarantees:
//   - The text returned has no byte-order mark, so lines and columns
//     counted in it (lines from 1, columns in Unicode code points from 1)
//     are those of the file as an editor shows it, whatever its encoding:
//     a document and its UTF-16 twin have the same positions.
//   - UTF-16 is decoded strictly: an odd number of bytes or an unpaired
//     surrogate is an *Error at the line and column of the bad code unit,
//     never a substitute character.
//   - UTF-8 is not checked here: an invalid byte is left to the XML
//     parsers, which report it where it is.
//   - The XML declaration's encoding is not read: the bytes decide.
//   - Decode never panics and never modifies its input; UTF-8 is returned
//     without a copy.
package xmltext
