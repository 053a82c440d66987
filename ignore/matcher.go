package ignore

import (
	"fmt"
	"strings"
	"sync"
)

// Names of the ignore files read in every directory, in increasing order of
// precedence within one directory, and the cap on their size.
const (
	GitignoreName     = ".gitignore"
	TaskctlignoreName = ".taskctlignore"
	InfoExcludeName   = ".git/info/exclude" // read for the root only

	// MaxFileBytes is the largest ignore file a ReadFunc should return:
	// a larger one is an error (reported by Errors, its rules not used).
	MaxFileBytes = 1 << 20
)

// A Set holds the rules that apply from one directory down, in increasing
// precedence: for the root, .git/info/exclude then .gitignore then
// .taskctlignore; for other directories the last two.
type Set struct {
	rules []Rule
}

// NewSet returns the set of rules, in increasing precedence (the order
// ParseRules returns them for one file; a later file's rules after an
// earlier's).
func NewSet(rules ...Rule) *Set { return &Set{rules: rules} }

// A Stack is the rule sets of a directory and its ancestors, the deepest
// first; nil is the empty stack. It is immutable: Push returns a new one
// sharing its parent, so a walker hands each subdirectory the stack of its
// parent and pushes only when the subdirectory has rules of its own.
type Stack struct {
	set    *Set
	parent *Stack
}

// Push returns the stack with s on top (s itself when set is empty).
func (s *Stack) Push(set *Set) *Stack {
	if set == nil || len(set.rules) == 0 {
		return s
	}
	return &Stack{set: set, parent: s}
}

// Match returns the deciding rule for rel (the path relative to the root,
// whose base name is name, inside the directory whose stack s is), or nil
// when no rule matches. The deepest file wins, and within a file the last
// matching line. It does not look at rel's ancestors: a walker that does
// not enter an ignored directory has decided them already (Matcher.Match
// checks them).
func (s *Stack) Match(rel, name string, isDir bool) *Rule {
	for n := s; n != nil; n = n.parent {
		rs := n.set.rules
		for i := len(rs) - 1; i >= 0; i-- {
			if rs[i].match(rel, name, isDir) {
				return &rs[i]
			}
		}
	}
	return nil
}

// A ReadFunc returns the content of one ignore file, named slash-separated
// relative to the top of the tree (".gitignore", "sub/.taskctlignore",
// ".git/info/exclude"). A file that does not exist is (nil, nil); any
// error is reported by Matcher.Errors, and the file's rules are not used.
// It should refuse a file larger than MaxFileBytes or not regular. The
// ReadFunc is the matcher's only way to the files: the caller decides how
// they are opened (for a project, below its root, so a .gitignore that is
// a symlink out of the project is not followed).
type ReadFunc func(name string) ([]byte, error)

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
// from NewGit, which reads no .taskctlignore). Its decisions are compared
// with git check-ignore and git ls-files on generated trees
// (TestIgnoreDifferential in project). The global core.excludesFile is not
// read: what taskctl sees must not depend on the user's home directory.
//
// A Matcher reads each directory's ignore files through its ReadFunc on
// first use and keeps their rules until Forget. It is safe for concurrent
// use.
type Matcher struct {
	read  ReadFunc
	files []string // the ignore files of a directory, in increasing precedence

	mu   sync.Mutex
	sets map[string]*Set
	errs []error
}

// The ignore files of a directory, in increasing order of precedence.
var (
	taskctlFiles = []string{GitignoreName, TaskctlignoreName}
	gitFiles     = []string{GitignoreName}
)

// New returns a Matcher of taskctl's ignore files (.git/info/exclude,
// .gitignore, .taskctlignore), read through read.
func New(read ReadFunc) *Matcher {
	return &Matcher{read: read, files: taskctlFiles, sets: make(map[string]*Set)}
}

// NewGit returns a Matcher of what git reads for git ls-files
// --exclude-standard and git check-ignore: .git/info/exclude and the
// .gitignore of every directory, not .taskctlignore. As with New,
// core.excludesFile is not read.
func NewGit(read ReadFunc) *Matcher {
	m := New(read)
	m.files = gitFiles
	return m
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
	m.sets = make(map[string]*Set)
	m.errs = nil
	m.mu.Unlock()
}

// ForgetUnder drops the ignore files read so far in directory dir and
// below it ("" for all), so that a directory put in the place of another
// has its own read.
func (m *Matcher) ForgetUnder(dir string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for d := range m.sets {
		if dir == "" || d == dir || strings.HasPrefix(d, dir) && d[len(dir)] == '/' {
			delete(m.sets, d)
		}
	}
}

// ForgetDir drops the ignore files read so far in directory dir only.
func (m *Matcher) ForgetDir(dir string) {
	m.mu.Lock()
	delete(m.sets, dir)
	m.mu.Unlock()
}

// Dir returns the rule set of directory dir ("" for the root), reading its
// ignore files on first use.
func (m *Matcher) Dir(dir string) *Set {
	m.mu.Lock()
	s, ok := m.sets[dir]
	m.mu.Unlock()
	if ok {
		return s
	}
	s = &Set{}
	var errs []error
	read := func(name string) {
		file := name
		if dir != "" {
			file = dir + "/" + name
		}
		data, err := m.read(file)
		if err != nil {
			errs = append(errs, fmt.Errorf("read %s: %w", file, err))
			return
		}
		rules, perrs := ParseRules(file, dir, data)
		s.rules = append(s.rules, rules...)
		errs = append(errs, perrs...)
	}
	if dir == "" {
		read(InfoExcludeName)
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

// Stack returns the rule stack that applies inside directory dir: the rule
// sets of the root, every ancestor and dir itself.
func (m *Matcher) Stack(dir string) *Stack {
	c := (*Stack)(nil).Push(m.Dir(""))
	if dir == "" {
		return c
	}
	for i := 0; i <= len(dir); i++ {
		if i == len(dir) || dir[i] == '/' {
			c = c.Push(m.Dir(dir[:i]))
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
	c := (*Stack)(nil).Push(m.Dir(""))
	start := 0
	for i := 0; i <= len(rel); i++ {
		if i < len(rel) && rel[i] != '/' {
			continue
		}
		sub, name, last := rel[:i], rel[start:i], i == len(rel)
		start = i + 1
		r := c.Match(sub, name, !last || isDir)
		if r != nil && !r.Negate {
			return true, r
		}
		if last {
			return false, r
		}
		c = c.Push(m.Dir(sub))
	}
	return false, nil
}
