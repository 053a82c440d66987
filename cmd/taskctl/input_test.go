package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestSpecialInputs names FIFOs, devices and oversized files as templates
// and config files: taskctl must neither block on a FIFO nor read a device
// or a huge file into memory, and must say what is wrong with an exit code
// of DESIGN §7.
func TestSpecialInputs(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.xml")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big.xml")
	bigDoc := "<task name=\"big\"><description>" + strings.Repeat("x", 2<<20) + "</description></task>"
	bigLib := "<tasks>" + strings.Repeat(" ", 2<<20) + "</tasks>"
	writeFiles(t, dir, map[string]string{
		"go.mod":                 "module x\n",
		"big.xml":                bigDoc,
		".taskctl/tasks/big.xml": bigLib,
		".taskctl/tasks/ok.xml":  `<task name="ok"><description>d</description></task>`,
	})
	tooBig := func(n int) string { return fmt.Sprintf(":1:1: document is %d bytes; the limit is 1048576", n) }
	cases := []struct {
		args []string
		code int
		want string // in stderr
	}{
		{[]string{"validate", fifo}, exitUsage, fifo + ": cannot read: not a regular file"},
		{[]string{"validate", "/dev/zero"}, exitUsage, "/dev/zero: cannot read: not a regular file"},
		{[]string{"validate", big}, exitUsage, big + tooBig(len(bigDoc))},
		{[]string{"assemble", fifo}, exitUsage, "not a regular file"},
		{[]string{"assemble", "/dev/zero"}, exitUsage, "not a regular file"},
		{[]string{"assemble", big}, exitUsage, big + tooBig(len(bigDoc))},
		{[]string{"--config", fifo, "root"}, exitUsage, "--config " + fifo + " is not a regular file"},
		{[]string{"--config", "/dev/zero", "root"}, exitUsage, "--config /dev/zero is not a regular file"},
		{[]string{"--config", dir, "root"}, exitUsage, "--config " + dir + " is a directory, not a config file"},
		{[]string{"--config", big, "root"}, exitUsage, big + tooBig(len(bigDoc))},
		{[]string{"assemble", "ok", "--tokenizer", "none"}, exitOK, "TEMPLATE_INVALID: " + filepath.Join(dir, ".taskctl/tasks/big.xml") + ": skipped"},
		{[]string{"assemble", "nosuch"}, exitUsage, "tasks/big.xml" + tooBig(len(bigLib))},
	}
	for _, c := range cases {
		args := append([]string{"--project-dir", dir, "--cwd", dir}, c.args...)
		type result struct {
			code           int
			stdout, stderr string
		}
		done := make(chan result, 1)
		go func() {
			code, out, errs := taskctl(t, args...)
			done <- result{code, out, errs}
		}()
		select {
		case r := <-done:
			if r.code != c.code || !strings.Contains(r.stderr, c.want) {
				t.Errorf("taskctl %s: exit %d, stderr %q; want exit %d and %q", strings.Join(c.args, " "), r.code, r.stderr, c.code, c.want)
			}
		case <-time.After(20 * time.Second):
			// Unblock the reader stuck on the FIFO so the test can end.
			if f, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
				f.Close()
			}
			t.Fatalf("taskctl %s did not return", strings.Join(c.args, " "))
		}
	}
}

// TestTextWarningsOneALine: in text mode each warning is one line starting
// with "taskctl: warning:" (continuation lines of a message indented under
// it), even for a file whose name holds a newline and for a command whose
// stderr has several lines.
func TestTextWarningsOneALine(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"go.mod":            "module x\n",
		"src/new\nline.txt": "x\n",
		"src/ok.txt":        "ok\n",
		"t.xml":             `<task name="t"><description>d</description><file_paths><path>src/*.txt</path></file_paths><file_paths source="command"><command>cat nosuch1; cat nosuch2</command></file_paths></task>`,
	})
	code, out, errs := taskctl(t, "--project-dir", dir, "--cwd", dir, "assemble", filepath.Join(dir, "t.xml"), "--paths")
	if code != exitOK || out != filepath.Join(dir, "src/ok.txt")+"\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errs)
	}
	warnings := 0
	for _, line := range strings.Split(strings.TrimSuffix(errs, "\n"), "\n") {
		switch {
		case strings.HasPrefix(line, "taskctl: warning: "):
			warnings++
		case strings.HasPrefix(line, "    "):
		default:
			t.Errorf("stderr line %q is neither a warning nor indented under one\n%s", line, errs)
		}
	}
	if warnings != 2 || !strings.Contains(errs, `"`+filepath.Join(dir, "src/new\\nline.txt")+`"`) {
		t.Errorf("want 2 warnings, the path quoted:\n%s", errs)
	}
}
