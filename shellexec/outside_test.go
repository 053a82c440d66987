package shellexec_test

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestOutsideReported: every refusal to read outside the project is in
// Result.Outside, whatever the command's exit status, once each and at most
// ten; a command that stays inside has none.
func TestOutsideReported(t *testing.T) {
	dir, cfg := project(t, map[string]string{"a.txt": "a\n", "link": "->../../secret", "sub/b.txt": "b\n"})
	parent := filepath.Dir(dir)
	for _, tc := range []struct {
		script string
		want   []string
	}{
		{"echo /*; echo a.txt", []string{"/"}},
		{"cat ../x 2>/dev/null || true", []string{filepath.Join(parent, "x")}},
		{"cat link; echo a.txt", []string{filepath.Join(dir, "link")}},
		{"cd sub && cat ../../y; cat ../../y; echo b.txt", []string{filepath.Join(parent, "y")}},
		{"ls; find . -name '*.txt'; grep -rl a .; cat a.txt sub/b.txt", nil},
	} {
		res, err := run(t, tc.script, cfg)
		if err != nil {
			t.Fatalf("%s: %v", tc.script, err)
		}
		if !slices.Equal(res.Outside, tc.want) {
			t.Errorf("%s: Outside = %q, want %q", tc.script, res.Outside, tc.want)
		}
	}
	var many []string
	for i := range 30 {
		many = append(many, "cat /nope"+strings.Repeat("x", i)+" 2>/dev/null")
	}
	res, err := run(t, strings.Join(many, "; ")+"; true", cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Outside) != 10 || res.ExitStatus != 0 {
		t.Errorf("30 refusals: %d kept (want 10), exit %d", len(res.Outside), res.ExitStatus)
	}
}
