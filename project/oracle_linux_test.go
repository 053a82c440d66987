package project_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/taskctl/taskctl/internal/diag"
	"github.com/taskctl/taskctl/project"
)

// TestOutsideOneAnswer: a path outside the project gets one answer
// whatever is there (#21 point 6). Each pair differs only in what exists
// outside; the code and the message (with the names themselves replaced)
// must be the same, and no message names a symlink's target outside. A
// path through a link to an outside directory and back in by ".." is
// taken lexically outside: accepted whether or not that directory exists.
func TestOutsideOneAnswer(t *testing.T) {
	base := realTemp(t)
	proj := filepath.Join(base, "p")
	out := filepath.Join(base, "outside")
	writeTree(t, out, "exists.txt = "+secret+"\n", "sub/")
	writeTree(t, proj, ".git/", "src/x.go = package x\n",
		"lexists -> "+filepath.Join(out, "exists.txt"),
		"lmissing -> "+filepath.Join(out, "missing.txt"),
		"rexists -> ../outside/exists.txt",
		"rmissing -> ../outside/missing.txt",
		"dexists -> "+filepath.Join(out, "sub"),
		"dmissing -> "+filepath.Join(out, "nosub"),
		"exe -> /proc/self/exe",
		"nexe -> /proc/self/no-such-link",
		"cwd -> /proc/1/cwd",
		"ncwd -> /proc/1/no-such",
	)
	p := open(t, project.Options{WorkingDir: proj})
	pairs := [][2]string{
		{"/etc/hostname", "/etc/no-such-file-xyz"},
		{filepath.Join(out, "exists.txt"), filepath.Join(out, "missing.txt")},
		{"../outside/exists.txt", "../outside/missing.txt"},
		{"lexists", "lmissing"},
		{"rexists", "rmissing"},
		{"dexists/../../p/src/x.go", "dmissing/../../p/src/x.go"},
		{"dexists/x", "dmissing/x"},
		{"exe", "nexe"},
		{"cwd", "ncwd"},
		{"/proc/self/exe", "/proc/self/no-such-link"},
		{"../outside/*.txt", "../outside/*.md"},
		{filepath.Join(out, "sub/*"), filepath.Join(out, "nosub/*")},
		{"dexists/*", "dmissing/*"},
	}
	answer := func(how, spec string) string {
		var w *diag.Warning
		if how == "resolve" {
			_, w = p.ResolveFrom(proj, spec)
		} else {
			_, ws := p.Expand(context.Background(), []string{spec})
			if len(ws) > 0 {
				w = &ws[0]
			}
		}
		if w == nil {
			return "accepted"
		}
		s := string(w.Code) + ": " + w.Path + ": " + w.Message
		lex := spec
		if !filepath.IsAbs(lex) {
			lex = filepath.Join(proj, spec)
		}
		for _, x := range []string{lex, spec, filepath.Dir(lex)} {
			s = strings.ReplaceAll(s, x, "X")
		}
		return s
	}
	for _, pr := range pairs {
		for _, how := range []string{"resolve", "expand"} {
			a, b := answer(how, pr[0]), answer(how, pr[1])
			if a != b {
				t.Errorf("%s %q vs %q: answers differ:\n  %s\n  %s", how, pr[0], pr[1], a, b)
			}
			// Through an outside directory and back in by "..": taken
			// lexically, never looked at, so accepted either way.
			back := strings.Contains(pr[0], "../../p/")
			if back && a != "accepted" || !back && !strings.HasPrefix(a, "PATH_OUTSIDE_PROJECT") {
				t.Errorf("%s %q: %s, want PATH_OUTSIDE_PROJECT", how, pr[0], a)
			}
			lex := pr[0]
			if !filepath.IsAbs(lex) {
				lex = filepath.Join(proj, lex)
			}
			for _, leak := range []string{"/proc/", out, "/usr/", "/sbin"} {
				if strings.Contains(a, leak) && !strings.Contains(lex, leak) {
					t.Errorf("%s %q: the answer names %s: %s", how, pr[0], leak, a)
				}
			}
		}
	}
}
