package project

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"sync"
	"syscall"

	"github.com/bmatcuk/doublestar/v4"
)

// Names of the ignore files read in every directory, in increasing order of
// precedence within one directory.
const (
	gitignoreName     = ".gitignore"
	taskctlignoreName = ".taskctlignore"
	infoExcludeName   = ".git/info/exclude"
	maxIgnoreFile     = 1 << 20
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
	rest      string // the doublestar pattern of what follows prefix (see ignore_wildmatch.go)
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

// ruleSet holds the rules that apply from one directory down, in increasing
// precedence: for the root, .git/info/exclude then .gitignore then
// .taskctlignore; for other directories the last two.
type ruleSet struct {
	rules []Rule
}

// chain is the stack of rule sets of a directory and its ancestors; the
// deepest comes first.
type chain struct {
	set    *ruleSet
	parent *chain
}

func (c *chain) push(s *ruleSet) *chain {
	if s == nil || len(s.rules) == 0 {
		return c
	}
	return &chain{set: s, parent: c}
}

// match returns the deciding rule for rel, or nil when no rule matches. The
// deepest file wins, and within a file the last matching line.
func (c *chain) match(rel, name string, isDir bool) *Rule {
	for n := c; n != nil; n = n.parent {
		rs := n.set.rules
		for i := len(rs) - 1; i >= 0; i-- {
			if rs[i].match(rel, name, isDir) {
				return &rs[i]
			}
		}
	}
	return nil
}

// A Matcher answers "is this path ignored, and why" for one tree, using the
// .gitignore family: .git/info/exclude, then .gitignore and .taskctlignore in
// every directory (deeper files take precedence, .taskctlignore over
// .gitignore in the same directory, and within a file the last matching line
// wins). It is usable without the walker: Match checks every ancestor
// directory first, as git does, so a file inside an ignored directory is
// ignored even when a negation names it ("logs/" then "!logs/keep.txt").
//
// It is taskctl's one ignore engine: walks, globs and Project.Ignored use
// a Matcher, and so does shellexec's git ls-files --exclude-standard (one
// from NewGitMatcher, which reads no .taskctlignore). Its decisions are
// compared with git check-ignore and git ls-files on generated trees
// (TestIgnoreDifferential). The global core.excludesFile is not read: what
// taskctl sees must not depend on the user's home directory.
//
// Ignore files are read through fsys (for a project, below the root: a
// .gitignore that is a symlink out of the project is not followed). A
// Matcher is safe for concurrent use; files are read once and cached.
type Matcher struct {
	read  func(name string) ([]byte, error) // an ignore file, as readSmall
	files []string                          // the ignore files of a directory, in increasing precedence

	mu   sync.Mutex
	sets map[string]*ruleSet
	errs []error
}

// NewMatcher returns a Matcher reading ignore files from fsys, whose root is
// the top of the tree.
func NewMatcher(fsys fs.FS) *Matcher {
	return newMatcher(func(name string) ([]byte, error) { return readSmall(fsys, name) })
}

// NewGitMatcher returns a Matcher that reads what git reads for git
// ls-files --exclude-standard and git check-ignore: .git/info/exclude and
// the .gitignore of every directory, not .taskctlignore. fsys's root is the
// top of the worktree. As with NewMatcher, core.excludesFile is not read.
func NewGitMatcher(fsys fs.FS) *Matcher {
	m := NewMatcher(fsys)
	m.files = gitFiles
	return m
}

// The ignore files of a directory, in increasing order of precedence.
var (
	taskctlFiles = []string{gitignoreName, taskctlignoreName}
	gitFiles     = []string{gitignoreName}
)

func newMatcher(read func(name string) ([]byte, error)) *Matcher {
	return &Matcher{read: read, files: taskctlFiles, sets: make(map[string]*ruleSet)}
}

// Errors returns the problems met so far reading ignore files: bad pattern
// lines (*PatternError) and unreadable files. None of them stops matching.
func (m *Matcher) Errors() []error {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]error(nil), m.errs...)
}

// Forget drops the ignore files read so far and the problems met reading
// them: the next match reads each file again.
func (m *Matcher) Forget() {
	m.mu.Lock()
	m.sets = make(map[string]*ruleSet)
	m.errs = nil
	m.mu.Unlock()
}

// forgetUnder drops the ignore files read so far in directory dir and
// below it ("" for all), so that a directory put in the place of another
// has its own read.
func (m *Matcher) forgetUnder(dir string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for d := range m.sets {
		if dir == "" || d == dir || strings.HasPrefix(d, dir) && d[len(dir)] == '/' {
			delete(m.sets, d)
		}
	}
}

// forgetDir drops the ignore files read so far in directory dir only.
func (m *Matcher) forgetDir(dir string) {
	m.mu.Lock()
	delete(m.sets, dir)
	m.mu.Unlock()
}

// dir returns the rule set of directory dir ("" for the root), reading it on
// first use.
func (m *Matcher) dir(dir string) *ruleSet {
	m.mu.Lock()
	s, ok := m.sets[dir]
	m.mu.Unlock()
	if ok {
		return s
	}
	s = &ruleSet{}
	var errs []error
	read := func(name string) {
		file := name
		if dir != "" {
			file = dir + "/" + name
		}
		data, err := m.read(file)
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				errs = append(errs, fmt.Errorf("read %s: %w", file, err))
			}
			return
		}
		rules, perrs := ParseRules(file, dir, data)
		s.rules = append(s.rules, rules...)
		errs = append(errs, perrs...)
	}
	if dir == "" {
		read(infoExcludeName)
	}
	for _, name := range m.files {
		read(name)
	}
	m.mu.Lock()
	if prev, ok := m.sets[dir]; ok {
		s = prev
	} else {
		m.sets[dir] = s
		m.errs = append(m.errs, errs...)
	}
	m.mu.Unlock()
	return s
}

// readSmall reads a regular file of at most maxIgnoreFile bytes.
func readSmall(fsys fs.FS, name string) ([]byte, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := ReadRegular(f, maxIgnoreFile)
	var tl *TooLargeError
	switch {
	case errors.As(err, &tl):
		return nil, fmt.Errorf("larger than %d bytes", maxIgnoreFile)
	case errors.Is(err, ErrNotRegular), errors.Is(err, syscall.EISDIR):
		return nil, fmt.Errorf("not a regular file")
	}
	return data, err
}

// chainFor returns the rule chain that applies inside directory dir: the
// rule sets of the root, every ancestor and dir itself.
func (m *Matcher) chainFor(dir string) *chain {
	c := (*chain)(nil).push(m.dir(""))
	if dir == "" {
		return c
	}
	for i := 0; i <= len(dir); i++ {
		if i == len(dir) || dir[i] == '/' {
			c = c.push(m.dir(dir[:i]))
		}
	}
	return c
}

// Match reports whether rel (slash-separated, relative to the root, no "."
// or ".." components) is ignored, and the rule that decided. A nil rule
// means no rule matched. When an ancestor directory is ignored, that
// directory's rule is returned.
func (m *Matcher) Match(rel string, isDir bool) (bool, *Rule) {
	rel = strings.Trim(rel, "/")
	if rel == "" || rel == "." {
		return false, nil
	}
	c := (*chain)(nil).push(m.dir(""))
	start := 0
	for i := 0; i <= len(rel); i++ {
		if i < len(rel) && rel[i] != '/' {
			continue
		}
		sub, name, last := rel[:i], rel[start:i], i == len(rel)
		start = i + 1
		r := c.match(sub, name, !last || isDir)
		if r != nil && !r.Negate {
			return true, r
		}
		if last {
			return false, r
		}
		c = c.push(m.dir(sub))
	}
	return false, nil
}

// explain renders the reason a path is ignored.
func explain(r *Rule) string {
	if r == nil {
		return ""
	}
	return r.String()
}
