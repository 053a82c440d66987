package schema_test

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/taskctl/taskctl/internal/xmltext"
	"github.com/taskctl/taskctl/schema"
)

// utf16Twin encodes text as UTF-16 with a byte-order mark.
func utf16Twin(text string, order binary.AppendByteOrder) []byte {
	b := order.AppendUint16(nil, 0xfeff)
	for _, u := range utf16.Encode([]rune(text)) {
		b = order.AppendUint16(b, u)
	}
	return b
}

// TestEncodingTwins validates every UTF-8 document of the corpus (valid
// and invalid, templates and configs) as UTF-16LE, UTF-16BE and UTF-8 with
// a byte-order mark: each twin has exactly the problems of the UTF-8
// document, at the same line:col (a valid document stays valid).
func TestEncodingTwins(t *testing.T) {
	n := 0
	for dir, s := range schemas {
		files, _ := filepath.Glob(filepath.Join(corpus, dir, "*", "*.xml"))
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			text := strings.TrimPrefix(string(data), "\ufeff")
			if _, err := xmltext.Decode(data); err != nil || !utf8.ValidString(text) {
				continue // a test of encodings itself: no twin
			}
			n++
			want := problems(t, s, text)
			for name, twin := range map[string][]byte{
				"utf-16le":  utf16Twin(text, binary.LittleEndian),
				"utf-16be":  utf16Twin(text, binary.BigEndian),
				"utf-8-bom": append([]byte("\ufeff"), text...),
			} {
				if got := problems(t, s, string(twin)); !slices.Equal(got, want) {
					t.Errorf("%s as %s:\n%s\nwant, as in UTF-8:\n%s", f, name, strings.Join(got, "\n"), strings.Join(want, "\n"))
				}
			}
		}
	}
	if n < 45 {
		t.Fatalf("only %d UTF-8 documents under testdata", n)
	}
}

// TestUTF16Refusals: what cannot be read as UTF-16 is a positioned problem
// that says so, never a substitute character or a libxml2 message.
func TestUTF16Refusals(t *testing.T) {
	doc := "<task>\n  <description>ab</description></task>\n"
	le := utf16Twin(doc, binary.LittleEndian)
	at := 2 + 2*len([]rune("<task>\n  <description>a")) // the 'b', in bytes
	for _, c := range []struct {
		name string
		data []byte
		want string
	}{
		{"odd length", append(slices.Clone(le), 'x'), "3:1: invalid UTF-16LE: the document has an odd number of bytes"},
		{"lone high surrogate", append(append(slices.Clone(le[:at]), 0x3d, 0xd8), le[at:]...), "2:17: invalid UTF-16LE: unpaired surrogate U+D83D"},
		{"lone low surrogate", append(append(slices.Clone(le[:at]), 0x00, 0xdc), le[at:]...), "2:17: invalid UTF-16LE: unpaired surrogate U+DC00"},
		{"high surrogate at the end", append(slices.Clone(le), 0x3d, 0xd8), "3:1: invalid UTF-16LE: unpaired surrogate U+D83D"},
		{"no byte-order mark", le[2:], "1:1: the document looks UTF-16 or UTF-32 encoded without a byte-order mark"},
		{"UTF-32", append([]byte{0, 0, 0xfe, 0xff}, 0, 0, 0, '<'), "1:1: the document is UTF-32 encoded"},
		{"a mark in UTF-16 after the mark", utf16Twin("\ufeff"+doc, binary.BigEndian), "1:1: the document starts with two byte-order marks"},
		{"a NUL character", utf16Twin("<task>\x00</task>", binary.BigEndian), "1:7: NUL byte"},
	} {
		got := problems(t, schema.Template(), string(c.data))
		if len(got) != 1 || !strings.HasPrefix(got[0], c.want) || strings.ContainsRune(got[0], utf8.RuneError) {
			t.Errorf("%s: %q, want one problem %q…", c.name, got, c.want)
		}
	}
	// A mark and nothing else is an empty document, as nothing at all is.
	if got := problems(t, schema.Template(), "\xff\xfe"); len(got) != 1 || got[0] != "1:1: document is empty" {
		t.Errorf("a lone mark: %q", got)
	}
	// The size limit is on the bytes read, not the text they decode to.
	big := utf16Twin("<task><description>"+strings.Repeat("x", schema.MaxInput/2)+"</description></task>", binary.LittleEndian)
	if got := problems(t, schema.Template(), string(big)); len(got) != 1 || !strings.Contains(got[0], "the limit is") {
		t.Errorf("UTF-16 over MaxInput: %q", got)
	}
	if !bytes.HasPrefix(utf16Twin("<", binary.LittleEndian), []byte{0xff, 0xfe, '<', 0}) {
		t.Fatal("utf16Twin does not write UTF-16LE with a mark")
	}
}
