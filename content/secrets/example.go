package secrets

import (
	"bytes"
	"net/url"
	"strings"
)

// Documented examples. The two rules that judge a value by its look, not
// by a format (generic-secret and url-credentials), flag the examples of
// documentation too: flask's docs/config.rst shows
// SECRET_KEY = '192b9bdd22ab…' and requests' docs show
// http://user:pass@10.10.1.10:1080, and a file left out for an example is
// the most relevant doc lost (#32 point 4; measured on five repositories
// beside gitleaks: docs/benchmarks.md). Their findings are dropped when
// they sit where documentation shows examples, or when a URL's password is
// a placeholder word on a test host. A token of a known format (a GitHub
// token, an AWS key, a private key …) is reported wherever it is.

// weakRule reports whether rule judges a value by its look alone, or (a
// JWT) finds a format documentation shows far more often than it leaks:
// the jwt.io sample stands in every tutorial on tokens, and a real JWT
// expires.
func weakRule(rule string) bool {
	return rule == RuleGenericSecret || rule == RuleURLCredentials || rule == RuleJWT
}

// dropExamples removes the weak findings that are documented examples.
func dropExamples(data []byte, fs []Finding) []Finding {
	var blocks *exampleBlocks
	out := fs[:0]
	for _, f := range fs {
		if weakRule(f.Rule) {
			if blocks == nil {
				blocks = findExampleBlocks(data)
			}
			if blocks.holds(f.Start) || examplePrompt(data, f.Start) || inlineCode(data, f.Start, f.End) {
				continue
			}
			if f.Rule == RuleURLCredentials && placeholderURL(data, f.Start, f.End) {
				continue
			}
		}
		out = append(out, f)
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// exampleBlocks are the byte ranges of a text's example blocks: Markdown
// fenced blocks (``` or ~~~ at the start of a line, up to three spaces in)
// and reStructuredText literal blocks (the indented lines after a line that
// ends in "::", or after a code-block, code, sourcecode or prompt
// directive).
type exampleBlocks struct{ ranges [][2]int }

func (b *exampleBlocks) holds(pos int) bool {
	for _, r := range b.ranges {
		if r[0] <= pos && pos < r[1] {
			return true
		}
	}
	return false
}

// findExampleBlocks makes one pass over data's lines.
func findExampleBlocks(data []byte) *exampleBlocks {
	b := &exampleBlocks{}
	fence, fenceStart := "", 0
	literal, literalIndent, literalStart := false, 0, 0 // inside an RST block, its opener's indent
	opensLiteral := false                               // the previous non-blank line opened one
	openerIndent := 0
	for pos := 0; pos < len(data); {
		end := bytes.IndexByte(data[pos:], '\n')
		if end < 0 {
			end = len(data)
		} else {
			end += pos
		}
		line := data[pos:end]
		trimmed := bytes.TrimLeft(line, " \t")
		indent := len(line) - len(trimmed)
		blank := len(bytes.TrimSpace(line)) == 0
		switch {
		case fence != "":
			if indent <= 3 && bytes.HasPrefix(trimmed, []byte(fence)) {
				b.ranges = append(b.ranges, [2]int{fenceStart, end})
				fence = ""
			}
		case indent <= 3 && (bytes.HasPrefix(trimmed, []byte("```")) || bytes.HasPrefix(trimmed, []byte("~~~"))):
			fence, fenceStart = string(trimmed[:3]), pos
			literal = false
		case literal:
			if !blank && indent <= literalIndent {
				b.ranges = append(b.ranges, [2]int{literalStart, pos})
				literal = false
			}
		case opensLiteral && !blank && indent > openerIndent:
			literal, literalIndent, literalStart = true, openerIndent, pos
		}
		if !blank && fence == "" && !literal {
			t := strings.TrimSpace(string(trimmed))
			opensLiteral = strings.HasSuffix(t, "::") && !strings.HasSuffix(t, ":::") ||
				strings.HasPrefix(t, ".. code-block::") || strings.HasPrefix(t, ".. code::") ||
				strings.HasPrefix(t, ".. sourcecode::") || strings.HasPrefix(t, ".. prompt::")
			if opensLiteral {
				openerIndent = indent
			}
		} else if !blank && literal {
			opensLiteral = false
		}
		pos = end + 1
	}
	if literal {
		b.ranges = append(b.ranges, [2]int{literalStart, len(data)})
	}
	if fence != "" {
		b.ranges = append(b.ranges, [2]int{fenceStart, len(data)})
	}
	return b
}

// lineAt returns the line holding pos and where it starts.
func lineAt(data []byte, pos int) ([]byte, int) {
	start := bytes.LastIndexByte(data[:pos], '\n') + 1
	end := bytes.IndexByte(data[pos:], '\n')
	if end < 0 {
		end = len(data)
	} else {
		end += pos
	}
	return data[start:end], start
}

// examplePrompt reports whether the finding's line is a shell or REPL
// prompt line of a transcript ("$ export KEY=…", ">>> app.secret_key = …"):
// what documentation shows being typed.
func examplePrompt(data []byte, pos int) bool {
	line, _ := lineAt(data, pos)
	t := bytes.TrimLeft(line, " \t")
	for _, p := range []string{"$ ", "% ", ">>> ", "... ", "> "} {
		if bytes.HasPrefix(t, []byte(p)) {
			return true
		}
	}
	return false
}

// inlineCode reports whether [start, end) lies in an inline code span
// (`…` or “…“) of a prose line: one with at least three words outside
// its code spans (a Go raw string in code has none).
func inlineCode(data []byte, start, end int) bool {
	line, ls := lineAt(data, start)
	a, b := start-ls, min(end-ls, len(line))
	open := bytes.LastIndexByte(line[:a], '`')
	close := bytes.IndexByte(line[b:], '`')
	if open < 0 || close < 0 || bytes.Count(line[:a], []byte("`"))%2 == 0 {
		return false
	}
	prose := 0
	inCode := false
	for _, w := range bytes.Fields(line) {
		if bytes.Count(w, []byte("`"))%2 == 1 {
			inCode = !inCode
			continue
		}
		if !inCode && len(w) > 1 && bytes.IndexFunc(w, func(r rune) bool { return !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || r == ',' || r == '.') }) < 0 {
			prose++
		}
	}
	return prose >= 3
}

// weakPasswords are the words a URL's password is made of in examples and
// tests (user:pass@, test:secret@): a password of these words alone,
// joined by any separator, is a placeholder where the URL is not assigned
// to anything or names a test host.
var weakPasswords = map[string]bool{
	"pass": true, "passwd": true, "pwd": true, "pw": true, "secret": true, "test": true,
	"user": true, "foo": true, "bar": true, "baz": true, "qux": true,
}

// placeholderURL reports whether the URL credentials at [start, end) (the
// password) are an example: a password of weak words, in a URL that is no
// assignment's value on its line (a test's argument, a tuple of cases) or
// that names a host kept for tests and documentation. A weak password in
// a URL assigned to a name, to a real host (DATABASE_URL=…@db.internal) is
// still reported.
func placeholderURL(data []byte, start, end int) bool {
	pw, err := url.PathUnescape(string(data[start:end]))
	if err != nil {
		pw = string(data[start:end])
	}
	if user := urlUser(data, start); user != "" && strings.EqualFold(user, pw) {
		// postgres:postgres@, guest:guest@: a default account's.
		return testHost(data, end)
	}
	words := strings.FieldsFunc(strings.ToLower(pw), func(r rune) bool { return !('a' <= r && r <= 'z') })
	if len(words) == 0 || strings.ContainsFunc(pw, func(r rune) bool { return '0' <= r && r <= '9' }) {
		return false
	}
	for _, w := range words {
		if !weakPasswords[w] {
			return false
		}
	}
	return !assigned(data, start) || testHost(data, end)
}

// urlUser is the user name before the password that starts at pw.
func urlUser(data []byte, pw int) string {
	line, ls := lineAt(data, pw)
	head := line[:pw-ls-1] // up to the ':' before the password
	i := bytes.LastIndex(head, []byte("://"))
	if i < 0 {
		return ""
	}
	return string(head[i+3:])
}

// assigned reports whether the URL whose password starts at pw is the
// value of an assignment on its line: KEY=URL, key: URL, key = "URL".
func assigned(data []byte, pw int) bool {
	line, ls := lineAt(data, pw)
	i := bytes.Index(line[:pw-ls], []byte("://"))
	if i < 0 {
		return false
	}
	for i > 0 && (isWord(line[i-1]) || line[i-1] == '+' || line[i-1] == '.' || line[i-1] == '-') {
		i-- // the scheme
	}
	before := bytes.TrimRight(line[:i], " \t\"'`")
	return len(before) > 0 && (before[len(before)-1] == '=' || before[len(before)-1] == ':')
}

// testHost reports whether the host after the password ending at end is
// one kept for tests and documentation: localhost, a loopback or private
// address, a name of one label (host, proxy, hostname), a reserved name
// (example.com, *.test, *.invalid, *.localhost, *.example) or httpbin.
func testHost(data []byte, end int) bool {
	rest := data[end+1:] // after '@'
	n := 0
	for n < len(rest) && (isWord(rest[n]) || rest[n] == '.' || rest[n] == '-') {
		n++
	}
	host := strings.ToLower(string(rest[:n]))
	labels := strings.Split(host, ".")
	switch {
	case host == "" || host == "localhost" || len(labels) == 1:
		return true
	case strings.HasPrefix(host, "127.") || strings.HasPrefix(host, "10.") || strings.HasPrefix(host, "192.168."):
		return true
	case strings.HasPrefix(host, "172.") && len(labels) == 4 && labels[1] >= "16" && labels[1] <= "31" && len(labels[1]) == 2:
		return true
	}
	switch labels[len(labels)-1] {
	case "test", "invalid", "localhost", "example", "local":
		return true
	}
	for _, l := range labels {
		if l == "example" || l == "httpbin" {
			return true
		}
	}
	return false
}
