package shellexec_test

import (
	"errors"
	"testing"

	"github.com/taskctl/taskctl/shellexec"
)

// TestBashEdgeCases: printf's "*" with a negative value and tr's octal
// escapes behave as in bash and GNU tr (#21 Also): negative precision is
// no precision, negative width is left-justified, never Go's "%!-(...)";
// tr -d "\000" deletes NUL bytes only, not "0".
func TestBashEdgeCases(t *testing.T) {
	_, cfg := project(t, map[string]string{"nul.txt": "a0b\x00c\n", "digits.txt": "a0b1\n", "bs.txt": "a\\b\n"})
	for _, tc := range []struct{ script, want string }{
		{`printf "[%.*s]\n" -5 abc`, "[abc]\n"},
		{`printf "[%*s]\n" -5 abc`, "[abc  ]\n"},
		{`printf "[%.*s]\n" 2 abc`, "[ab]\n"},
		{`printf "[%*.*s]\n" -6 -1 abc`, "[abc   ]\n"},
		{`printf "[%.*d]\n" -3 7`, "[7]\n"},
		{`tr -d "\000" < nul.txt`, "a0bc\n"},
		{`tr -d "\0" < nul.txt`, "a0bc\n"},
		{`tr "\060\061" "xy" < digits.txt`, "axby\n"},
		{`tr "\\\\" "/" < bs.txt`, "a/b\n"},
	} {
		res, err := run(t, tc.script, cfg)
		if err != nil || string(res.Stdout) != tc.want {
			t.Errorf("%s: %v, stdout %q, want %q (stderr %q)", tc.script, err, res.Stdout, tc.want, res.Stderr)
		}
	}
}

// TestNoTrace: set -x and set -v are denied: a trace quotes every expanded
// word on stderr, file content included (#21 point 3).
func TestNoTrace(t *testing.T) {
	_, cfg := project(t, map[string]string{"k.txt": "KEYMATERIAL\n"})
	for _, script := range []string{"set -x; echo \"$(<k.txt)\" >/dev/null", "set -ex; true", "set -o xtrace; true", "set -v; true", "set -o verbose; true"} {
		res, err := run(t, script, cfg)
		var d *shellexec.DeniedError
		if !errors.As(err, &d) {
			t.Errorf("%s: %v, want a denial", script, err)
		}
		if res != nil && len(res.Stderr) > 0 {
			t.Errorf("%s: stderr %q", script, res.Stderr)
		}
	}
	if res, err := run(t, "set +x; set -e; echo ok", cfg); err != nil || string(res.Stdout) != "ok\n" {
		t.Errorf("set +x; set -e: %v %q", err, res.Stdout)
	}
}
