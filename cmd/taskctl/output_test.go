package main

import (
	"bytes"
	"context"
	"strings"
	"syscall"
	"testing"
)

// fullWriter fails every write, as a full disk does.
type fullWriter struct{}

func (fullWriter) Write([]byte) (int, error) { return 0, syscall.ENOSPC }

// TestLostOutputFails: a command whose output could not be written exits 1
// and says so, whichever command it is. schema, root, config, search,
// validate, completion, help and version printed into the void and exited 0.
func TestLostOutputFails(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"version"}, {"help"}, {"schema"}, {"completion", "bash"},
		{"--cwd", dir, "--project-dir", dir, "root"},
		{"--cwd", dir, "--project-dir", dir, "config"},
		{"--cwd", dir, "--project-dir", dir, "version", "--output", "json"},
	} {
		var stderr bytes.Buffer
		code := run(context.Background(), args, strings.NewReader(""), fullWriter{}, &stderr)
		if code != exitError || !strings.Contains(stderr.String(), syscall.ENOSPC.Error()) {
			t.Errorf("taskctl %s: exit %d, stderr %q; want exit 1 naming the write error", strings.Join(args, " "), code, stderr.String())
		}
	}
	// A writer that works is untouched.
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"version"}, strings.NewReader(""), &stdout, &stderr); code != exitOK || !strings.Contains(stdout.String(), "taskctl") {
		t.Errorf("version: exit %d, stdout %q, stderr %q", code, stdout.String(), stderr.String())
	}
}
