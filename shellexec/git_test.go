package shellexec_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestGitLsFilesDifferential compares git ls-files, read through go-git,
// with the real git on the same repository.
func TestGitLsFilesDifferential(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git not found")
	}
	files := map[string]string{
		"a.go":            "package a\n",
		"b_test.go":       "package a\n",
		"sub/c.go":        "package sub\n",
		"sub/d.txt":       "d\n",
		"sub/.gitignore":  "*.tmp\n!keep.tmp\n",
		"sub/x.tmp":       "x\n",
		"sub/keep.tmp":    "k\n",
		"sub/deep/e.go":   "package deep\n",
		".gitignore":      "build/\n*.log\n",
		"build/out":       "o\n",
		"err.log":         "l\n",
		"new.go":          "package a\n",
		"sub/new2.go":     "package sub\n",
		"odd name.txt":    "o\n",
		"caf\xc3\xa9.txt": "c\n",
		"docs/guide.md":   "g\n",
	}
	dir, cfg := project(t, files)
	gitRun := func(args ...string) string {
		c := exec.Command(git, args...)
		c.Dir = dir
		c.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "LC_ALL=C")
		out, err := c.Output()
		if err != nil {
			t.Fatalf("git %v: %v", args, err)
		}
		return string(out)
	}
	gitRun("init", "-q")
	gitRun("add", "a.go", "b_test.go", "sub/c.go", "sub/d.txt", "sub/deep/e.go", ".gitignore", "sub/.gitignore", "odd name.txt", "caf\xc3\xa9.txt")
	for _, row := range []struct{ dir, script string }{
		{"", "git ls-files"},
		{"", "git ls-files -z"},
		{"", "git ls-files '*.go'"},
		{"", "git ls-files sub"},
		{"", "git ls-files --others --exclude-standard"},
		{"", "git ls-files --others"},
		{"", "git ls-files -co --exclude-standard"},
		{"", "git ls-files --cached --others --exclude-standard -- '*.go'"},
		{"sub", "git ls-files"},
		{"sub", "git ls-files --others --exclude-standard"},
		{"sub", "git ls-files --full-name"},
		{"sub", "git ls-files ../a.go deep"},
		{"", "git ls-files | grep _test"},
	} {
		c := cfg
		if row.dir != "" {
			c.Dir = dir + "/" + row.dir
		}
		res, err := run(t, row.script, c)
		if err != nil {
			t.Errorf("Run(%q): %v", row.script, err)
			continue
		}
		b := exec.Command("bash", "-c", row.script)
		b.Dir = c.Dir
		b.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "LC_ALL=C")
		want, err := b.Output()
		if err != nil {
			t.Fatalf("bash %q: %v", row.script, err)
		}
		if string(res.Stdout) != string(want) {
			t.Errorf("in %q: %s\n shellexec:\n%s\n git:\n%s\n stderr %s", row.dir, row.script, res.Stdout, want, res.Stderr)
		}
	}
}

func TestGitGrepAndDiff(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git not found")
	}
	files := map[string]string{
		"a.go":          "package a // TODO\n",
		"b.go":          "package b\n",
		"sub/c.go":      "package sub // todo\n",
		"sub/d.txt":     "TODO d\n",
		"untracked.go":  "TODO\n",
		"gone.txt":      "bye\n",
		"mode.sh":       "echo\n",
		"sub/same.txt":  "same\n",
		"sub/touch.txt": "t\n",
	}
	dir, cfg := project(t, files)
	gitRun := func(args ...string) {
		c := exec.Command(git, args...)
		c.Dir = dir
		c.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
		if out, err := c.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	gitRun("init", "-q")
	gitRun("add", "a.go", "b.go", "sub", "gone.txt", "mode.sh")
	os.WriteFile(dir+"/b.go", []byte("package b // TODO changed\n"), 0o644)
	os.Remove(dir + "/gone.txt")
	os.Chmod(dir+"/mode.sh", 0o755)
	os.WriteFile(dir+"/sub/touch.txt", []byte("t\n"), 0o644) // same content, new mtime
	for _, row := range []struct{ dir, script string }{
		{"", "git grep -l TODO"},
		{"", "git grep -il todo"},
		{"", "git grep -n TODO -- '*.go'"},
		{"", "git grep -c TODO"},
		{"sub", "git grep -l -i todo"},
		{"", "git grep -l nomatch; echo $?"},
		{"", "git diff --name-only"},
		{"sub", "git diff --name-only"},
		{"", "git diff --name-only -- sub b.go"},
	} {
		c := cfg
		if row.dir != "" {
			c.Dir = dir + "/" + row.dir
		}
		res, err := run(t, row.script, c)
		if err != nil {
			t.Errorf("Run(%q): %v", row.script, err)
			continue
		}
		b := exec.Command("bash", "-c", row.script)
		b.Dir = c.Dir
		b.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "LC_ALL=C")
		want, _ := b.Output()
		if string(res.Stdout) != string(want) {
			t.Errorf("in %q: %s\n shellexec:\n%s\n git:\n%s\n stderr %s", row.dir, row.script, res.Stdout, want, res.Stderr)
		}
	}
}

// TestGitFileWorktree: in a linked worktree (or a submodule) .git is a file
// pointing at a git dir elsewhere, which git here does not read: it says so,
// instead of "not a git repository".
func TestGitFileWorktree(t *testing.T) {
	_, cfg := project(t, map[string]string{
		".git":     "gitdir: /elsewhere/.git/worktrees/wt\n",
		"a.go":     "package a\n",
		"sub/b.go": "package sub\n",
	})
	for _, dir := range []string{"", "sub"} {
		c := cfg
		if dir != "" {
			c.Dir = filepath.Join(cfg.Dir, dir)
		}
		res, err := run(t, "git ls-files", c)
		if err != nil {
			t.Fatal(err)
		}
		want := filepath.Join(cfg.RootDir, ".git") + " is a .git file (a linked worktree or a submodule)"
		if res.ExitStatus != 128 || !strings.Contains(string(res.Stderr), want) {
			t.Errorf("in %q: status %d, stderr %q; want 128 and %q", dir, res.ExitStatus, res.Stderr, want)
		}
	}
}

// TestGitLsFilesOptionsDifferential compares the ls-files options the
// README promises (-m -d -s -i --directory --error-unmatch, pathspec
// excludes) with the real git, in a repository with modified, deleted,
// ignored and untracked files (#22 point 3).
func TestGitLsFilesOptionsDifferential(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git not found")
	}
	dir, cfg := project(t, map[string]string{
		".gitignore":        "*.log\nbuild/\n",
		"a.go":              "package a\n",
		"mod.go":            "package a\n",
		"gone.go":           "package a\n",
		"tests/t_test.go":   "package t\n",
		"tests/more.go":     "package t\n",
		"sub/c.go":          "package sub\n",
		"sub/forced.log":    "tracked though ignored\n",
		"new/x.go":          "package x\n",
		"new/deep/y.go":     "package y\n",
		"onlyign/z.log":     "z\n",
		"build/out":         "o\n",
		"sub/untracked.txt": "u\n",
		"sub/skip.log":      "s\n",
	})
	env := append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "LC_ALL=C")
	gitRun := func(args ...string) {
		c := exec.Command(git, args...)
		c.Dir, c.Env = dir, env
		if out, err := c.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	gitRun("init", "-q")
	gitRun("add", ".gitignore", "a.go", "mod.go", "gone.go", "tests", "sub/c.go")
	gitRun("add", "-f", "sub/forced.log")
	gitRun("-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "init")
	if err := os.WriteFile(filepath.Join(dir, "mod.go"), []byte("package a // changed\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, "gone.go")); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "empty"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, row := range []struct{ dir, script string }{
		{"", "git ls-files -m"},
		{"", "git ls-files --modified"},
		{"", "git ls-files -d"},
		{"", "git ls-files --deleted"},
		{"", "git ls-files -c -m -d"},
		{"", "git ls-files -s"},
		{"", "git ls-files --stage -z"},
		{"", "git ls-files -s -m"},
		{"", "git ls-files -o -i --exclude-standard"},
		{"", "git ls-files --others --ignored --exclude-standard"},
		{"", "git ls-files -c -i --exclude-standard"},
		{"", "git ls-files -o --directory"},
		{"", "git ls-files -o --directory --exclude-standard"},
		{"", "git ls-files -o --exclude-standard --directory new"},
		{"", "git ls-files --error-unmatch a.go sub"},
		{"", "git ls-files --error-unmatch a.go nosuch.go; echo $?"},
		{"", "git ls-files ':!tests'"},
		{"", "git ls-files -- ':(exclude)tests' ':^sub/c.go'"},
		{"", "git ls-files '*.go' ':!tests/*'"},
		{"sub", "git ls-files -m -d ../"},
		{"sub", "git ls-files -o -i --exclude-standard"},
		{"sub", "git ls-files ':!c.go'"},
		{"tests", "git ls-files -s --full-name"},
		{"", "git diff --name-only ':!tests'"},
		{"sub", "git diff --name-only -- ':!../mod.go'"},
	} {
		c := cfg
		if row.dir != "" {
			c.Dir = dir + "/" + row.dir
		}
		res, err := run(t, row.script, c)
		if err != nil {
			t.Errorf("Run(%q): %v", row.script, err)
			continue
		}
		b := exec.Command("bash", "-c", row.script)
		b.Dir, b.Env = c.Dir, env
		want, _ := b.Output()
		if string(res.Stdout) != string(want) {
			t.Errorf("in %q: %s\n shellexec:\n%s\n git:\n%s\n stderr %s", row.dir, row.script, res.Stdout, want, res.Stderr)
		}
	}
}
