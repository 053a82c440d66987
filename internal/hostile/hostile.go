package hostile

import (
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Clone commits files (slash path → content) and links (slash path →
// symbolic link target) to a new git repository and clones it, as a user
// clones a repository they did not write; it returns the clone's real
// path. Where git is missing, the tree is written in place of a clone.
func Clone(t testing.TB, files, links map[string]string) string {
	t.Helper()
	base := realTemp(t)
	origin := filepath.Join(base, "origin")
	write(t, origin, files, links)
	clone := filepath.Join(base, "clone")
	if _, err := exec.LookPath("git"); err != nil {
		if err := os.Rename(origin, clone); err != nil {
			t.Fatal(err)
		}
		return clone
	}
	git := func(dir string, args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
			"GIT_AUTHOR_NAME=a", "GIT_AUTHOR_EMAIL=a@example.com", "GIT_COMMITTER_NAME=a", "GIT_COMMITTER_EMAIL=a@example.com")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	git(origin, "init", "-q")
	// -f: the committed tree may hold what a .gitignore in it ignores
	// (.taskctl/index/.gitignore holds "*").
	git(origin, "add", "-A", "-f")
	git(origin, "commit", "-q", "-m", "hostile")
	git(base, "clone", "-q", origin, clone)
	for rel, target := range links {
		if got, err := os.Readlink(filepath.Join(clone, filepath.FromSlash(rel))); err != nil || got != target {
			t.Fatalf("the clone has no symlink %s -> %s (%q, %v)", rel, target, got, err)
		}
	}
	return clone
}

// Dir returns a new directory outside any clone, by its real path, holding
// files (slash path → content).
func Dir(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := realTemp(t)
	write(t, dir, files, nil)
	return dir
}

func realTemp(t testing.TB) string {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func write(t testing.TB, root string, files, links map[string]string) {
	t.Helper()
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	for rel, content := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for rel, target := range links {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, p); err != nil {
			t.Fatal(err)
		}
	}
}

// Snapshot describes every entry under dir, one a line in path order: its
// type and permissions, its size and modification time, and the SHA-256
// of a regular file's content or a symbolic link's target.
func Snapshot(t testing.TB, dir string) string {
	t.Helper()
	var lines []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		what := ""
		switch {
		case fi.Mode().IsRegular():
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			what = fmt.Sprintf("%x", sha256.Sum256(data))
		case fi.Mode()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			what = "-> " + target
		}
		mtime := fi.ModTime().UnixNano()
		if fi.IsDir() {
			mtime = 0 // (reading a directory does not change it; a new entry shows as one)
		}
		lines = append(lines, fmt.Sprintf("%s %v %d %d %s", rel, fi.Mode(), fi.Size(), mtime, what))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(lines)
	return strings.Join(lines, "\n")
}

// Unchanged fails t, naming what differs, unless dir's Snapshot is before.
func Unchanged(t testing.TB, dir, before, what string) {
	t.Helper()
	after := Snapshot(t, dir)
	if after == before {
		return
	}
	b, a := strings.Split(before, "\n"), strings.Split(after, "\n")
	var diff []string
	for _, l := range b {
		if !slices.Contains(a, l) {
			diff = append(diff, "- "+l)
		}
	}
	for _, l := range a {
		if !slices.Contains(b, l) {
			diff = append(diff, "+ "+l)
		}
	}
	t.Errorf("%s changed %s, outside the project:\n%s", what, dir, strings.Join(diff, "\n"))
}
