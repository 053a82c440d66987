package ignore

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// A Rule is one pattern line of a .gitignore-family file.
type Rule struct {
	Source  string // the file, slash-separated relative to the root: ".gitignore", "sub/.taskctlignore", ".git/info/exclude"
	Line    int    // 1-based line number in Source
	Pattern string // the line as written (trailing CR removed)
	Negate  bool   // "!pattern": re-includes
	DirOnly bool   // "pattern/": matches directories only

	domain    string // the directory of Source ("" for the root and info/exclude)
	anchored  bool   // the pattern held a slash: matched against the path below domain
	kind      byte   // fast paths: kindLiteral, kindSuffix, kindPrefix, kindGlob (of the base name, or of the path if anchored)
	lit       string // kindLiteral: the pattern; kindSuffix: after its "*"; kindPrefix: before its "*"
	prefix    string // anchored: the literal start git compares as a string ("" if not anchored)
	rest      string // the doublestar pattern of what follows prefix (see wildmatch.go)
	emptyRest bool   // rest matches the empty string in git ("**/*" does, and not in doublestar)
}

const (
	kindGlob byte = iota
	kindLiteral
	kindSuffix
	kindPrefix
)

// String renders a rule as "file:line: pattern", the form used in explanations.
func (r *Rule) String() string {
	return fmt.Sprintf("%s:%d: %s", r.Source, r.Line, r.Pattern)
}

// PatternError is a line of an ignore file that could not be parsed; the line
// is skipped and the rest of the file still applies.
type PatternError struct {
	Source string
	Line   int
	Text   string
	Err    error
}

func (e *PatternError) Error() string {
	return fmt.Sprintf("%s:%d: bad pattern %q: %v", e.Source, e.Line, e.Text, e.Err)
}

func (e *PatternError) Unwrap() error { return e.Err }

// ParseRules parses the content of one .gitignore-family file with git's
// rules: blank lines and lines starting with "#" are skipped, trailing
// spaces are dropped unless the first of them is escaped with a backslash,
// "!" negates, one trailing "/" matches directories only, and a pattern
// holding a slash elsewhere is anchored to domain (the directory of the
// file, slash-separated, "" for the root). Patterns are git's wildmatch,
// byte by byte: "*", "?", "[...]" (with "!" or "^", ranges and POSIX
// classes) and "**" as a whole path component; "\" escapes; braces are
// literal. A line git accepts but that can match no path ("a[/]b") is
// skipped like a blank one.
//
// A line that is not a valid pattern (an unclosed bracket, an unknown
// class, a trailing backslash: git never matches such a line) is reported
// in the returned errors and skipped; the other rules are still returned
// (a partial error).
func ParseRules(source, domain string, data []byte) ([]Rule, []error) {
	var rules []Rule
	var errs []error
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	line := 0
	for len(data) > 0 {
		line++
		var text []byte
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			text, data = data[:i], data[i+1:]
		} else {
			text, data = data, nil
		}
		text = bytes.TrimSuffix(text, []byte("\r"))
		r, err := parseRule(string(text))
		if err != nil {
			errs = append(errs, &PatternError{Source: source, Line: line, Text: string(text), Err: err})
			continue
		}
		if r == nil {
			continue
		}
		r.Source, r.Line, r.domain = source, line, domain
		rules = append(rules, *r)
	}
	return rules, errs
}

// parseRule reads one line as git does: a comment, a blank line or a
// pattern that matches nothing is a nil rule.
func parseRule(text string) (*Rule, error) {
	if text == "" || text[0] == '#' {
		return nil, nil
	}
	r := &Rule{Pattern: text}
	p := trimTrailingSpaces(text)
	if strings.HasPrefix(p, "!") {
		r.Negate = true
		p = p[1:]
	}
	if strings.HasSuffix(p, "/") { // one slash: "a//" is anchored, and matches nothing
		r.DirOnly = true
		p = p[:len(p)-1]
	}
	if p == "" {
		return nil, nil
	}
	if strings.Contains(p, "/") {
		r.anchored = true
		p = strings.TrimPrefix(p, "/")
	}
	r.kind, r.lit = classify(p)
	rest := p
	if r.anchored {
		n := strings.IndexAny(p, `*?[\`)
		if n < 0 {
			n = len(p)
		}
		r.prefix, rest = p[:n], p[n:]
	}
	r.emptyRest = matchesEmpty(rest)
	var err error
	if r.rest, err = wildGlob(rest); err != nil {
		if errors.Is(err, errNever) {
			return nil, nil
		}
		return nil, err
	}
	return r, nil
}

// classify finds the cheap shapes of a pattern: "name", "*suffix",
// "prefix*".
func classify(p string) (byte, string) {
	const meta = `*?[\`
	if !strings.ContainsAny(p, meta) {
		return kindLiteral, p
	}
	if p[0] == '*' && !strings.ContainsAny(p[1:], meta) {
		return kindSuffix, p[1:]
	}
	if p[len(p)-1] == '*' && !strings.ContainsAny(p[:len(p)-1], meta) {
		return kindPrefix, p[:len(p)-1]
	}
	return kindGlob, ""
}

// match reports whether r matches the path rel (relative to the root, with
// base name name). The caller guarantees rel lies below r.domain.
func (r *Rule) match(rel, name string, isDir bool) bool {
	if r.DirOnly && !isDir {
		return false
	}
	s := name
	if r.anchored {
		s = rel
		if r.domain != "" {
			s = rel[len(r.domain)+1:]
		}
	}
	// The cheap shapes (a star matches no slash), then the general match.
	switch r.kind {
	case kindLiteral:
		return s == r.lit
	case kindSuffix:
		return strings.HasSuffix(s, r.lit) && !strings.Contains(s[:len(s)-len(r.lit)], "/")
	case kindPrefix:
		return strings.HasPrefix(s, r.lit) && !strings.Contains(s[len(r.lit):], "/")
	}
	return r.matchGlob(s)
}

// matchGlob is the general match of s (the base name, or the path below
// the domain if r is anchored), as git makes it: the literal start
// compared as bytes, the rest matched by its pattern.
func (r *Rule) matchGlob(s string) bool {
	rest, ok := strings.CutPrefix(s, r.prefix)
	if rest == "" {
		return ok && r.emptyRest
	}
	return ok && doublestar.MatchUnvalidated(r.rest, widen(rest))
}
