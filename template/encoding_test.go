package template_test

import (
	"encoding/binary"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/taskctl/taskctl/template"
)

// twins returns text as UTF-16LE, UTF-16BE (each with its byte-order mark)
// and UTF-8 with a byte-order mark.
func twins(text string) map[string][]byte {
	enc := func(order binary.AppendByteOrder) []byte {
		b := order.AppendUint16(nil, 0xfeff)
		for _, u := range utf16.Encode([]rune(text)) {
			b = order.AppendUint16(b, u)
		}
		return b
	}
	return map[string][]byte{
		"utf-16le":  enc(binary.LittleEndian),
		"utf-16be":  enc(binary.BigEndian),
		"utf-8-bom": append([]byte("\ufeff"), text...),
	}
}

// TestDecodeUTF16 decodes testdata/everything.xml, with CRLF line ends as
// Windows PowerShell writes them, in each encoding: the tasks (positions
// included) and warnings are those of the UTF-8 file.
func TestDecodeUTF16(t *testing.T) {
	data, err := os.ReadFile("testdata/everything.xml")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.ReplaceAll(string(data), "\n", "\r\n")
	want, err := template.Parse("e.xml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	if len(want.Tasks) < 2 || len(want.Warnings) == 0 {
		t.Fatalf("everything.xml gave %d tasks and %d warnings", len(want.Tasks), len(want.Warnings))
	}
	for name, twin := range twins(text) {
		got, err := template.Parse("e.xml", twin)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		for i := range want.Tasks {
			if g, w := exported(got.Tasks[i]), exported(want.Tasks[i]); !reflect.DeepEqual(g, w) {
				t.Errorf("%s: task %d:\n got %s\nwant %s", name, i, dump(g), dump(w))
			}
		}
		if !reflect.DeepEqual(got.Warnings, want.Warnings) {
			t.Errorf("%s: warnings %+v, want %+v", name, got.Warnings, want.Warnings)
		}
	}
}

// TestChecksUTF16 runs every case of TestChecks in each encoding: the same
// problems at the same line:col as the UTF-8 document.
func TestChecksUTF16(t *testing.T) {
	n := 0
	for _, c := range checkTests {
		if !utf8.ValidString(c.doc) || strings.HasPrefix(c.doc, "\ufeff") {
			continue // a case about the bytes themselves
		}
		n++
		for name, twin := range twins(c.doc) {
			if got := problems(t, string(twin)); !slices.Equal(got, c.want) {
				t.Errorf("%s as %s:\n%s\nwant:\n%s", c.name, name, strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
		}
	}
	if n < len(checkTests)-3 {
		t.Fatalf("only %d of %d cases are UTF-8", n, len(checkTests))
	}
}

// TestUTF16Refusals: UTF-16 that cannot be decoded is one problem that says
// why, at the line:col of the bad code unit.
func TestUTF16Refusals(t *testing.T) {
	le := twins("<task>\n  <description>ab</description></task>")["utf-16le"]
	at := 2 + 2*len([]rune("<task>\n  <description>a"))
	for _, c := range []struct {
		name string
		data []byte
		want string
	}{
		{"odd length", append(slices.Clone(le), '\n'),
			"t.xml:2:39: invalid UTF-16LE: the document has an odd number of bytes, so its last character is cut short; save it as UTF-8, or as UTF-16 with a byte-order mark"},
		{"unpaired surrogate", slices.Concat(le[:at], []byte{0x3d, 0xd8}, le[at:]),
			"t.xml:2:17: invalid UTF-16LE: unpaired surrogate U+D83D; save it as UTF-8, or as UTF-16 with a byte-order mark"},
		{"no byte-order mark", le[2:],
			"t.xml:1:1: the document looks UTF-16 or UTF-32 encoded without a byte-order mark; save it as UTF-8, or as UTF-16 with a byte-order mark"},
		{"UTF-32", []byte{0xff, 0xfe, 0, 0, '<', 0, 0, 0},
			"t.xml:1:1: the document is UTF-32 encoded; save it as UTF-8, or as UTF-16 with a byte-order mark"},
	} {
		if got := problems(t, string(c.data)); len(got) != 1 || got[0] != c.want {
			t.Errorf("%s: %q, want [%q]", c.name, got, c.want)
		}
	}
}
