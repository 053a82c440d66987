package contextgen

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Styles a document renders in.
const (
	StyleXML      = "xml"
	StyleMarkdown = "markdown"
	StylePlain    = "plain"
)

// Render writes d in style to w.
func (d *Document) Render(w io.Writer, style string) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	switch style {
	case StyleXML, "":
		d.renderXML(bw)
	case StyleMarkdown:
		d.renderMarkdown(bw)
	case StylePlain:
		d.renderPlain(bw)
	default:
		return fmt.Errorf("unknown style %q: want xml, markdown or plain", style)
	}
	return bw.Flush()
}

func (d *Document) renderXML(w *bufio.Writer) {
	d.xmlHeader(w)
	for _, f := range d.Files {
		content, replaced, split := f.xmlContent, f.xmlReplaced, f.xmlSplit
		if f.xmlOf != f.Content {
			content, replaced = xmlSafe(f.Content)
			split = strings.Contains(content, cdataEnd)
		}
		xmlFileOpen(w, f, replaced)
		if f.Binary {
			continue
		}
		if split {
			writeCDATA(w, content)
		} else {
			w.WriteString(content)
		}
		w.WriteString(xmlFileClose)
	}
	d.writeOmitted(w, StyleXML)
	w.WriteString(xmlFooter)
}

const (
	cdataEnd     = "]]>"
	xmlFileClose = "]]></file>\n"
	xmlFooter    = "</context>\n"
)

func (d *Document) xmlHeader(w *bufio.Writer) {
	w.WriteString(`<context task="`)
	xmlAttr(w, d.Task)
	if d.Root != "" {
		w.WriteString(`" root="`)
		xmlAttr(w, d.Root)
	}
	fmt.Fprintf(w, `" files="%d" bytes="%d"`, d.Totals.Files, d.Totals.Bytes)
	if d.Totals.Tokens != nil {
		fmt.Fprintf(w, ` tokens="%d" tokenizer="`, *d.Totals.Tokens)
		xmlAttr(w, d.Tokenizer)
		w.WriteString(`"`)
	}
	w.WriteString(">\n")
	d.xmlPreamble(w)
}

// xmlFileOpen writes f's <file> tag up to its content (a binary file's
// whole, empty element); replaced is the count of characters XML cannot
// carry in its content.
func xmlFileOpen(w *bufio.Writer, f *File, replaced int) {
	w.WriteString(`<file path="`)
	xmlAttr(w, f.shownPath())
	w.WriteString(`" source="`)
	xmlAttr(w, string(f.Source))
	w.WriteString(`"`)
	if f.Score != nil {
		fmt.Fprintf(w, ` score="%s"`, strconv.FormatFloat(*f.Score, 'f', 4, 64))
	}
	writeInt(w, ` bytes="`, f.Bytes)
	writeInt(w, `" lines="`, int64(f.Lines))
	w.WriteByte('"')
	if f.Tokens != nil {
		writeInt(w, ` tokens="`, int64(*f.Tokens))
		w.WriteByte('"')
	}
	if f.Truncated {
		w.WriteString(` truncated="true"`)
	}
	if f.Binary {
		w.WriteString(" binary=\"true\"/>\n")
		return
	}
	if f.Encoding != "" && f.Encoding != "utf-8" {
		w.WriteString(` encoding="`)
		xmlAttr(w, f.Encoding)
		w.WriteString(`"`)
	}
	if replaced > 0 {
		fmt.Fprintf(w, ` replaced="%d"`, replaced)
	}
	w.WriteString("><![CDATA[")
}

// writeCDATA writes s as CDATA content: "]]>" cannot appear inside a CDATA
// section, so the section ends after each "]]" of one and a new one starts
// before its ">".
func writeCDATA(w *bufio.Writer, s string) {
	for {
		i := strings.Index(s, cdataEnd)
		if i < 0 {
			w.WriteString(s)
			return
		}
		w.WriteString(s[:i+2])
		w.WriteString("]]><![CDATA[")
		s = s[i+2:]
	}
}

// writeInt writes prefix and n in decimal.
func writeInt(w *bufio.Writer, prefix string, n int64) {
	w.WriteString(prefix)
	w.Write(strconv.AppendInt(w.AvailableBuffer(), n, 10))
}

// xmlAttr writes s escaped for a double-quoted attribute.
func xmlAttr(w *bufio.Writer, s string) {
	s, _ = xmlSafe(s)
	if !strings.ContainsAny(s, "&<>\"\n\r\t") {
		w.WriteString(s)
		return
	}
	for _, r := range s {
		switch r {
		case '&':
			w.WriteString("&amp;")
		case '<':
			w.WriteString("&lt;")
		case '>':
			w.WriteString("&gt;")
		case '"':
			w.WriteString("&quot;")
		case '\n':
			w.WriteString("&#xA;")
		case '\r':
			w.WriteString("&#xD;")
		case '\t':
			w.WriteString("&#x9;")
		default:
			w.WriteRune(r)
		}
	}
}

// xmlSafe replaces characters XML 1.0 cannot carry (most C0 controls,
// surrogates, U+FFFE/U+FFFF, invalid UTF-8) with U+FFFD and counts them.
// XMLReplaced is how many characters of f's content the XML style shows as
// U+FFFD, because XML 1.0 cannot carry them (C0 controls other than tab,
// newline and carriage return, such as ESC or form feed; U+FFFE, U+FFFF).
func (f *File) XMLReplaced() int {
	if f.xmlOf == f.Content {
		return f.xmlReplaced
	}
	_, n := xmlSafe(f.Content)
	return n
}

func xmlSafe(s string) (string, int) {
	// Fast path: ASCII without C0 controls (other than tab, newline and
	// carriage return), or valid UTF-8 that cannot hold U+FFFE/U+FFFF (their
	// encodings start with 0xEF).
	if clean, ascii := xmlClean(s); clean && utf8.ValidString(s[ascii:]) {
		return s, 0
	}
	bad := 0
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if !xmlChar(r, size) {
			bad++
		}
		i += size
	}
	if bad == 0 {
		return s, 0
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if xmlChar(r, size) {
			b.WriteString(s[i : i+size])
		} else {
			b.WriteRune(utf8.RuneError)
		}
		i += size
	}
	return b.String(), bad
}

// xmlClean reports whether s has no byte below 0x20 other than tab, newline
// and carriage return, and no 0xEF, and how long a prefix of it is ASCII
// (and so valid UTF-8 without a further look; it stops at a multiple of 8
// bytes, so at a character's first byte). It tests eight bytes at a time,
// without branching on what they hold (text is full of tabs and newlines,
// which would make such branches unpredictable), and 32 bytes that are all
// ASCII, as most of a source file is, with the cheaper test of asciiBad.
func xmlClean(s string) (clean bool, ascii int) {
	i, ascii := 0, -1
	for ; i+32 <= len(s); i += 32 {
		w0, w1, w2, w3 := load64(s, i), load64(s, i+8), load64(s, i+16), load64(s, i+24)
		if (w0|w1|w2|w3)&highs == 0 {
			if asciiBad(w0)|asciiBad(w1)|asciiBad(w2)|asciiBad(w3) != 0 {
				return false, 0
			}
			continue
		}
		if wordBad(w0)|wordBad(w1)|wordBad(w2)|wordBad(w3) != 0 {
			return false, 0
		}
		if ascii < 0 {
			ascii = i
		}
	}
	for ; i+8 <= len(s); i += 8 {
		w := load64(s, i)
		if wordBad(w) != 0 {
			return false, 0
		}
		if w&highs != 0 && ascii < 0 {
			ascii = i
		}
	}
	for ; i < len(s); i++ {
		if c := s[i]; c < 0x20 && c != '\t' && c != '\n' && c != '\r' || c == 0xEF {
			return false, 0
		} else if c >= utf8.RuneSelf && ascii < 0 {
			ascii = i
		}
	}
	if ascii < 0 {
		ascii = len(s)
	}
	return true, ascii
}

// load64 is the eight bytes of s from i (i+8 <= len(s)), little-endian.
func load64(s string, i int) uint64 {
	b := s[i : i+8]
	return uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 |
		uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56
}

// wordBad sets the high bit of each byte of w that xmlClean refuses.
func wordBad(w uint64) uint64 {
	below := ^((w & lows) + 0x60*ones | w) & highs
	allowed := zeroBytes(w^'\t'*ones) | zeroBytes(w^'\n'*ones) | zeroBytes(w^'\r'*ones)
	return below&^allowed | zeroBytes(w^0xEF*ones)
}

// asciiBad is wordBad for a w whose bytes are all ASCII, where adding to a
// byte cannot carry into the next: a byte's high bit after adding 0x80-n
// says whether it is at least n, so a byte is below 0x20, 9 or 10, or 13 by
// the difference of two such sums.
func asciiBad(w uint64) uint64 {
	below := ^(w + 0x60*ones)
	tabNewline := (w + 0x77*ones) &^ (w + 0x75*ones)
	carriageReturn := (w + 0x73*ones) &^ (w + 0x72*ones)
	return below &^ (tabNewline | carriageReturn) & highs
}

const (
	ones  = 0x0101010101010101
	lows  = 0x7F7F7F7F7F7F7F7F
	highs = 0x8080808080808080
)

// zeroBytes sets the high bit of each byte of the result whose byte in x is
// zero, exactly (no carry crosses a byte). below in xmlClean works the same
// way: a byte's low seven bits plus 0x60 stay below 0x80 if it is below 0x20.
func zeroBytes(x uint64) uint64 {
	return ^((x & lows) + lows | x) & highs
}

func xmlChar(r rune, size int) bool {
	if r == utf8.RuneError && size == 1 {
		return false
	}
	switch {
	case r == 0x9 || r == 0xA || r == 0xD:
		return true
	case r >= 0x20 && r <= 0xD7FF:
		return true
	case r >= 0xE000 && r <= 0xFFFD:
		return true
	case r >= 0x10000 && r <= 0x10FFFF:
		return true
	}
	return false
}

func (d *Document) renderMarkdown(w *bufio.Writer) {
	d.markdownHeader(w)
	for _, f := range d.Files {
		fence := markdownFileOpen(w, f)
		if f.Binary {
			continue
		}
		w.WriteString(f.Content)
		markdownFileClose(w, f, fence)
	}
	d.writeOmitted(w, StyleMarkdown)
}

func (d *Document) markdownHeader(w *bufio.Writer) {
	fmt.Fprintf(w, "# Context: %s\n\n", orDash(d.Task))
	fmt.Fprintf(w, "%d files, %d bytes", d.Totals.Files, d.Totals.Bytes)
	if d.Totals.Tokens != nil {
		fmt.Fprintf(w, ", %d tokens (%s)", *d.Totals.Tokens, d.Tokenizer)
	}
	w.WriteString("\n")
	d.rootLine(w)
	d.markdownPreamble(w)
}

// markdownFileOpen writes f's heading, its facts and the opening fence (a
// binary file's whole entry) and returns the fence.
func markdownFileOpen(w *bufio.Writer, f *File) string {
	fmt.Fprintf(w, "\n## %s\n\n", plainPath(f.shownPath()))
	fmt.Fprintf(w, "source: %s", f.Source)
	if f.Score != nil {
		fmt.Fprintf(w, ", score %.4f", *f.Score)
	}
	if f.Tokens != nil {
		fmt.Fprintf(w, ", %d tokens", *f.Tokens)
	}
	if f.Truncated {
		w.WriteString(", truncated")
	}
	w.WriteString("\n\n")
	if f.Binary {
		fmt.Fprintf(w, "(binary file, %d bytes, content omitted)\n", f.Bytes)
		return ""
	}
	fence := strings.Repeat("`", max(3, longestRun(f.Content, '`')+1))
	fmt.Fprintf(w, "%s%s\n", fence, language(f.Path))
	return fence
}

func markdownFileClose(w *bufio.Writer, f *File, fence string) {
	if f.Content != "" && !strings.HasSuffix(f.Content, "\n") {
		w.WriteString("\n")
	}
	fmt.Fprintf(w, "%s\n", fence)
}

// renderPlain writes the plain style: each file after a "==> path <=="
// line, as head(1) prints files. A line that starts with "==>" is always
// one of taskctl's: a content line that would start so is escaped
// (writePlainContent) and a path is quoted when it holds a control
// character (plainPath), so no file can forge another's header or the
// list of files left out.
func (d *Document) renderPlain(w *bufio.Writer) {
	d.plainHeader(w)
	for i, f := range d.Files {
		plainFileOpen(w, f, i > 0)
		if f.Binary {
			continue
		}
		writePlainContent(w, f.Content)
		plainFileClose(w, f)
	}
	d.writeOmitted(w, StylePlain)
}

// writePlainContent writes s with one more backslash before each line
// that starts with "==>" after any number of backslashes (a line
// `==> x <==` is written `\==> x <==`, and `\==>` is written `\\==>`), so
// that a reader takes only taskctl's lines for headers and gets s back by
// removing one backslash from each line that starts with backslashes and
// "==>". A line starts after any line break a reader may split at (see
// afterBreak), not only "\n".
func writePlainContent(w plainWriter, s string) {
	done := 0 // s[:done] is written
	plainEscapes(s, func(i int) {
		w.WriteString(s[done:i])
		w.WriteByte('\\')
		done = i
	})
	w.WriteString(s[done:])
}

// plainWriter is what writePlainContent writes to: the document's
// bufio.Writer, or a bytes.Buffer when the budget counts escaped content.
type plainWriter interface {
	WriteString(string) (int, error)
	WriteByte(byte) error
}

// plainEscapes calls at with the start of each line of s that the plain
// style escapes, in order.
func plainEscapes(s string, at func(i int)) {
	for from := 0; ; {
		i := strings.Index(s[from:], "==>")
		if i < 0 {
			return
		}
		i += from
		from = i + 3
		start := i
		for start > 0 && s[start-1] == '\\' {
			start--
		}
		if start == 0 || afterBreak(s[:start]) {
			at(start)
		}
	}
}

// afterBreak reports whether s ends in a line break: "\n", or one that
// some reader of the document splits lines at too, "\r" (universal
// newlines) or any other break Python's str.splitlines knows (VT, FF, the
// separators FS, GS and RS, NEL, U+2028 and U+2029).
func afterBreak(s string) bool {
	switch s[len(s)-1] {
	case '\n', '\r', '\v', '\f', 0x1c, 0x1d, 0x1e:
		return true
	}
	return strings.HasSuffix(s, "\u0085") || strings.HasSuffix(s, "\u2028") || strings.HasSuffix(s, "\u2029")
}

// plainPath is p as the plain and markdown styles name it: quoted, as in
// Go, when it holds a character that is not printed as itself (a newline
// would end the header line and start one of the file's choosing; ESC
// starts a terminal's escape sequence; a bidirectional control reorders
// the name): strconv.Quote shows each escaped.
func plainPath(p string) string {
	if strings.ContainsFunc(p, notPrinted) {
		return strconv.Quote(p)
	}
	return p
}

// notPrinted reports whether r is not printed as itself: a control, a
// bidirectional control, any rune strconv.Quote escapes.
func notPrinted(r rune) bool { return !strconv.IsPrint(r) }

// writeOmitted writes the list of files left out, if any: path and code,
// for the first d.Listed of them (all if negative), and how many more.
func (d *Document) writeOmitted(w *bufio.Writer, style string) {
	if len(d.Omitted) == 0 || d.Listed == listNone {
		return
	}
	list := d.Omitted
	if d.Listed >= 0 && d.Listed < len(list) {
		list = list[:d.Listed]
	}
	open, closing := omittedParts(style, len(d.Omitted), len(list))
	w.WriteString(open)
	for _, o := range list {
		o.Path = d.shownOmitted(o.Path)
		writeOmission(w, o, style)
	}
	w.WriteString(closing)
}

// omittedParts returns what opens and closes the list of files left out,
// of which listed are listed.
func omittedParts(style string, files, listed int) (string, string) {
	more := ""
	if listed < files {
		more = fmt.Sprintf("(%d more, not listed within the token budget; the warnings name them all)\n", files-listed)
	}
	switch style {
	case StyleMarkdown:
		return "\n## Left out\n\n", more
	case StylePlain:
		return "\n==> left out <==\n", more
	}
	if listed < files {
		return fmt.Sprintf("<omitted files=\"%d\" listed=\"%d\">\n", files, listed), "</omitted>\n"
	}
	return fmt.Sprintf("<omitted files=\"%d\">\n", files), "</omitted>\n"
}

func writeOmission(w *bufio.Writer, o Omission, style string) {
	switch style {
	case StyleMarkdown:
		fmt.Fprintf(w, "- %s (%s)\n", plainPath(o.Path), o.Code)
	case StylePlain:
		fmt.Fprintf(w, "%s (%s)\n", plainPath(o.Path), o.Code)
	default:
		w.WriteString(`<omitted_file path="`)
		xmlAttr(w, plainPath(o.Path))
		w.WriteString(`" code="`)
		xmlAttr(w, string(o.Code))
		w.WriteString("\"/>\n")
	}
}

// omittedText returns the list of files left out as written with the
// first k entries listed.
func (d *Document) omittedText(style string, k int) []byte {
	var b bytes.Buffer
	w := bufio.NewWriterSize(&b, 4096)
	dd := *d
	dd.Listed = k
	dd.writeOmitted(w, style)
	w.Flush()
	return b.Bytes()
}

// plainHeader writes the totals when tokens are counted and the root
// when paths are relative to it; a document without either starts with
// its first file, as head(1) prints files.
func (d *Document) plainHeader(w *bufio.Writer) {
	if d.Totals.Tokens != nil {
		fmt.Fprintf(w, "%d files, %d bytes, %d tokens (%s)\n", d.Totals.Files, d.Totals.Bytes, *d.Totals.Tokens, d.Tokenizer)
	}
	d.rootLine(w)
	if d.Totals.Tokens != nil || d.Root != "" {
		w.WriteString("\n")
	}
	d.plainPreamble(w)
}

// plainFileOpen writes f's "==> path <==" line (a binary file's whole
// entry), after a blank line unless f comes first. What is known of the
// file goes on that line, in parentheses, where content cannot forge it:
// its token count, that it was truncated, or that it is binary.
func plainFileOpen(w *bufio.Writer, f *File, sep bool) {
	if sep {
		w.WriteString("\n")
	}
	fmt.Fprintf(w, "==> %s <==", plainPath(f.shownPath()))
	var facts []string
	if f.Tokens != nil {
		facts = append(facts, fmt.Sprintf("%d tokens", *f.Tokens))
	}
	if f.Truncated {
		facts = append(facts, "truncated")
	}
	if f.Binary {
		facts = append(facts, fmt.Sprintf("binary file, %d bytes, content omitted", f.Bytes))
	}
	if len(facts) > 0 {
		fmt.Fprintf(w, " (%s)", strings.Join(facts, ", "))
	}
	w.WriteString("\n")
}

func plainFileClose(w *bufio.Writer, f *File) {
	if f.Content != "" && !strings.HasSuffix(f.Content, "\n") {
		w.WriteString("\n")
	}
}

// markup returns what style writes around f's content: its tag or
// heading with the path and facts, and what closes it. It writes into mb
// and returns its bytes, which the next call overwrites.
func (f *File) markup(style string, mb *markupBuffer) []byte {
	w := mb.reset()
	switch style {
	case StyleMarkdown:
		if fence := markdownFileOpen(w, f); !f.Binary {
			markdownFileClose(w, f, fence)
		}
	case StylePlain:
		plainFileOpen(w, f, true)
		if !f.Binary {
			plainFileClose(w, f)
		}
	default:
		xmlFileOpen(w, f, f.xmlReplaced)
		if !f.Binary {
			w.WriteString(xmlFileClose)
		}
	}
	w.Flush()
	return mb.b.Bytes()
}

// markupBuffer is where markup writes: one for each read worker, reused
// from file to file, since a file's markup is only counted. (A buffer a
// file made the collector-less heap grow by a fresh page every few files.)
type markupBuffer struct {
	b bytes.Buffer
	w *bufio.Writer
}

// reset empties mb and returns its writer.
func (mb *markupBuffer) reset() *bufio.Writer {
	mb.b.Reset()
	if mb.w == nil {
		mb.w = bufio.NewWriterSize(&mb.b, 512)
	} else {
		mb.w.Reset(&mb.b)
	}
	return mb.w
}

// frame returns what style writes before the first file and after the
// last.
func (d *Document) frame(style string) []byte {
	var b bytes.Buffer
	b.Grow(len(d.tree) + len(d.Description) + len(d.Instructions) + 1<<10) // not grown a tree's length at a time
	w := bufio.NewWriterSize(&b, 512)
	switch style {
	case StyleMarkdown:
		d.markdownHeader(w)
	case StylePlain:
		d.plainHeader(w)
	default:
		d.xmlHeader(w)
		w.WriteString(xmlFooter)
	}
	d.writeOmitted(w, style)
	w.Flush()
	return b.Bytes()
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func longestRun(s string, c byte) int {
	best, cur := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			cur++
			best = max(best, cur)
		} else {
			cur = 0
		}
	}
	return best
}

var languages = map[string]string{
	".go": "go", ".py": "python", ".js": "javascript", ".mjs": "javascript", ".cjs": "javascript",
	".ts": "typescript", ".tsx": "tsx", ".jsx": "jsx", ".rs": "rust", ".java": "java", ".kt": "kotlin",
	".c": "c", ".h": "c", ".cc": "cpp", ".cpp": "cpp", ".hpp": "cpp", ".cs": "csharp", ".rb": "ruby",
	".php": "php", ".swift": "swift", ".sh": "bash", ".bash": "bash", ".zsh": "zsh", ".fish": "fish",
	".md": "markdown", ".json": "json", ".yaml": "yaml", ".yml": "yaml", ".toml": "toml", ".xml": "xml",
	".xsd": "xml", ".html": "html", ".css": "css", ".scss": "scss", ".sql": "sql", ".proto": "protobuf",
	".tf": "hcl", ".hcl": "hcl", ".lua": "lua", ".r": "r", ".scala": "scala", ".txtar": "text",
	".mod": "go-mod", ".dockerfile": "dockerfile", ".ini": "ini", ".cfg": "ini", ".txt": "text",
}

func language(p string) string {
	base := strings.ToLower(path.Base(p))
	switch base {
	case "dockerfile":
		return "dockerfile"
	case "makefile", "gnumakefile":
		return "makefile"
	}
	return languages[strings.ToLower(path.Ext(base))]
}

// rootSuffix ends the line that names the root of a document's relative
// paths in the markdown and plain styles; IsDocument knows the line by it.
const rootSuffix = " (the paths below are relative to it)"

// rootLine writes the line that names the project root once, when the
// document's paths are relative to it (the XML style has a root attribute).
func (d *Document) rootLine(w *bufio.Writer) {
	if d.Root == "" {
		return
	}
	w.WriteString("root: ")
	w.WriteString(plainPath(d.Root))
	w.WriteString(rootSuffix + "\n")
}

// shownPath is the path the rendered document gives f: relative to the
// project root (Options.Relative), or absolute.
func (f *File) shownPath() string {
	if f.relative {
		return f.Rel
	}
	return f.Path
}

// shownOmitted is the path the rendered list of files left out gives the
// absolute path p: relative to the root when the document's paths are and
// p lies inside it.
func (d *Document) shownOmitted(p string) string {
	if d.Root == "" {
		return p
	}
	if rel, err := filepath.Rel(d.Root, p); err == nil && rel != ".." && !strings.HasPrefix(rel, "../") && !filepath.IsAbs(rel) {
		return filepath.ToSlash(rel)
	}
	return p
}
