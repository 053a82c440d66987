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
	if os.Geteuid() != 0 {
		t.Skip("not root: unreadable.txtar runs this check")
	}
	// t.TempDir's directories are private to root; this one is not.
	base, err := os.MkdirTemp("", "taskctl-unreadable-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	proj := filepath.Join(base, "proj")
	writeFiles(t, proj, map[string]string{
		".git/HEAD":    "ref: refs/heads/main\n",
		"ok.txt":       "ok\n",
		"closed/x.txt": "hidden\n",
		"t.xml":        `<task name="t"><description>every text file</description><file_paths><path>**/*.txt</path></file_paths></task>` + "\n",
	})
	bin := filepath.Join(base, "bin", "taskctl")
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	if err := copyFile(self, bin); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{base, filepath.Dir(bin)} {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
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

	cmd := exec.Command(bin, "assemble", "t.xml", "--paths")
	cmd.Dir = proj
	cmd.Env = []string{"HOME=" + base, "XDG_CONFIG_HOME=" + filepath.Join(base, "xdg"), "NO_COLOR=1", "PATH=/usr/bin:/bin"}
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		t.Fatal(err)
	}
	if got, want := stdout.String(), filepath.Join(proj, "ok.txt")+"\n"; got != want {
		t.Errorf("stdout %q, want %q (stderr: %s)", got, want, stderr.String())
	}
	want := "taskctl: warning: PATH_UNREADABLE: " + filepath.Join(proj, "closed") + ": directory not read (permission denied): files under it are not listed"
	if !strings.Contains(stderr.String(), want) {
		t.Errorf("stderr:\n%s\nwant the line %q", stderr.String(), want)
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
