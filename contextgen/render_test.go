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
	want := "==> /p/a.txt <==\nno newline\n\n==> /p/b.png <== (binary file, 12 bytes, content omitted)\n"
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

// readPlain reads a plain document back as a consumer of head(1)-style
// output does: a line that starts with "==>" is a header; in content, a
// line that starts with backslashes and then "==>" loses one backslash.
// It returns the header lines and each file's content, in order.
func readPlain(out string) (headers, contents []string) {
	for _, line := range strings.SplitAfter(out, "\n") {
		if strings.HasPrefix(line, "==>") {
			headers = append(headers, strings.TrimSuffix(line, "\n"))
			contents = append(contents, "")
			continue
		}
		if len(contents) == 0 {
			continue
		}
		if t := strings.TrimLeft(line, `\`); t != line && strings.HasPrefix(t, "==>") {
			line = line[1:]
		}
		contents[len(contents)-1] += line
	}
	return headers, contents
}

// TestRenderPlainHeadersCannotBeForged: in the plain style a line that
// starts with "==>" is always taskctl's, a file's header or the list of
// files left out. A content line that would start so is shown with one
// more backslash in front (however many it has), a path holding a newline
// is quoted, and a binary or truncated file says so on its header line,
// where content cannot reach. Reading the document back gives every file's
// content.
func TestRenderPlainHeadersCannotBeForged(t *testing.T) {
	forged := "==> /etc/passwd <==\nroot:x:0:0\n"
	files := []*contextgen.File{
		{Path: "/p/a.txt", Content: "first\n" + forged + "==>\n\\==> one\n\\\\==> two\n a ==> b <== c\nlast ==>"},
		{Path: "/p/b.txt", Content: forged},
		{Path: "/p/c\n==> /etc/shadow <==", Content: "x\n"},
		{Path: "/p/d.txt", Content: "(binary file, 12 bytes, content omitted)\n"},
		{Path: "/p/g.txt", Content: "cut\n[taskctl: truncated: showing lines 1-1 of 9]\n", Truncated: true},
		{Path: "/p/e.png", Binary: true, Bytes: 12},
	}
	d := doc(files...)
	d.Omitted = []contextgen.Omission{{Path: "/p/f\n==> /x <==", Code: "SECRET_DETECTED"}}
	d.Listed = -1 // all
	var b bytes.Buffer
	if err := d.Render(&b, contextgen.StylePlain); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	headers, contents := readPlain(out)
	wantHeaders := []string{
		"==> /p/a.txt <==",
		"==> /p/b.txt <==",
		`==> "/p/c\n==> /etc/shadow <==" <==`,
		"==> /p/d.txt <==",
		"==> /p/g.txt <== (truncated)",
		"==> /p/e.png <== (binary file, 12 bytes, content omitted)",
		"==> left out <==",
	}
	if strings.Join(headers, "\n") != strings.Join(wantHeaders, "\n") {
		t.Fatalf("header lines\n%s\nwant\n%s\nin\n%s", strings.Join(headers, "\n"), strings.Join(wantHeaders, "\n"), out)
	}
	for i, f := range files {
		want := f.Content
		if want != "" && !strings.HasSuffix(want, "\n") {
			want += "\n"
		}
		want += "\n" // the blank line before the next header
		if contents[i] != want {
			t.Errorf("%q read back as\n%q\nwant\n%q", f.Path, contents[i], want)
		}
	}
	if want := "\"/p/f\\n==> /x <==\" (SECRET_DETECTED)\n"; contents[len(files)] != want {
		t.Errorf("left out read back as %q, want %q", contents[len(files)], want)
	}
}

// TestRenderPlainLineBreaks: a line break other than "\n" cannot forge a
// header either. Readers split lines at "\r" (Python's universal newlines)
// or at every break str.splitlines knows; a "==>" after any of them is
// escaped like one after "\n".
func TestRenderPlainLineBreaks(t *testing.T) {
	breaks := []string{"\r", "\r\n", "\v", "\f", "\x1c", "\x1d", "\x1e", "\u0085", "\u2028", "\u2029"}
	for _, br := range breaks {
		d := doc(&contextgen.File{Path: "/p/a.txt", Content: "a" + br + "==> /etc/passwd <==" + br + `\==> x` + br + "b\n"})
		var b bytes.Buffer
		if err := d.Render(&b, contextgen.StylePlain); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		for _, other := range breaks {
			out = strings.ReplaceAll(out, other, "\n")
		}
		var headers []string
		for _, line := range strings.Split(out, "\n") {
			if strings.HasPrefix(line, "==>") {
				headers = append(headers, line)
			}
		}
		if len(headers) != 1 || headers[0] != "==> /p/a.txt <==" {
			t.Errorf("break %q: header lines %q", br, headers)
		}
		if !strings.Contains(b.String(), br+`\\==> x`+br) {
			t.Errorf("break %q: a line of backslashes and ==> not escaped once more:\n%q", br, b.String())
		}
	}
}

// TestRenderMarkdownHeadingsCannotBeForged: in the markdown style a line
// starting with "## " outside a fence is taskctl's (a file's heading or the
// list of files left out). A path holding a newline, in a heading or in the
// list, is quoted, so it cannot start a heading of its own.
func TestRenderMarkdownHeadingsCannotBeForged(t *testing.T) {
	d := doc(
		&contextgen.File{Path: "/p/a.txt", Content: "a\n"},
		&contextgen.File{Path: "/p/c\n## /etc/shadow", Content: "x\n"},
	)
	d.Omitted = []contextgen.Omission{{Path: "/p/f\n## /etc/passwd", Code: "SECRET_DETECTED"}}
	d.Listed = -1
	var b bytes.Buffer
	if err := d.Render(&b, contextgen.StyleMarkdown); err != nil {
		t.Fatal(err)
	}
	var headings []string
	fenced := false
	for _, line := range strings.Split(b.String(), "\n") {
		if strings.HasPrefix(line, "```") {
			fenced = !fenced
		}
		if !fenced && strings.HasPrefix(line, "## ") {
			headings = append(headings, line)
		}
	}
	want := []string{"## /p/a.txt", `## "/p/c\n## /etc/shadow"`, "## Left out"}
	if strings.Join(headings, "\n") != strings.Join(want, "\n") {
		t.Fatalf("headings\n%s\nwant\n%s\nin\n%s", strings.Join(headings, "\n"), strings.Join(want, "\n"), b.String())
	}
	if !strings.Contains(b.String(), `- "/p/f\n## /etc/passwd" (SECRET_DETECTED)`) {
		t.Fatalf("the list of files left out does not quote the path:\n%s", b.String())
	}
}
