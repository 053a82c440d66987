package contextgen_test

import (
	"bytes"
	"encoding/xml"
	"strings"
	"testing"

	"github.com/taskctl/taskctl/contextgen"
)

func doc(files ...*contextgen.File) *contextgen.Document {
	d := &contextgen.Document{Task: "t", Files: files}
	d.Totals.Files = len(files)
	return d
}

func TestRenderMarkdownFenceOutlastsContent(t *testing.T) {
	f := &contextgen.File{Path: "/p/README.md", Source: "literal", Content: "text\n````go\ncode\n````\n"}
	var b bytes.Buffer
	if err := doc(f).Render(&b, contextgen.StyleMarkdown); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if !strings.Contains(out, "\n`````markdown\n"+f.Content+"`````\n") {
		t.Fatalf("fence not longer than the content's backtick runs:\n%s", out)
	}
}

func TestRenderMarkdownLanguages(t *testing.T) {
	for path, lang := range map[string]string{
		"/p/a.go": "go", "/p/b.py": "python", "/p/Dockerfile": "dockerfile", "/p/Makefile": "makefile",
		"/p/x.tsx": "tsx", "/p/noext": "",
	} {
		var b bytes.Buffer
		doc(&contextgen.File{Path: path, Source: "literal", Content: "x\n"}).Render(&b, contextgen.StyleMarkdown)
		if !strings.Contains(b.String(), "\n```"+lang+"\nx\n```\n") {
			t.Errorf("%s: want language %q in\n%s", path, lang, b.String())
		}
	}
}

func TestRenderXMLEscapesAttributes(t *testing.T) {
	f := &contextgen.File{Path: "/p/a\"b<c>&d\ne.txt", Source: "literal", Content: "]]>]]>"}
	var b bytes.Buffer
	if err := doc(f).Render(&b, contextgen.StyleXML); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Files []struct {
			Path    string `xml:"path,attr"`
			Content string `xml:",chardata"`
		} `xml:"file"`
	}
	if err := xml.Unmarshal(b.Bytes(), &got); err != nil {
		t.Fatalf("%v\n%s", err, b.String())
	}
	if len(got.Files) != 1 || got.Files[0].Path != f.Path || got.Files[0].Content != f.Content {
		t.Fatalf("read back %+v, want path %q content %q", got.Files, f.Path, f.Content)
	}
}

func TestRenderPlainAndBinary(t *testing.T) {
	var b bytes.Buffer
	doc(&contextgen.File{Path: "/p/a.txt", Content: "no newline"},
		&contextgen.File{Path: "/p/b.png", Binary: true, Bytes: 12}).Render(&b, contextgen.StylePlain)
	want := "==> /p/a.txt <==\nno newline\n\n==> /p/b.png <==\n(binary file, 12 bytes, content omitted)\n"
	if b.String() != want {
		t.Fatalf("plain:\n%q\nwant\n%q", b.String(), want)
	}
	if err := doc().Render(&b, "html"); err == nil {
		t.Fatal("unknown style accepted")
	}
}

func TestRenderXMLReplacesWhatXMLCannotCarry(t *testing.T) {
	for _, tc := range []struct {
		content, want string
		replaced      int
	}{
		{"plain text, long enough for whole words\n", "plain text, long enough for whole words\n", 0},
		// A parser reads a carriage return back as a newline (XML 1.0 §2.11).
		{"tab\tnewline\ncr\r and U+FFFD \uFFFD are fine", "tab\tnewline\ncr\n and U+FFFD \uFFFD are fine", 0},
		{"a NUL \x00 and an ESC \x1b in a longer line", "a NUL \uFFFD and an ESC \uFFFD in a longer line", 2},
		{"0123456\x01", "0123456\uFFFD", 1},
		{"U+FFFE \uFFFE, U+FFFF \uFFFF, U+FEFF \uFEFF", "U+FFFE \uFFFD, U+FFFF \uFFFD, U+FEFF \uFEFF", 2},
		{"bad UTF-8 \xff\xfe here", "bad UTF-8 \uFFFD\uFFFD here", 2},
		// Long enough for whole blocks of 32 bytes and words of 8.
		{strings.Repeat("word ", 8) + "\xe2\x82 cut short " + strings.Repeat("word ", 8), strings.Repeat("word ", 8) + "\uFFFD\uFFFD cut short " + strings.Repeat("word ", 8), 2},
		{strings.Repeat("word ", 8) + "é and € are fine " + strings.Repeat("word ", 8), strings.Repeat("word ", 8) + "é and € are fine " + strings.Repeat("word ", 8), 0},
		{"]]>x]]]>y]]", "]]>x]]]>y]]", 0},
	} {
		var b bytes.Buffer
		if err := doc(&contextgen.File{Path: "/p/a", Source: "literal", Content: tc.content}).Render(&b, contextgen.StyleXML); err != nil {
			t.Fatal(err)
		}
		var got struct {
			Files []struct {
				Replaced int    `xml:"replaced,attr"`
				Content  string `xml:",chardata"`
			} `xml:"file"`
		}
		if err := xml.Unmarshal(b.Bytes(), &got); err != nil {
			t.Fatalf("%q: %v\n%s", tc.content, err, b.String())
		}
		if len(got.Files) != 1 || got.Files[0].Content != tc.want || got.Files[0].Replaced != tc.replaced {
			t.Errorf("Render(%q) read back %+v, want %q replaced=%d", tc.content, got.Files, tc.want, tc.replaced)
		}
	}
}
