package workflow_test

import (
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/taskctl/taskctl/workflow"
)

var splitTests = []struct {
	in   string
	want []string
}{
	{`llm -m gpt-4o`, []string{"llm", "-m", "gpt-4o"}},
	{`claude -p 'do the thing' --x "a b"`, []string{"claude", "-p", "do the thing", "--x", "a b"}},
	{`a\ b "c\"d" 'e\f' "g\h"`, []string{"a b", `c"d`, `e\f`, `g\h`}},
	{`"it's" 'say "hi"'`, []string{"it's", `say "hi"`}},
	{"x\\\ny", []string{"xy"}},
	{`~/bin/run *.go {a,b}`, []string{"~/bin/run", "*.go", "{a,b}"}},
	{`cat # a comment`, []string{"cat"}},
	{`""`, []string{""}},
	{"  spaced\tout  ", []string{"spaced", "out"}},
	{`"a\\b" 'c''d' e"f"g`, []string{`a\b`, "cd", "efg"}},
}

func TestSplitCommand(t *testing.T) {
	for _, tc := range splitTests {
		got, err := workflow.SplitCommand(tc.in)
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("SplitCommand(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}

func TestSplitCommandDenied(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`llm $(cat key)`, "command substitution"},
		{"llm `cat key`", "command substitution"},
		{`llm "$(cat key)"`, "command substitution"},
		{`llm $HOME`, "parameter expansion"},
		{`llm "${HOME}"`, "parameter expansion"},
		{`llm $((1+2))`, "arithmetic expansion"},
		{`llm <(cat)`, "process substitution"},
		{`llm $'\n'`, "$'...' quoting"},
		{`llm; rm -rf x`, "not a valid word"},
		{`llm | tee`, "not a valid word"},
		{`llm > out`, "not a valid word"},
		{`llm &`, "not a valid word"},
		{`llm 'unclosed`, "reached EOF"},
		{``, "empty"},
		{`   `, "empty"},
	} {
		_, err := workflow.SplitCommand(tc.in)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("SplitCommand(%q) error = %v, want %q", tc.in, err, tc.want)
		}
	}
}

// TestSplitCommandBash compares SplitCommand with bash on the rows without
// the ~, glob and brace characters bash would expand. Set TASKCTL_TEST_BASH=1.
func TestSplitCommandBash(t *testing.T) {
	if os.Getenv("TASKCTL_TEST_BASH") == "" {
		t.Skip("set TASKCTL_TEST_BASH=1 to compare with bash")
	}
	for _, tc := range splitTests {
		if strings.ContainsAny(tc.in, "~*?[{") {
			continue
		}
		out, err := exec.Command("bash", "-c", "printf '%s\\0' "+tc.in).Output()
		if err != nil {
			t.Fatalf("bash on %q: %v", tc.in, err)
		}
		bash := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
		if got, _ := workflow.SplitCommand(tc.in); !slices.Equal(got, bash) {
			t.Errorf("SplitCommand(%q) = %q, bash %q", tc.in, got, bash)
		}
	}
}

// FuzzSplitCommand checks that SplitCommand never panics and never accepts
// a line with an expansion bash would run.
func FuzzSplitCommand(f *testing.F) {
	for _, tc := range splitTests {
		f.Add(tc.in)
	}
	f.Add("llm $(id) `id` ${x} $((1)) <(x)")
	f.Fuzz(func(t *testing.T, s string) {
		words, err := workflow.SplitCommand(s)
		if err != nil {
			return
		}
		if len(words) == 0 {
			t.Fatalf("SplitCommand(%q) accepted no words", s)
		}
		// No accepted line contains an unquoted or double-quoted expansion
		// start: the only $ or ` it can hold sit inside single quotes or
		// after a backslash.
		inSingle, escaped := false, false
		inDouble := false
		for i := 0; i < len(s); i++ {
			c := s[i]
			switch {
			case escaped:
				escaped = false
			case inSingle:
				inSingle = c != '\''
			case c == '\\':
				escaped = true
			case c == '\'' && !inDouble:
				inSingle = true
			case c == '"':
				inDouble = !inDouble
			case c == '#' && !inDouble && (i == 0 || strings.ContainsRune(" \t\n", rune(s[i-1]))):
				return // a comment: the rest is not parsed
			case c == '`' || c == '$' && i+1 < len(s) && (strings.ContainsRune("({", rune(s[i+1])) ||
				!inDouble && strings.ContainsRune("'\"", rune(s[i+1]))):
				t.Fatalf("SplitCommand(%q) accepted an expansion at %d: %q", s, i, words)
			case c == '$' && i+1 < len(s) && (s[i+1] == '_' || 'a' <= s[i+1]|0x20 && s[i+1]|0x20 <= 'z'):
				t.Fatalf("SplitCommand(%q) accepted a parameter at %d: %q", s, i, words)
			}
		}
	})
}
