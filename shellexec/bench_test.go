package shellexec_test

import (
	"context"
	"github.com/taskctl/taskctl/root"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/taskctl/taskctl/shellexec"
)

// benchPipelines are the pipelines bench/command.sh compares with GNU
// find and grep in bash.
var benchPipelines = map[string]string{
	"FindGrep": `find . -name "*.go" | grep -v _test`,
	"GrepRL":   `grep -rl TODO .`,
	// FindHead shows head ending the walk early.
	"FindHead": `find . -type f | head -n 5`,
}

func benchConfig(b *testing.B) shellexec.Config {
	dir := os.Getenv("SHELLEXEC_BENCH_DIR")
	if dir == "" {
		out, err := exec.Command("go", "env", "GOROOT").Output()
		if err != nil {
			b.Skip("go env GOROOT:", err)
		}
		dir = filepath.Join(strings.TrimSpace(string(out)), "src")
	}
	dir, err := filepath.EvalSymlinks(dir)
	if err != nil {
		b.Skip(err)
	}
	rt, err := root.Open([]string{dir}, root.Policy{})
	if err != nil {
		b.Skip(err)
	}
	b.Cleanup(func() { rt.Close() })
	return shellexec.Config{Root: rt, Dir: dir, Timeout: time.Minute,
		MaxStdoutBytes: 256 << 20, MaxStdoutLines: 1 << 24}
}

func BenchmarkPipeline(b *testing.B) {
	cfg := benchConfig(b)
	for _, name := range []string{"FindGrep", "GrepRL", "FindHead"} {
		script := benchPipelines[name]
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				res, err := shellexec.Run(context.Background(), script, cfg)
				if err != nil || res.ExitStatus != 0 || res.Truncated {
					b.Fatalf("Run(%q): %v status %d truncated %v: %s", script, err, res.ExitStatus, res.Truncated, res.Stderr)
				}
				b.ReportMetric(float64(len(res.Records)), "records")
			}
		})
	}
}
