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
		want := filepath.Join(cfg.Root.Dir(), ".git") + " is a .git file (a linked worktree or a submodule)"
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

// TestGitDiffRevisionsAndStatusDifferential compares git diff --name-only
// with revisions and --cached, and git status --porcelain, read through
// go-git's object store over the project root, with the real git (#22
// point 3), in a repository with three commits, a pack, staged and
// unstaged changes and untracked files.
func TestGitDiffRevisionsAndStatusDifferential(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git not found")
	}
	dir, cfg := project(t, map[string]string{
		".gitignore": "*.log\n",
		"a.go":       "package a\n",
		"b.go":       "package b\n",
		"sub/c.go":   "package sub\n",
		"tests/t.go": "package t\n",
	})
	env := append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "LC_ALL=C")
	gitRun := func(args ...string) {
		c := exec.Command(git, append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com"}, args...)...)
		c.Dir, c.Env = dir, env
		if out, err := c.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	write := func(name, content string) {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gitRun("init", "-q")
	gitRun("add", "-A")
	gitRun("commit", "-qm", "one")
	write("b.go", "package b // two\n")
	write("sub/d.go", "package sub\n")
	gitRun("add", "-A")
	gitRun("commit", "-qm", "two")
	gitRun("tag", "-a", "v2", "-m", "v2")
	gitRun("gc", "-q") // the first commits now live in a pack
	write("tests/t.go", "package t // three\n")
	gitRun("rm", "-q", "a.go")
	gitRun("add", "-A")
	gitRun("commit", "-qm", "three")
	write("sub/c.go", "package sub // staged\n")
	gitRun("add", "sub/c.go")
	write("b.go", "package b // unstaged\n")
	write("new.go", "package a // staged new\n")
	gitRun("add", "new.go")
	write("new.go", "package a // and changed\n")
	if err := os.Remove(filepath.Join(dir, "sub/d.go")); err != nil {
		t.Fatal(err)
	}
	write("untracked.txt", "u\n")
	write("fresh/x.go", "x\n")
	write("fresh/deep/y.go", "y\n")
	write("onlyignored/z.log", "z\n")
	if err := os.MkdirAll(filepath.Join(dir, "empty"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, row := range []string{
		"git diff --name-only",
		"git diff --name-only --cached",
		"git diff --name-only --staged HEAD~1",
		"git diff --name-only HEAD",
		"git diff --name-only HEAD~2",
		"git diff --name-only HEAD~2 HEAD",
		"git diff --name-only HEAD~2..HEAD",
		"git diff --name-only HEAD^..",
		"git diff --name-only v2 HEAD -- tests",
		"git diff --name-only master~1 ':!tests'",
		"git diff --name-only -z HEAD~2",
		"git diff --name-only HEAD~2 sub",
		"git status --porcelain",
		"git status --porcelain=v1 -z",
		"git status --porcelain --untracked-files=no",
		"git status --porcelain -- sub ':!sub/d.go'",
		// Pathspecs are the working dir's; ls-files prints from it too.
		"git diff --name-only HEAD~2 -- .",
		"git status --porcelain -- .",
		"git status --porcelain -- deep x.go ../d.go",
		"git status --porcelain -uno -- .",
		"git ls-files",
		"git ls-files -m",
		"git diff --name-only | cut -c1-",
		"git grep -l package",
		"git grep -l package -- ../b.go",
		"git ls-files -o --exclude-standard",
	} {
		// From the top and from subdirectories (#32 point 3): git diff
		// and git status print paths from the repository's top wherever
		// they run, ls-files from the working dir.
		for _, sub := range []string{"", "sub", "tests", "fresh", "fresh/deep"} {
			cfg := cfg
			cfg.Dir = filepath.Join(dir, sub)
			res, err := run(t, row, cfg)
			if err != nil {
				t.Errorf("Run(%q) in %q: %v", row, sub, err)
				continue
			}
			b := exec.Command("bash", "-c", row)
			b.Dir, b.Env = cfg.Dir, env
			want, err := b.Output()
			gitStatus := 0
			if ee, ok := err.(*exec.ExitError); ok {
				gitStatus = ee.ExitCode()
			} else if err != nil {
				t.Fatalf("bash %q in %q: %v", row, sub, err)
			}
			if res.ExitStatus != gitStatus {
				t.Errorf("%s in %q: exit status %d, git's %d (stderr %s)", row, sub, res.ExitStatus, gitStatus, res.Stderr)
			}
			if string(res.Stdout) != string(want) {
				t.Errorf("%s in %q\n shellexec:\n%s\n git:\n%s\n stderr %s", row, sub, res.Stdout, want, res.Stderr)
			}
			// The records say what their paths are relative to: the top
			// for git diff and git status printing directly, the working
			// dir for ls-files and for what a pipe's last command prints.
			wantDir := cfg.Dir
			if (strings.HasPrefix(row, "git diff") || strings.HasPrefix(row, "git status")) && !strings.Contains(row, "|") {
				wantDir = dir
			}
			for _, r := range res.Records {
				if r.Dir != wantDir {
					t.Errorf("%s in %q: record %q is relative to %s, want %s", row, sub, r.Text, r.Dir, wantDir)
				}
			}
		}
	}
}

// TestGitAlternatesOutside: an objects/info/alternates file naming the
// object store of a repository outside the project is read through the
// project's root like every other file: a commit that lives only there is
// no revision here, and nothing of that repository is printed.
func TestGitAlternatesOutside(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git not found")
	}
	dir, cfg := project(t, map[string]string{"a.go": "package a\n"})
	outside := filepath.Join(filepath.Dir(dir), "outside")
	env := append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "LC_ALL=C")
	gitIn := func(d string, args ...string) string {
		c := exec.Command(git, append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com"}, args...)...)
		c.Dir, c.Env = d, env
		out, err := c.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	if err := os.MkdirAll(outside, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(outside, "OUTSIDE-SECRET.txt"), []byte("s\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gitIn(outside, "init", "-q")
	gitIn(outside, "add", "-A")
	gitIn(outside, "commit", "-qm", "outside")
	hash := gitIn(outside, "rev-parse", "HEAD")
	gitIn(dir, "init", "-q")
	gitIn(dir, "add", "-A")
	gitIn(dir, "commit", "-qm", "inside")
	alt := filepath.Join(dir, ".git", "objects", "info", "alternates")
	if err := os.WriteFile(alt, []byte(filepath.Join(outside, ".git", "objects")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, script := range []string{"git diff --name-only " + hash, "git diff --name-only " + hash + " HEAD", "git diff --name-only HEAD"} {
		res, err := run(t, script, cfg)
		if err != nil {
			t.Fatalf("Run(%q): %v", script, err)
		}
		if strings.Contains(string(res.Stdout), "OUTSIDE") || strings.Contains(string(res.Stderr), "OUTSIDE-SECRET") {
			t.Errorf("Run(%q) read the outside repository: stdout %q stderr %q", script, res.Stdout, res.Stderr)
		}
	}
	// The real git follows the alternates file: the hash is a revision
	// there, and the difference names the outside file.
	if out := gitIn(dir, "diff", "--name-only", hash); !strings.Contains(out, "OUTSIDE-SECRET") {
		t.Fatalf("fixture: git itself does not see the outside commit: %q", out)
	}
}

// TestGitDirLinkInProject: git's own reads go through the root's view of
// the git directory alone, which follows no symbolic link, not even one
// that stays inside the project: an index or an object store moved out of
// .git and linked back is not read (the real git would read both).
func TestGitDirLinkInProject(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git not found")
	}
	dir, cfg := project(t, map[string]string{"a.go": "package a\n", "b.go": "package b\n"})
	gitRun := func(args ...string) {
		c := exec.Command(git, append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com"}, args...)...)
		c.Dir = dir
		c.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
		if out, err := c.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	gitRun("init", "-q")
	gitRun("add", "-A")
	gitRun("commit", "-qm", "one")
	if res, err := run(t, "git ls-files", cfg); err != nil || res.ExitStatus != 0 || string(res.Stdout) != "a.go\nb.go\n" {
		t.Fatalf("fixture: git ls-files = %v, %+v", err, res)
	}
	move := func(from, to string) {
		if err := os.Rename(filepath.Join(dir, from), filepath.Join(dir, to)); err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(filepath.Dir(filepath.Join(dir, from)), filepath.Join(dir, to))
		if err := os.Symlink(rel, filepath.Join(dir, from)); err != nil {
			t.Fatal(err)
		}
	}
	move(".git/index", "stolen-index")
	res, err := run(t, "git ls-files", cfg)
	if err != nil {
		t.Fatal(err)
	}
	if res.ExitStatus != 128 || strings.Contains(string(res.Stdout), "a.go") || !strings.Contains(string(res.Stderr), "symbolic link") {
		t.Errorf("index linked from the project: status %d, stdout %q, stderr %q; want 128 and the link refused", res.ExitStatus, res.Stdout, res.Stderr)
	}
	if err := os.Remove(filepath.Join(dir, ".git", "index")); err != nil {
		t.Fatal(err)
	}
	move(".git/objects", "stolen-objects")
	res, err = run(t, "git diff --name-only HEAD", cfg)
	if err != nil {
		t.Fatal(err)
	}
	if res.ExitStatus == 0 || !strings.Contains(string(res.Stderr), "unknown revision") {
		t.Errorf("objects linked from the project: status %d, stdout %q, stderr %q; want an unknown revision", res.ExitStatus, res.Stdout, res.Stderr)
	}
}
