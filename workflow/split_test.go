package workflow_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/taskctl/taskctl/workflow"
)

func TestSplitCommand(t *testing.T) {
	for _, tc := range []struct {
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
	} {
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
