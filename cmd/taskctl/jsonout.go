package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
)

// writeJSON writes v to w as an encoder with SetEscapeHTML(false) and
// SetIndent("", "  ") does, byte for byte, but indents with indentJSON:
// encoding/json's indenter steps a scanner through every byte into a
// second buffer as large as the output, which for the envelope of a
// whole-repository assemble (the files' contents are most of it) cost
// three times the marshalling itself.
func writeJSON(w io.Writer, v any) error {
	var compact bytes.Buffer
	enc := json.NewEncoder(&compact)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	indentJSON(bw, bytes.TrimSuffix(compact.Bytes(), []byte{'\n'}), "  ")
	bw.WriteByte('\n')
	return bw.Flush()
}

// indentJSON writes src, compact JSON as encoding/json writes it (no space
// outside strings), to w as json.Indent(dst, src, "", indent) would. A
// string is copied up to its closing quote in runs found with IndexByte.
func indentJSON(w *bufio.Writer, src []byte, indent string) {
	depth := 0
	open := false // just after '{' or '[': a newline comes unless it closes
	newline := func() {
		w.WriteByte('\n')
		for range depth {
			w.WriteString(indent)
		}
	}
	for i := 0; i < len(src); {
		c := src[i]
		if open {
			open = false
			if c != '}' && c != ']' {
				depth++
				newline()
			}
		} else if c == '}' || c == ']' {
			depth--
			newline()
		}
		switch c {
		case '"':
			j := i + 1
			for {
				k := bytes.IndexByte(src[j:], '"')
				if k < 0 {
					j = len(src) // not valid JSON: copy the rest
					break
				}
				j += k + 1
				// The quote closes the string unless an odd number of
				// backslashes comes before it.
				b := j - 2
				for b > i && src[b] == '\\' {
					b--
				}
				if (j-2-b)%2 == 0 {
					break
				}
			}
			w.Write(src[i:j])
			i = j
		case '{', '[':
			w.WriteByte(c)
			open = true
			i++
		case ',':
			w.WriteByte(c)
			newline()
			i++
		case ':':
			w.WriteString(": ")
			i++
		default:
			// '}', ']', or a number, true, false or null
			j := i + 1
			for c != '}' && c != ']' && j < len(src) && !structural(src[j]) {
				j++
			}
			w.Write(src[i:j])
			i = j
		}
	}
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
