package memory

import (
	"html"
	"strings"

	"github.com/taskctl/taskctl/internal/lazyregexp"
)

// A report exported from a tracker as HTML (Jira's pages, Google Code's,
// GitHub's rendered issues) carries its markup: `<p>`, `<span
// class="code-keyword">`, `&lt;init&gt;`, `&quot;`. An escaped stack
// frame (`at a.b.TarArchiveEntry.&lt;init&gt;(TarArchiveEntry.java:324)`)
// is no frame, so the trace is cut there and its innermost frame, the
// file the report names where it failed, is lost; the markup's words
// (div, span, class, pre, lt, gt, quot) are no reporter's and match the
// project's pages and Javadoc. A long text in HTML is read as its text.

var (
	// htmlMarkup is an HTML tag or comment, with the end of the line
	// that follows it.
	htmlMarkup = lazyregexp.New(`(?:<!--.*?-->|</?[A-Za-z][A-Za-z0-9]*(?:\s[^<>]*)?/?>)(?:[ \t]*\r?\n)?`)
	// htmlBlock is a tag that ends a line of the text: a paragraph, a
	// line break, a block of code, a list item, a cell.
	htmlBlock = lazyregexp.New(`^</?(?:p|div|br|pre|li|ul|ol|tr|td|th|table|blockquote|h[1-6])\b`)
	// htmlPara is a paragraph's tag, and htmlProse a tag that marks up
	// prose: no code sample and few markdown writers type them (a
	// markdown report may have a <br> or a template's <tt>)
	htmlPara  = lazyregexp.New(`(?i)</?p(?:\s[^<>]*)?/?>`)
	htmlProse = lazyregexp.New(`(?i)</?(?:p|div|br|span|pre|tt|b)(?:\s[^<>]*)?/?>`)
	// htmlEntity is an escaped character, which a markdown writer does
	// not type either
	htmlEntity = lazyregexp.New(`&(?:lt|gt|quot|amp|#\d+);`)
	// mdCode is markdown's code, a block or a span: its tags are code
	// (JSX, List<String>, a traceback's "in <module>"), not markup.
	mdCode = lazyregexp.New("(?s)```.*?(?:```|$)|`[^`\n]+`")
)

// isHTML reports whether the text q is HTML (a page's markup, not a
// markdown report's tag or two): outside markdown's code (mdCode), two
// paragraph tags, or two tags of prose and an escaped character (Google
// Code's reports: <b> and &quot;).
func isHTML(q string) bool {
	q = mdCode.Re().ReplaceAllString(q, "")
	if len(htmlPara.Re().FindAllStringIndex(q, 2)) == 2 {
		return true
	}
	return len(htmlProse.Re().FindAllStringIndex(q, 2)) == 2 && htmlEntity.Re().MatchString(q)
}

// readHTML returns the long text q as text when it is HTML (isHTML): block
// tags end lines, other tags go, and entities are unescaped; markdown's
// code (mdCode) is kept as it is, since a markdown report that folds its
// traceback into GitHub's <details><summary>…<p> is read so too. Other
// texts are returned as they are.
func readHTML(q string) string {
	if !isHTML(q) {
		return q
	}
	var b strings.Builder
	last := 0
	for _, c := range mdCode.Re().FindAllStringIndex(q, -1) {
		b.WriteString(htmlText(q[last:c[0]]))
		b.WriteString(q[c[0]:c[1]])
		last = c[1]
	}
	b.WriteString(htmlText(q[last:]))
	return b.String()
}

// htmlText returns the markup s as text: block tags end lines, other
// tags go, entities are unescaped.
func htmlText(s string) string {
	text := htmlMarkup.Re().ReplaceAllStringFunc(s, func(tag string) string {
		// a line ends once: "frame<br/>\nframe" is two lines, not
		// three, since a blank line ends a stack trace
		if htmlBlock.Re().MatchString(tag) || strings.HasSuffix(tag, "\n") {
			return "\n"
		}
		return ""
	})
	return html.UnescapeString(text)
}

// htmlNote is the note of every match of a report read as its text.
const htmlNote = "report read as text: HTML markup dropped"

// readReport returns the long text q, parsed as p, read as its text when
// it is HTML (readHTML), its parse, and whether it was read so; q and p as
// they are when it is not, or when its text alone is not long (a report
// of two sentences in a page's markup is read as before, with the long
// text's rules).
func (st *state) readReport(q string, p parsed, a *analyzer) (string, parsed, bool) {
	text := readHTML(q)
	if text == q {
		return q, p, false
	}
	if tp := parseQuery(text, a, st.dirExists); tp.long {
		return text, tp, true
	}
	return q, p, false
}
