package template_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/taskctl/taskctl/internal/diag"
	"github.com/taskctl/taskctl/internal/xmltext"
	"github.com/taskctl/taskctl/template"
)

// dump shows a task with its pointers followed, for failure messages.
func dump(t *template.Task) string {
	b, err := json.MarshalIndent(t, "", "  ")
	if err != nil {
		return err.Error()
	}
	return string(b)
}

// offsetOf turns a problem's line and column (runes from 1, a leading
// byte-order mark not counted) back into a byte offset into data; -1 if
// the position is not in data.
func offsetOf(data []byte, line, col int) int {
	off := 0
	if bytes.HasPrefix(data, []byte("\xef\xbb\xbf")) {
		off = 3
	}
	for l := 1; l < line; l++ {
		i := bytes.IndexByte(data[off:], '\n')
		if i < 0 {
			return -1
		}
		off += i + 1
	}
	for c := 1; c < col; c++ {
		if off >= len(data) || data[off] == '\n' {
			return -1
		}
		_, n := utf8.DecodeRune(data[off:])
		off += n
	}
	return off
}

// wellPlaced reports whether a problem Parse found after decoding points
// where the package promises: at the '<' of an element, at the "{{" of a
// reference (or the '&' of a character reference that makes one), or at the
// name of an attribute (a letter or '_'). Problems of
// well-formedness are at wherever encoding/xml stopped, and problems of
// encoding where the decoding stopped: neither is checked.
func wellPlaced(data []byte, p diag.Problem) error {
	for _, s := range []string{"XML syntax error", "xml: ", "unexpected end element", "unclosed element", "too many elements", "no root element", "more than one root", "DOCTYPE",
		"invalid UTF-16", " encoded", "two byte-order marks"} {
		if strings.Contains(p.Message, s) {
			return nil
		}
	}
	// Positions are in the text as Parse decodes it (UTF-16 as UTF-8).
	if text, err := xmltext.Decode(data); err == nil {
		data = text
	}
	off := offsetOf(data, p.Line, p.Col)
	if off < 0 || off >= len(data) {
		return fmt.Errorf("%s: the position is not in the data", p)
	}
	rest := data[off:]
	if c := rest[0]; c == '<' || c == '&' || bytes.HasPrefix(rest, []byte("{{")) || c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' {
		return nil
	}
	return fmt.Errorf("%s: points at %q", p, rest[:min(len(rest), 10)])
}
