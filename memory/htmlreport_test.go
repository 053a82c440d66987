package memory_test

import (
	"slices"
	"testing"

	"github.com/taskctl/taskctl/memory"
)

// A report exported as HTML (Jira's page) is read as its text: an escaped
// frame (TarArchiveEntry.&lt;init&gt;) no longer cuts the stack trace, so
// its innermost frame, TarUtils.parseOctal, is found and lifted above the
// files the reporter called; --explain says the report was read so.
func TestHTMLReportStackTrace(t *testing.T) {
	pkg := "package org.apache.commons.compress.archivers.tar;\n"
	root := writeTree(t, withFiller(map[string]string{
		"src/main/java/org/apache/commons/compress/archivers/tar/TarUtils.java": pkg +
			"class TarUtils {\n  static long parseOctal(byte[] buffer, int offset, int length) { return 0; }\n" +
			"  static long parseOctalOrBinary(byte[] buffer, int offset, int length) { return parseOctal(buffer, offset, length); }\n}\n",
		"src/main/java/org/apache/commons/compress/archivers/tar/TarArchiveEntry.java": pkg +
			"class TarArchiveEntry {\n  TarArchiveEntry(byte[] header) { parseTarHeader(header); }\n" +
			"  void parseTarHeader(byte[] header) { userId = TarUtils.parseOctalOrBinary(header, 0, 8); }\n  long userId;\n}\n",
		"src/main/java/org/apache/commons/compress/archivers/tar/TarArchiveInputStream.java": pkg +
			"class TarArchiveInputStream {\n  TarArchiveEntry getNextTarEntry() { return new TarArchiveEntry(new byte[512]); }\n" +
			"  // reads the entry with a big user id value\n}\n",
	}))
	at := "\tat org.apache.commons.compress.archivers.tar."
	report := "TarArchiveInputStream fails to read entry with big user-id value\n\n" +
		"<div class=\"user-content-block\">\n<p>Caused by: java.lang.IllegalArgumentException: Invalid byte 52 at offset 7 in '62410554' len=8<br/>\n" +
		at + "TarUtils.parseOctal(TarUtils.java:130)<br/>\n" +
		at + "TarUtils.parseOctalOrBinary(TarUtils.java:175)<br/>\n" +
		at + "TarArchiveEntry.parseTarHeader(TarArchiveEntry.java:953)<br/>\n" +
		at + "TarArchiveEntry.&lt;init&gt;(TarArchiveEntry.java:324)<br/>\n" +
		at + "TarArchiveInputStream.getNextTarEntry(TarArchiveInputStream.java:247)<br/>\n" +
		"\t... 5 more</p>\n</div>\n"
	ms := searchLong(t, root, report)
	checkOnlyNoted(t, ms, "innermost traceback frame in the project", "src/main/java/org/apache/commons/compress/archivers/tar/TarUtils.java")
	if got := rels(ms); got[0] != "src/main/java/org/apache/commons/compress/archivers/tar/TarUtils.java" {
		t.Errorf("ranked %v, want TarUtils.java first", got)
	}
	if notes := ms[0].Reason.Notes; !slices.Contains(notes, "report read as text: HTML markup dropped") {
		t.Errorf("notes %v, want the report read as text", notes)
	}
}

// Only HTML is read so (two paragraph tags, or two tags of prose and an
// escaped character): a markdown report with a template's tag, tags in
// markdown's code, and a text without tags are left as they are; in HTML,
// markdown's code is kept as it is.
func TestReadHTML(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Title\n\n<div class=\"x\">\n<p>Call <tt>A.b()</tt> with &quot;x&quot;:<br/>\nat a.B.&lt;init&gt;(B.java:1)<br/>\n</p></div>\n",
			"Title\n\n\n\nCall A.b() with \"x\":\nat a.B.<init>(B.java:1)\n\n\n"},
		// Google Code's reports: bold headings and escaped quotes
		{"T\n\n<b>What steps will reproduce the problem?</b>\nIR.name(&quot;x&quot;)\n", "T\n\nWhat steps will reproduce the problem?\nIR.name(\"x\")\n"},
		{"T\n\nUse `x` in the template's <tt>name</tt> field.\n", "T\n\nUse `x` in the template's <tt>name</tt> field.\n"},
		{"T\n\n```jsx\n<p>a</p><p>b</p>\n```\n", "T\n\n```jsx\n<p>a</p><p>b</p>\n```\n"},
		{"T\n\nNo markup at all, 1 < 2 &lt; 3.\n", "T\n\nNo markup at all, 1 < 2 &lt; 3.\n"},
		// GitHub's <details> around a code block: the markup goes, the
		// code stays
		{"T\n\n<details><summary>Traceback</summary>\n<p>\n\n```\nFile \"a.py\", line 1, in <module>\n```\n\n</p>\n</details>\n",
			"T\n\nTraceback\n\n\n```\nFile \"a.py\", line 1, in <module>\n```\n\n\n\n"},
		// tags in code spans are code: a report about a renderer's output
		{"T\n\nThe `<p>` is closed by `</p>` too early &amp; twice.\n", "T\n\nThe `<p>` is closed by `</p>` too early &amp; twice.\n"},
		// addresses are no tags (a commit's trailers)
		{"T\n\nSigned-off-by: P <p@x.org>\nCo-authored-by: Q <p@y.org> &amp; <b@z.org>\n", "T\n\nSigned-off-by: P <p@x.org>\nCo-authored-by: Q <p@y.org> &amp; <b@z.org>\n"},
	} {
		if got := memory.ReadHTML(tc.in); got != tc.want {
			t.Errorf("ReadHTML(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// A markdown report that folds its traceback into GitHub's <details> (a
// <summary>, a <p>) is read as HTML, but its code block is code: the
// frames' <module> and <listcomp> stay, so the innermost frame is found.
func TestMarkdownReportWithDetails(t *testing.T) {
	root := writeTree(t, withFiller(map[string]string{
		"pkg/core.py": "def table(rows):\n    return [cell(r) for r in rows]\n\n\ndef cell(row):\n    return row.value\n",
		"pkg/cli.py":  "from pkg.core import table\n\n\ndef main(rows):\n    # prints the table of the rows\n    print(table(rows))\n",
	}))
	report := "Printing the table of rows fails with an AttributeError\n\n" +
		"When I print the table of some rows the command line stops with an error about the value.\n\n" +
		"<details><summary>Traceback</summary>\n<p>\n\n```python\nTraceback (most recent call last):\n" +
		"  File \"pkg/cli.py\", line 6, in <module>\n    print(table(rows))\n" +
		"  File \"pkg/core.py\", line 2, in <listcomp>\n    return [cell(r) for r in rows]\n" +
		"AttributeError: 'dict' object has no attribute 'value'\n```\n\n</p>\n</details>\n"
	ms := searchLong(t, root, report)
	checkOnlyNoted(t, ms, "innermost traceback frame in the project", "pkg/core.py")
}

// A request whose markup alone makes it long (a title and a sentence in a
// tracker's page) is read as it was, with the long text's rules, not as a
// short request of its text.
func TestShortTextInHTMLMarkup(t *testing.T) {
	root := writeTree(t, withFiller(map[string]string{
		"src/login.c": "/* login_retry retries a login after a timeout */\nint login_retry(int timeout) { return timeout; }\n",
	}))
	q := "<div class=\"user-content-block preformatted panel\" style=\"border-width: 1px;\">\n" +
		"<p>Login retry ignores the <span class=\"code-keyword\">timeout</span></p>\n" +
		"<p>It retries at once.</p></div>\n"
	for _, m := range searchLong(t, root, q) {
		if slices.Contains(m.Reason.Notes, "report read as text: HTML markup dropped") {
			t.Errorf("%s: notes %v, want the short text read as it was", m.Rel, m.Reason.Notes)
		}
	}
}
