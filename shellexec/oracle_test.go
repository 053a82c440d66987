package shellexec_test

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/taskctl/taskctl/shellexec"
)

// TestOutsideOneAnswerCommands: what a command says of a path outside the
// project does not depend on what is there (#21 point 6): each pair
// differs only outside, and stdout, stderr and the exit status must match
// once the names are replaced; no link target outside is named.
func TestOutsideOneAnswerCommands(t *testing.T) {
	dir, cfg := project(t, nil)
	out := filepath.Join(filepath.Dir(dir), "outside")
	buildTree(t, out, map[string]string{"exists.txt": "OUTSIDE\n", "sub/": ""})
	buildTree(t, dir, map[string]string{
		"a.txt":    "a\n",
		"lexists":  "->" + filepath.Join(out, "exists.txt"),
		"lmissing": "->" + filepath.Join(out, "missing.txt"),
		"rexists":  "->../outside/exists.txt",
		"rmissing": "->../outside/missing.txt",
		"dexists":  "->" + filepath.Join(out, "sub"),
		"dmissing": "->" + filepath.Join(out, "nosub"),
		"exe":      "->/proc/self/exe",
		"nexe":     "->/proc/self/nothing",
	})
	pairs := [][2]string{
		{"/etc/hostname", "/etc/no-such-xyz"},
		{"../outside/exists.txt", "../outside/missing.txt"},
		{"lexists", "lmissing"},
		{"rexists", "rmissing"},
		{"dexists/x", "dmissing/x"},
		{"dexists", "dmissing"},
		{"exe", "nexe"},
		{"/proc/self/exe", "/proc/self/nothing"},
	}
	for _, pr := range pairs {
		for _, form := range []string{"cat %s", "ls %s", "ls -l %s", "head %s", "wc -c %s", "test -e %s; echo $?",
			"[ -d %s ]; echo $?", "find %s", "grep -r x %s", "cat < %s", `echo "$(<%s)"`, "ls %s/", "cd %s"} {
			a, b := strings.ReplaceAll(form, "%s", pr[0]), strings.ReplaceAll(form, "%s", pr[1])
			ra, ea := run(t, a, cfg)
			rb, eb := run(t, b, cfg)
			sa := answer(ra, ea, dir, pr[0])
			sb := answer(rb, eb, dir, pr[1])
			if sa != sb {
				t.Errorf("%q vs %q: answers differ:\n  %s\n  %s", a, b, sa, sb)
			}
			if strings.Contains(sa, "OUTSIDE") || strings.Contains(sa, out) && !strings.Contains(pr[0], "outside") || strings.Contains(sa, "/proc") && !strings.Contains(pr[0], "/proc") {
				t.Errorf("%q: the answer tells of outside: %s", a, sa)
			}
		}
	}
}

func answer(r *shellexec.Result, err error, dir, name string) string {
	s := ""
	if r != nil {
		s = strconv.Itoa(r.ExitStatus) + "|" + string(r.Stdout) + "|" + string(r.Stderr) + "|" + strings.Join(r.Outside, ",")
	}
	if err != nil {
		s += "|" + err.Error()
	}
	abs := name
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(dir, name)
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, abs, "X"), name, "X")
}

// TestNoUserLookupNoIDs: ~user is never expanded (no NSS lookup: it stays
// as written, as bash leaves an unknown user's), and the process's ids
// ($$, $PPID, $UID, $EUID, $GID) are not visible to commands: a script
// naming them is denied (#21 point 6, Also).
func TestNoUserLookupNoIDs(t *testing.T) {
	_, cfg := project(t, map[string]string{"a.txt": "a\n"})
	res, err := run(t, "echo ~root ~daemon ~nosuchuser ~root/x", cfg)
	if err != nil || string(res.Stdout) != "~root ~daemon ~nosuchuser ~root/x\n" {
		t.Errorf("echo ~root ...: %v %q, want the words as written", err, res.Stdout)
	}
	pid := strconv.Itoa(os.Getpid())
	for _, script := range []string{
		"echo $$", "echo ${$}", "echo $PPID", "echo ${PPID}", "echo $UID", "echo $EUID", "echo $GID",
		"echo ${#PPID}", "echo $((PPID + 0))", "echo $(( $$ ))", "echo ${x:-$PPID}", "echo $((UID))",
		`echo "${a:PPID}"`,
	} {
		res, err := run(t, script, cfg)
		var d *shellexec.DeniedError
		if !errors.As(err, &d) {
			t.Errorf("%s: %v, stdout %q; want a denial", script, err, res.Stdout)
		}
		if res != nil && (strings.Contains(string(res.Stdout), pid) || strings.Contains(string(res.Stdout), strconv.Itoa(os.Getppid()))) {
			t.Errorf("%s: printed a process id: %q", script, res.Stdout)
		}
	}
}
