package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"unicode/utf8"
)

// writeJSON writes v to w as an encoder with SetEscapeHTML(false) and
// SetIndent("", "  ") does, byte for byte, but indents with an indenter:
// encoding/json's indenter steps a scanner through every byte into a
// second buffer as large as the output, which for the envelope of a
// whole-repository assemble (the files' contents are most of it) cost
// three times the marshalling itself. The encoder writes the compact
// value straight into the indenter, so the only buffer of the envelope's
// size is the encoder's own.
func writeJSON(w io.Writer, v any) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	enc := json.NewEncoder(&indenter{w: bw, indent: "  "})
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	return bw.Flush()
}

// indenter writes compact JSON as encoding/json writes it (no space outside
// strings) to w as json.Indent(dst, src, "", indent) would, whatever pieces
// it comes in. A string is copied up to its closing quote in runs found
// with IndexByte. Write never fails: w's error is Flush's.
type indenter struct {
	w      *bufio.Writer
	indent string
	depth  int
	open   bool // just after '{' or '[': a newline comes unless it closes
	str    bool // inside a string
	esc    bool // inside a string, after an odd number of backslashes
}

func (d *indenter) newline() {
	d.w.WriteByte('\n')
	for range d.depth {
		d.w.WriteString(d.indent)
	}
}

func (d *indenter) Write(src []byte) (int, error) {
	for i := 0; i < len(src); {
		if d.str {
			i = d.stringPart(src, i)
			continue
		}
		c := src[i]
		if d.open {
			d.open = false
			if c != '}' && c != ']' {
				d.depth++
				d.newline()
			}
		} else if c == '}' || c == ']' {
			d.depth--
			d.newline()
		}
		switch c {
		case '"':
			d.w.WriteByte(c)
			d.str = true
			i++
		case '{', '[':
			d.w.WriteByte(c)
			d.open = true
			i++
		case ',':
			d.w.WriteByte(c)
			d.newline()
			i++
		case ':':
			d.w.WriteString(": ")
			i++
		default:
			// '}', ']', or (part of) a number, true, false or null
			j := i + 1
			for c != '}' && c != ']' && j < len(src) && !structural(src[j]) {
				j++
			}
			d.w.Write(src[i:j])
			i = j
		}
	}
	return len(src), nil
}

// stringPart copies the string that src[i:] continues, up to and including
// its closing quote or to the end of src, and returns where it stopped.
func (d *indenter) stringPart(src []byte, i int) int {
	for from := i; ; {
		k := bytes.IndexByte(src[from:], '"')
		if k < 0 {
			// The string goes on in the next piece: remember whether
			// src ends in an odd run of backslashes.
			n := backslashes(src[from:])
			if n == len(src)-from {
				d.esc = d.esc != (n%2 == 1)
			} else {
				d.esc = n%2 == 1
			}
			d.w.Write(src[i:])
			return len(src)
		}
		q := from + k
		// The quote closes the string unless an odd number of backslashes
		// comes before it.
		n := backslashes(src[from:q])
		odd := n%2 == 1
		if n == q-from {
			odd = odd != d.esc
		}
		d.esc = false
		if !odd {
			d.w.Write(src[i : q+1])
			d.str = false
			return q + 1
		}
		from = q + 1
	}
}

// backslashes counts the backslashes b ends in.
func backslashes(b []byte) int {
	n := 0
	for n < len(b) && b[len(b)-1-n] == '\\' {
		n++
	}
	return n
}

// structural reports whether c is one of JSON's structural characters or
// starts a string.
func structural(c byte) bool {
	switch c {
	case '{', '}', '[', ']', ',', ':', '"':
		return true
	}
	return false
}

// jsonText is a string that encodes to JSON as encoding/json encodes a
// string with SetEscapeHTML(false), but into a slice of exactly its size.
// encoding/json appends a string to its buffer run by run between escapes,
// and a slice that grows by a quarter at a time allocated five times the
// size of a long string (a step's 30 MB output took 150 MB); the encoder
// copies a Marshaler's result after growing its buffer once.
type jsonText string

// MarshalJSON implements json.Marshaler.
func (s jsonText) MarshalJSON() ([]byte, error) {
	n := 2
	escapeJSON(string(s), func(run string, esc []byte) { n += len(run) + len(esc) })
	b := make([]byte, 0, n)
	b = append(b, '"')
	escapeJSON(string(s), func(run string, esc []byte) {
		b = append(b, run...)
		b = append(b, esc...)
	})
	return append(b, '"'), nil
}

// escapeJSON calls emit with each run of s that needs no escape and the
// escape that follows it (none after the last run), as encoding/json's
// appendString escapes without escapeHTML: '"', '\\' and the control
// characters, each invalid UTF-8 byte as \ufffd, U+2028 and U+2029.
func escapeJSON(s string, emit func(run string, esc []byte)) {
	const hex = "0123456789abcdef"
	var esc [6]byte
	start := 0
	for i := 0; i < len(s); {
		var e []byte
		size := 1
		if c := s[i]; c < utf8.RuneSelf {
			switch {
			case c >= 0x20 && c != '"' && c != '\\':
				i++
				continue
			case c == '"' || c == '\\':
				e = append(esc[:0], '\\', c)
			case c == '\b':
				e = append(esc[:0], '\\', 'b')
			case c == '\f':
				e = append(esc[:0], '\\', 'f')
			case c == '\n':
				e = append(esc[:0], '\\', 'n')
			case c == '\r':
				e = append(esc[:0], '\\', 'r')
			case c == '\t':
				e = append(esc[:0], '\\', 't')
			default:
				e = append(esc[:0], '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
		} else {
			var r rune
			r, size = utf8.DecodeRuneInString(s[i:])
			switch {
			case r == utf8.RuneError && size == 1:
				e = append(esc[:0], `\ufffd`...)
			case r == '\u2028' || r == '\u2029':
				e = append(esc[:0], '\\', 'u', '2', '0', '2', hex[r&0xF])
			default:
				i += size
				continue
			}
		}
		emit(s[start:i], e)
		i += size
		start = i
	}
	emit(s[start:], nil)
}
