package shellexec_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// stateSecrets are planted in .git/ and .taskctl/; no command may print
// any of them, in any form.
var stateSecrets = []string{"GITCONFIGPASS", "OBJECTKEY", "RUNVARTOKEN", "NESTEDGIT", "INDEXTOK"}

// TestStateDirsUnreadable: commands read nothing inside .git/ or
// .taskctl/ (#21 point 2): not by name, not through a glob, a $(<...), a
// redirection, a walk, a symlink or a cd; listing the project still names
// them, and git ls-files still reads the index.
func TestStateDirsUnreadable(t *testing.T) {
	dir, cfg := project(t, map[string]string{
		"a.go":                    "package a\n",
		"sub/b.go":                "package sub\n",
		".git/config":             "[remote \"origin\"]\n\turl = https://user:GITCONFIGPASS@example.com/r.git\n",
		".git/objects/ab/cdef012": "blob OBJECTKEY\n",
		".taskctl/runs/r1/vars":   "tok=RUNVARTOKEN\n",
		"sub/.git/config":         "NESTEDGIT\n",
		".GIT/hooks":              "INDEXTOK\n",
		"cfg":                     "->.git/config",
		"gd":                      "->.git",
		"sub/up":                  "->../.taskctl/runs",
	})
	for _, script := range []string{
		"cat .git/config",
		"cat .git/objects/ab/cdef012",
		"cat .git/objects/*/*",
		"cat .git/*",
		"echo .git/*",
		"echo .git/objects/*",
		"for f in .git/*/*/*; do cat \"$f\"; done",
		"grep -r SECRET .git",
		"grep -rh tok .taskctl/runs",
		"grep -r -e PASS -e KEY -e TOKEN -e NESTED -e INDEXTOK .",
		"grep -rl KEY",
		"ls .git",
		"ls -R .",
		"ls -la .git/objects",
		"ls .taskctl/runs/r1",
		"find . -type f",
		"find .git",
		"find . -path '*runs*'",
		"find sub",
		"head .git/config",
		"tail -n 1 .taskctl/runs/r1/vars",
		"wc -c .git/config",
		"sort .git/config",
		"uniq .git/config",
		"cut -c1-80 .git/config",
		"tr a-z A-Z < .git/config",
		"sed -n p .git/config",
		"grep -c PASS .git/config",
		`echo "$(<.git/config)"`,
		`x=$(<.taskctl/runs/r1/vars); echo "$x"`,
		"cat < .git/config",
		"cat cfg",
		"cat gd/config",
		"ls gd",
		"find gd/",
		"cat sub/up/r1/vars",
		"cat sub/.git/config",
		"cat .GIT/hooks",
		"cat ./.git/../.git/config",
		"cd .git && cat config",
		"cd sub && cat ../.git/config",
		"echo .git/config | xargs cat",
		"echo .taskctl/runs/r1/vars | xargs grep tok",
		"find . -name config | xargs cat",
		"git grep PASS",
		"test -f .git/config && echo exists",
		"[ -s .taskctl/runs/r1/vars ] && echo nonempty",
	} {
		res, err := run(t, script, cfg)
		out := ""
		if res != nil {
			out = string(res.Stdout) + string(res.Stderr)
		}
		if err != nil {
			out += err.Error()
		}
		for _, s := range stateSecrets {
			if strings.Contains(out, s) {
				t.Errorf("%s: printed %s from a state directory: %q", script, s, out)
			}
		}
		for _, name := range []string{"objects/ab", "cdef012", "r1/vars", "hooks"} {
			if res != nil && strings.Contains(string(res.Stdout), name) {
				t.Errorf("%s: listed %s inside a state directory: %q", script, name, res.Stdout)
			}
		}
	}
	// Not even whether a name exists inside them, through a symlink.
	for _, script := range []string{"[ -e gd/config ] && echo LEAKED", "test -s sub/up/r1/vars && echo LEAKED", "ls -d gd/objects && echo LEAKED",
		"[ -e .git/config ] && echo LEAKED", "find gd/config && echo LEAKED"} {
		res, _ := run(t, script, cfg)
		if res != nil && strings.Contains(string(res.Stdout), "LEAKED") {
			t.Errorf("%s: told that a name exists inside a state directory", script)
		}
	}
	// Naming them is not reading them: ls -a lists .git and .taskctl.
	res, err := run(t, "ls -a", cfg)
	if err != nil || !strings.Contains(string(res.Stdout), ".git\n") || !strings.Contains(string(res.Stdout), ".taskctl\n") {
		t.Errorf("ls -a: %v %q, want .git and .taskctl listed", err, res.Stdout)
	}
	// A refused read says why.
	res, _ = run(t, "cat .git/config", cfg)
	if res.ExitStatus == 0 || !strings.Contains(string(res.Stderr), ".git/config") || !strings.Contains(string(res.Stderr), "inside .git/") {
		t.Errorf("cat .git/config: status %d, stderr %q; want a failure naming .git/", res.ExitStatus, res.Stderr)
	}
	_ = dir
}

// TestStateDirsGitStillWorks: git ls-files, git grep and git diff read
// .git/index (and .git/info/exclude) through go-git, not through the
// commands' policy, so they keep working in a repository whose .git the
// commands may not read.
func TestStateDirsGitStillWorks(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git not found")
	}
	dir, cfg := project(t, map[string]string{
		"a.go":     "package a // FINDME\n",
		"b.txt":    "b\n",
		"new.go":   "package a\n",
		"skip.tmp": "t\n",
	})
	for _, args := range [][]string{{"init", "-q"}, {"add", "a.go", "b.txt"}} {
		c := exec.Command(git, args...)
		c.Dir = dir
		c.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
		if out, err := c.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, ".git/info/exclude"), []byte("*.tmp\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ script, want string }{
		{"git ls-files", "a.go\nb.txt\n"},
		{"git ls-files --others --exclude-standard", "new.go\n"},
		{"git grep -l FINDME", "a.go\n"},
		{"git diff --name-only", ""},
	} {
		res, err := run(t, tc.script, cfg)
		if err != nil || string(res.Stdout) != tc.want {
			t.Errorf("%s: %v, stdout %q, want %q (stderr %q)", tc.script, err, res.Stdout, tc.want, res.Stderr)
		}
	}
}
