package main

import (
	"errors"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/taskctl/taskctl/internal/sandbox"
	"github.com/taskctl/taskctl/workflow"
)

var update = flag.Bool("u", false, "update testscript files with actual output")

func TestMain(m *testing.M) {
	// A test that calls Main to run a workflow makes this binary (its
	// os.Args[0]) the executors' supervisor and sandbox helper.
	if len(os.Args) > 1 && (os.Args[1] == superviseCmd || os.Args[1] == sandbox.HelperArg) {
		os.Exit(Main())
	}
	if len(os.Args) > 1 {
		if role, ok := testRole(os.Args[1]); ok {
			os.Exit(role())
		}
	}
	testscript.Main(m, map[string]func(){
		"taskctl": func() { os.Exit(Main()) },
	})
}

func TestScripts(t *testing.T) {
	t.Parallel()
	testscript.Run(t, scriptParams("testdata/script", nil))
}

// TestExamples runs testdata/example/*.txtar, each with a copy of the
// project of examples/ its name names in $WORK (gofix.txtar: $WORK/gofix).
func TestExamples(t *testing.T) {
	t.Parallel()
	testscript.Run(t, scriptParams("testdata/example", func(env *testscript.Env) error {
		name := strings.TrimSuffix(filepath.Base(env.WorkDir), filepath.Ext(env.WorkDir))
		name = name[strings.LastIndex(name, "-")+1:]
		return os.CopyFS(filepath.Join(env.WorkDir, name), os.DirFS(filepath.Join("..", "..", "examples", name)))
	}))
}

// scriptParams are the testscript parameters of the scripts in dir; setup,
// if not nil, runs after the common setup.
func scriptParams(dir string, setup func(*testscript.Env) error) testscript.Params {
	return testscript.Params{
		Dir:                 dir,
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		UpdateScripts:       *update,
		Setup: func(env *testscript.Env) error {
			// Keep the user's config out of the tests.
			env.Setenv("XDG_CONFIG_HOME", filepath.Join(env.WorkDir, ".xdg"))
			env.Setenv("HOME", filepath.Join(env.WorkDir, ".home"))
			env.Setenv("NO_COLOR", "1")
			if setup != nil {
				return setup(env)
			}
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			// mkfifo PATH
			"mkfifo": func(ts *testscript.TestScript, neg bool, args []string) {
				if len(args) != 1 {
					ts.Fatalf("usage: mkfifo PATH")
				}
				ts.Check(syscall.Mkfifo(ts.MkAbs(args[0]), 0o644))
			},
			// gitinit DIR: a real git repository with everything committed.
			"gitinit": func(ts *testscript.TestScript, neg bool, args []string) {
				if len(args) != 1 {
					ts.Fatalf("usage: gitinit DIR")
				}
				dir := ts.MkAbs(args[0])
				for _, a := range [][]string{
					{"init", "-q"},
					{"-c", "user.email=t@example.com", "-c", "user.name=t", "add", "-A"},
					{"-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-q", "-m", "init"},
				} {
					cmd := exec.Command("git", a...)
					cmd.Dir = dir
					if out, err := cmd.CombinedOutput(); err != nil {
						ts.Fatalf("git %v: %v\n%s", a, err, out)
					}
				}
			},
			// binfile PATH: a small PNG-like file holding NUL bytes.
			"binfile": func(ts *testscript.TestScript, neg bool, args []string) {
				if len(args) != 1 {
					ts.Fatalf("usage: binfile PATH")
				}
				ts.Check(os.WriteFile(ts.MkAbs(args[0]), []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00binary"), 0o644))
			},
			// waitfile PATH: wait until PATH exists (a background
			// command's sign that it got somewhere); fails after a minute.
			"waitfile": func(ts *testscript.TestScript, neg bool, args []string) {
				if len(args) != 1 {
					ts.Fatalf("usage: waitfile PATH")
				}
				for range 600 {
					if _, err := os.Stat(ts.MkAbs(args[0])); err == nil {
						return
					}
					time.Sleep(100 * time.Millisecond)
				}
				ts.Fatalf("%s did not appear", args[0])
			},
			// lastrun PROJDIR: set $RUN to the newest run id under PROJDIR
			// (as "latest" means it: of runs started in the same second,
			// the one whose record says it started last).
			"lastrun": func(ts *testscript.TestScript, neg bool, args []string) {
				if len(args) != 1 {
					ts.Fatalf("usage: lastrun PROJDIR")
				}
				rec, err := workflow.LoadRun(filepath.Join(ts.MkAbs(args[0]), ".taskctl", "runs"), "latest")
				if err != nil {
					ts.Fatalf("no run under %s: %v", args[0], err)
				}
				ts.Setenv("RUN", rec.ID)
			},
			// exits CODE PROG [ARGS...]: run PROG as exec does (stdout and
			// stderr kept for the next assertions) and require exit CODE.
			"exits": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg || len(args) < 2 {
					ts.Fatalf("usage: exits CODE PROG [ARGS...]")
				}
				want, err := strconv.Atoi(args[0])
				ts.Check(err)
				got := 0
				if err := ts.Exec(args[1], args[2:]...); err != nil {
					var ee *exec.ExitError
					if !errors.As(err, &ee) {
						ts.Fatalf("%s: %v", args[1], err)
					}
					got = ee.ExitCode()
				}
				if got != want {
					ts.Fatalf("%s exited %d, want %d", args[1], got, want)
				}
			},
			// chmod000 PATH
			"chmod000": func(ts *testscript.TestScript, neg bool, args []string) {
				ts.Check(os.Chmod(ts.MkAbs(args[0]), 0))
			},
		},
		Condition: func(cond string) (bool, error) {
			switch cond {
			case "root":
				return os.Geteuid() == 0, nil
			case "linux":
				return runtime.GOOS == "linux", nil
			case "landlock":
				return sandbox.Check(sandbox.Strict) == nil, nil
			}
			return false, nil
		},
	}
}
