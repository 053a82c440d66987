package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// referenceJSON is what writeJSON must write: encoding/json's own encoder.
func referenceJSON(t testing.TB, v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestWriteJSONMatchesEncoder compares writeJSON with encoding/json's
// indenting encoder on values that exercise every shape: empty and nested
// objects and arrays, numbers, literals, and strings holding quotes,
// backslashes (an even and an odd number before a quote), escapes, markup
// and JSON-looking text.
func TestWriteJSONMatchesEncoder(t *testing.T) {
	type file struct {
		Path    string  `json:"path"`
		Tokens  int     `json:"tokens"`
		Score   float64 `json:"score,omitempty"`
		Binary  bool    `json:"binary"`
		Content string  `json:"content"`
	}
	values := []any{
		nil, true, 0, -1.5e-7, "", "x", []int{}, map[string]any{}, []any{[]any{}, map[string]any{}},
		map[string]any{"ok": true, "data": nil, "warnings": []string{}, "meta": map[string]any{"n": 3, "list": []int{1, 2, 3}}},
		[]file{
			{Path: "/p/a \"quoted\".go", Tokens: 7, Content: "package a\n\nfunc A() { return \"x\\\\\" }\n"},
			{Path: `/p/back\slash`, Score: 0.25, Content: `ends in a backslash \`},
			{Path: "/p/two", Content: `\\"` + `{"not": ["json", 1]}, : ] }` + "\t\u2028<a href=\"x\">&</a>\x01"},
			{Path: "/p/bin", Binary: true},
		},
		map[string]any{"nested": map[string]any{"deeper": map[string]any{"deepest": []any{1, "two", nil, false, map[string]any{"k": "v"}}}}},
	}
	for _, v := range values {
		var got bytes.Buffer
		if err := writeJSON(&got, v); err != nil {
			t.Fatal(err)
		}
		if want := referenceJSON(t, v); !bytes.Equal(got.Bytes(), want) {
			t.Errorf("writeJSON(%#v) =\n%s\nwant\n%s", v, got.Bytes(), want)
		}
	}
}

// FuzzIndentJSON checks the indenter against json.Indent on any valid JSON,
// compacted as encoding/json writes it, written to it whole and in pieces
// of every size from 1 to 7 bytes (a piece may end inside a string, after a
// backslash, or inside a number).
func FuzzIndentJSON(f *testing.F) {
	for _, s := range []string{`{}`, `[]`, `{"a":[1,{"b":"c\"d\\"},[]],"e":{}}`, `"\\\\\""`, `[true,false,null,-0.5e10]`,
		`["\\\"\\","a\\\\\\\"b",{"\\":"\""}]`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !json.Valid([]byte(s)) {
			return
		}
		var compact bytes.Buffer
		if err := json.Compact(&compact, []byte(s)); err != nil {
			t.Fatal(err)
		}
		var want bytes.Buffer
		if err := json.Indent(&want, compact.Bytes(), "", "  "); err != nil {
			t.Fatal(err)
		}
		src := compact.Bytes()
		for _, size := range []int{len(src), 1, 2, 3, 4, 5, 6, 7} {
			var got strings.Builder
			w := bufio.NewWriter(&got)
			d := &indenter{w: w, indent: "  "}
			for p := src; len(p) > 0; {
				n := min(size, len(p))
				d.Write(p[:n])
				p = p[n:]
			}
			w.Flush()
			if got.String() != want.String() {
				t.Fatalf("indenter(%q) in pieces of %d = %q, want %q", src, size, got.String(), want.String())
			}
		}
	})
}

// jsonTexts are strings that exercise every escape encoding/json makes.
var jsonTexts = []string{
	"", "plain", `"quoted" \back\slash\\`, "lines\nand\ttabs\r\b\f", "\x00\x01\x1f\x7f",
	"<a href=\"x\">&amp;</a>", "caf\u00e9 \u2028 \u2029 \U0001F600", "bad \xff\xfe utf-8 \xe2\x82", "\xc3",
	strings.Repeat("base64+/=\n", 100),
}

// TestJSONTextMatchesEncoder: a jsonText encodes as encoding/json encodes
// the string with SetEscapeHTML(false), byte for byte, inside a value too.
func TestJSONTextMatchesEncoder(t *testing.T) {
	for _, s := range jsonTexts {
		want := referenceJSON(t, map[string]any{"output": s, "n": 1})
		got := referenceJSON(t, map[string]any{"output": jsonText(s), "n": 1})
		if !bytes.Equal(got, want) {
			t.Errorf("jsonText(%q) = %s, want %s", s, got, want)
		}
	}
}

// FuzzJSONText checks jsonText against encoding/json on any string.
func FuzzJSONText(f *testing.F) {
	for _, s := range jsonTexts {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want := referenceJSON(t, s)
		got := referenceJSON(t, jsonText(s))
		if !bytes.Equal(got, want) {
			t.Fatalf("jsonText(%q) = %s, want %s", s, got, want)
		}
	})
}
