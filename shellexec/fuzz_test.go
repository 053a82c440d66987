package shellexec_test

import (
	"context"
	"errors"
	"github.com/taskctl/taskctl/root"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/taskctl/taskctl/shellexec"
)

// FuzzRun runs random scripts in the attack fixture: they must never
// write, never print data from outside the project, never panic and
// always return.
//
//	go test -run=- -fuzz=FuzzRun -fuzztime=2m ./shellexec/
func FuzzRun(f *testing.F) {
	for _, r := range attackRows {
		f.Add(r.script)
	}
	for _, r := range diffRows {
		f.Add(r.script)
	}
	base, err := filepath.EvalSymlinks(f.TempDir())
	if err != nil {
		f.Fatal(err)
	}
	proj := filepath.Join(base, "proj")
	outside := filepath.Join(base, "outside")
	buildTree(f, outside, map[string]string{"secret.txt": marker + "\n"})
	files := map[string]string{"link-out": "->../outside/secret.txt", "link-dir": "->../outside"}
	for k, v := range fixtureFiles {
		files[k] = v
	}
	os.MkdirAll(proj, 0o755)
	buildTree(f, proj, files)
	rt, err := root.Open([]string{proj}, root.Policy{})
	if err != nil {
		f.Fatal(err)
	}
	defer rt.Close()
	cfg := shellexec.Config{Root: rt, Dir: proj, Timeout: 500 * time.Millisecond,
		MaxStdoutBytes: 256 << 10}
	before := snapshotTB(f, base)
	f.Fuzz(func(t *testing.T, script string) {
		done := make(chan struct{})
		var res *shellexec.Result
		var err error
		go func() {
			defer close(done)
			res, err = shellexec.Run(context.Background(), script, cfg)
		}()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatalf("Run(%q) did not return", script)
		}
		if d := before.diff(snapshotTB(t, base)); len(d) > 0 {
			t.Fatalf("Run(%q) changed the file system: %v", script, d)
		}
		if res == nil {
			if _, ok := errors.AsType[*shellexec.DeniedError](err); !ok {
				t.Fatalf("Run(%q): nil Result, err %v", script, err)
			}
			return
		}
		if strings.Contains(string(res.Stdout), marker) || strings.Contains(string(res.Stderr), marker) {
			t.Fatalf("Run(%q) leaked outside data: %q %q", script, res.Stdout, res.Stderr)
		}
	})
}
