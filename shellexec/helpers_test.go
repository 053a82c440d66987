package shellexec_test

import (
	"context"
	"github.com/taskctl/taskctl/root"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/taskctl/taskctl/shellexec"
)

// fixture files: path -> content; a content starting with "->" makes a
// symlink to the rest; a path ending in "/" makes a directory.
var fixtureFiles = map[string]string{
	"README.md":               "# demo\nTODO: write docs\n",
	"go.mod":                  "module demo\n",
	"main.go":                 "package main\n\n// TODO: flags\nfunc main() {}\n",
	"main_test.go":            "package main\n\nimport \"testing\"\n\nfunc TestMain(t *testing.T) {}\n",
	"src/app.py":              "import os\n# TODO refactor\nprint('hello')\n",
	"src/util.py":             "def helper():\n    return 42\n",
	"src/__pycache__/app.pyc": "\x00\x01binary TODO\x00",
	"src/pkg/mod.py":          "class Mod:\n    pass\n",
	"src/pkg/data.json":       "{\"key\": \"value\", \"todo\": true}\n",
	"docs/guide.md":           "Guide\nfoo bar baz\nfoo\nbar\nfoo\n",
	"docs/notes.txt":          "alpha\nbeta\ngamma\ndelta\nepsilon\nzeta\neta\ntheta\niota\nkappa\nlambda\nmu\n",
	"docs/empty.txt":          "",
	"emptydir/":               "",
	"data/nums.txt":           "10\n2\n33\n2\n-5\n7.5\n100\n",
	"data/words.txt":          "pear\napple\nPear\nbanana\napple\ncherry\n",
	"data/table.csv":          "id,name,score\n1,ann,90\n2,bob,85\n3,cy,77\n",
	"data/nolf.txt":           "no trailing newline",
	"space dir/file one.txt":  "hello world\n",
	".hidden":                 "secret-ish but inside\n",
	".gitignore":              "*.log\nbuild/\n",
	"build/out.bin":           "built\n",
	"debug.log":               "log line TODO\n",
}

func buildTree(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if strings.HasSuffix(name, "/") {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if target, ok := strings.CutPrefix(content, "->"); ok {
			if err := os.Symlink(target, p); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// project makes a fixture project and returns its real path and a Config.
func project(t testing.TB, files map[string]string) (string, shellexec.Config) {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	dir = filepath.Join(dir, "proj")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	buildTree(t, dir, files)
	rt, err := root.Open([]string{dir}, root.Policy{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rt.Close() })
	// The limit only stops a runaway script; TestTimeout tests the limit
	// itself. It is wide because a correct run of the differential grep
	// over large files takes seconds under -race on a loaded machine.
	return dir, shellexec.Config{Root: rt, Dir: dir, Timeout: 30 * time.Second}
}

func run(t testing.TB, script string, cfg shellexec.Config) (*shellexec.Result, error) {
	t.Helper()
	return shellexec.Run(context.Background(), script, cfg)
}

// withPolicy returns cfg with its root opened again under pol.
func withPolicy(t testing.TB, cfg shellexec.Config, pol root.Policy) shellexec.Config {
	t.Helper()
	rt, err := root.Open([]string{cfg.Root.Dir()}, pol)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rt.Close() })
	cfg.Root = rt
	return cfg
}
