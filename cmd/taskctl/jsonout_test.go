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

// FuzzIndentJSON checks indentJSON against json.Indent on any valid JSON,
// compacted as encoding/json writes it.
func FuzzIndentJSON(f *testing.F) {
	for _, s := range []string{`{}`, `[]`, `{"a":[1,{"b":"c\"d\\"},[]],"e":{}}`, `"\\\\\""`, `[true,false,null,-0.5e10]`} {
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
		var got strings.Builder
		w := bufio.NewWriter(&got)
		indentJSON(w, compact.Bytes(), "  ")
		w.Flush()
		if got.String() != want.String() {
			t.Fatalf("indentJSON(%q) = %q, want %q", compact.Bytes(), got.String(), want.String())
		}
	})
}
