package ignore_test

import (
	"errors"
	"testing"

	"github.com/taskctl/taskctl/ignore"
)

// TestMatchNamesTheRule: the decision comes with the rule that made it,
// by file, line and pattern as written, for the nearest file, the last
// line, an ignored ancestor and a negation; no rule is nil.
func TestMatchNamesTheRule(t *testing.T) {
	m := ignore.New(files(map[string]string{
		".git/info/exclude":  "secret.env\n",
		".gitignore":         "# logs\n*.log\n!keep.log\nlogs/\n",
		"sub/.gitignore":     "keep.log\n",
		"sub/.taskctlignore": "!sub.log\n",
	}))
	for _, c := range []struct {
		rel     string
		isDir   bool
		ignored bool
		rule    string // Rule.String, "" for none
	}{
		{"a.log", false, true, ".gitignore:2: *.log"},
		{"keep.log", false, false, ".gitignore:3: !keep.log"},
		{"sub/keep.log", false, true, "sub/.gitignore:1: keep.log"},
		{"sub/sub.log", false, false, "sub/.taskctlignore:1: !sub.log"},
		{"logs/keep.log", false, true, ".gitignore:4: logs/"},
		{"logs", false, false, ""},
		{"secret.env", false, true, ".git/info/exclude:1: secret.env"},
		{"src/main.go", false, false, ""},
	} {
		ign, r := m.Match(c.rel, c.isDir)
		got := ""
		if r != nil {
			got = r.String()
		}
		if ign != c.ignored || got != c.rule {
			t.Errorf("Match(%q, %v) = %v, %q, want %v, %q", c.rel, c.isDir, ign, got, c.ignored, c.rule)
		}
	}
}

// TestStackWithoutReads: rules parsed from bytes and pushed on a Stack
// match with no Matcher and no ReadFunc; the deeper set wins.
func TestStackWithoutReads(t *testing.T) {
	root, errs := ignore.ParseRules(".gitignore", "", []byte("*.tmp\n"))
	sub, errs2 := ignore.ParseRules("a/.gitignore", "a", []byte("!x.tmp\n"))
	if len(errs)+len(errs2) > 0 {
		t.Fatalf("ParseRules: %v %v", errs, errs2)
	}
	s := (*ignore.Stack)(nil).Push(ignore.NewSet(root...))
	if r := s.Match("x.tmp", "x.tmp", false); r == nil || r.Negate || r.String() != ".gitignore:1: *.tmp" {
		t.Errorf("root stack on x.tmp: %v", r)
	}
	s = s.Push(ignore.NewSet(sub...))
	if r := s.Match("a/x.tmp", "x.tmp", false); r == nil || !r.Negate || r.Line != 1 || r.Source != "a/.gitignore" {
		t.Errorf("a's stack on a/x.tmp: %v", r)
	}
	if r := s.Match("a/y.go", "y.go", false); r != nil {
		t.Errorf("a's stack on a/y.go: %v, want no rule", r)
	}
}

// TestReadErrorsArePartial: an unreadable file and a bad line are
// reported; the other files and lines still apply.
func TestReadErrorsArePartial(t *testing.T) {
	broken := errors.New("not a regular file")
	m := ignore.New(func(name string) ([]byte, error) {
		switch name {
		case ".gitignore":
			return []byte("[\n*.log\n"), nil
		case ".taskctlignore":
			return nil, broken
		}
		return nil, nil
	})
	if ign, _ := m.Match("a.log", false); !ign {
		t.Errorf("a.log not ignored despite the good line after the bad one")
	}
	errs := m.Errors()
	var pe *ignore.PatternError
	if len(errs) != 2 || !errors.As(errs[0], &pe) || pe.Line != 1 || !errors.Is(errs[1], broken) {
		t.Fatalf("Errors() = %v, want the bad line 1 and the unreadable .taskctlignore", errs)
	}
}
