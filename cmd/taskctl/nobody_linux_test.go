package main

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestUnreadableDirectoryAsNobody is unreadable.txtar for root, which the
// script skips because root reads a mode-000 directory: it runs taskctl (this
// test binary under the name taskctl, which TestMain dispatches to Main) as
// nobody on a project nobody may enter but not read one directory of. A
// directory the walk cannot read must be a PATH_UNREADABLE warning, not a
// silent gap.
func TestUnreadableDirectoryAsNobody(t *testing.T) {
	base, proj := nobodyProject(t, "not root: unreadable.txtar runs this check", map[string]string{
		".git/HEAD":    "ref: refs/heads/main\n",
		"ok.txt":       "ok\n",
		"closed/x.txt": "hidden\n",
		"t.xml":        `<task name="t"><description>every text file</description><file_paths><path>**/*.txt</path></file_paths></task>` + "\n",
	})
	// nobody may write the project (its .taskctl) and read all but closed.
	filepath.Walk(proj, func(p string, info os.FileInfo, err error) error {
		if err == nil && info.IsDir() {
			os.Chmod(p, 0o777)
		}
		return nil
	})
	if err := os.Chmod(filepath.Join(proj, "closed"), 0); err != nil {
		t.Fatal(err)
	}
	stdout, stderr := runAsNobody(t, base, proj, "assemble", "t.xml", "--paths")
	if got, want := stdout, filepath.Join(proj, "ok.txt")+"\n"; got != want {
		t.Errorf("stdout %q, want %q (stderr: %s)", got, want, stderr)
	}
	want := "taskctl: warning: PATH_UNREADABLE: " + filepath.Join(proj, "closed") + ": directory not read (permission denied): files under it are not listed"
	if !strings.Contains(stderr, want) {
		t.Errorf("stderr:\n%s\nwant the line %q", stderr, want)
	}
}

func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		return err
	}
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o755)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// nobodyProject skips the test (saying why) unless it runs as root, and
// writes files into proj under a public base for runAsNobody.
func nobodyProject(t *testing.T, why string, files map[string]string) (base, proj string) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip(why)
	}
	base = publicTempDir(t)
	proj = filepath.Join(base, "proj")
	writeFiles(t, proj, files)
	return base, proj
}

// publicTempDir is a temporary directory anyone may enter (t.TempDir's
// directories are private to their owner).
func publicTempDir(t *testing.T) string {
	t.Helper()
	base, err := os.MkdirTemp("", "taskctl-nobody-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	if err := os.Chmod(base, 0o755); err != nil {
		t.Fatal(err)
	}
	return base
}

// runAsNobody runs this test binary as taskctl (TestMain dispatches on the
// name) with args in dir, as uid and gid 65534, and returns its stdout and
// stderr. The binary is copied under base, which must be public.
func runAsNobody(t *testing.T, base, dir string, args ...string) (string, string) {
	t.Helper()
	bin := filepath.Join(base, "bin", "taskctl")
	if _, err := os.Stat(bin); err != nil {
		self, err := os.Executable()
		if err != nil {
			t.Fatal(err)
		}
		if err := copyFile(self, bin); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(filepath.Dir(bin), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Env = []string{"HOME=" + base, "XDG_CONFIG_HOME=" + filepath.Join(base, "xdg"), "NO_COLOR=1", "PATH=/usr/bin:/bin"}
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if _, ok := err.(*exec.ExitError); !ok {
			t.Fatal(err)
		}
	}
	return stdout.String(), stderr.String()
}

// TestSearchReadOnlyProject: a project whose .taskctl/ cannot be made is
// still searched, its index built in memory with an INDEX_NOT_SAVED
// warning, and nothing written; 'taskctl index' fails. Run as nobody on a
// project of root's (root may write anywhere).
func TestSearchReadOnlyProject(t *testing.T) {
	base, proj := nobodyProject(t, "not root: needs to run taskctl as another user", map[string]string{
		".git/HEAD":       "ref: refs/heads/main\n",
		"auth/session.go": "package auth\n\n// a session token for a login\nfunc NewSession() {}\n",
		"notes.md":        "release notes\n",
	})
	filepath.Walk(proj, func(p string, info os.FileInfo, err error) error {
		if err == nil {
			os.Chmod(p, info.Mode().Perm()|0o555) // readable, not writable by others
		}
		return nil
	})
	stdout, stderr := runAsNobody(t, base, proj, "search", "session token")
	if !strings.Contains(stdout, filepath.Join(proj, "auth/session.go")) {
		t.Errorf("search: stdout %q, stderr %q", stdout, stderr)
	}
	if !strings.Contains(stderr, "INDEX_NOT_SAVED: "+filepath.Join(proj, ".taskctl")) || !strings.Contains(stderr, "built in memory") {
		t.Errorf("search: stderr %q, want an INDEX_NOT_SAVED warning", stderr)
	}
	if _, err := os.Stat(filepath.Join(proj, ".taskctl")); err == nil {
		t.Errorf("search wrote .taskctl")
	}
	_, stderr = runAsNobody(t, base, proj, "index")
	if !strings.Contains(stderr, "permission denied") {
		t.Errorf("index: stderr %q, want it to fail on the workspace", stderr)
	}
}
