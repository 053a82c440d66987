package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/taskctl/taskctl/contextgen/tokens"
	"github.com/taskctl/taskctl/internal/diag"
	"github.com/taskctl/taskctl/internal/hostile"
)

// A cloned repository is the attacker's, .taskctl/ included: whatever it
// commits where taskctl keeps its state (the index, its lock, its walk
// cache and .gitignore, the runs, the audit log, the token cache) must not
// make taskctl write, create or lock anything outside the clone. These
// tests clone real repositories that commit symbolic links there (and put
// FIFOs and hard links there, which no commit holds but a local user can),
// run taskctl in them, and compare snapshots of the directory outside
// before and after. Each such thing is refused with STATE_UNSAFE.

// stateVictim is the directory outside the clone that the hostile links
// point into, with a file a hard link can share.
func stateVictim(t *testing.T) string {
	return hostile.Dir(t, map[string]string{"victim.txt": "not yours\n", "state/keep.txt": "x\n", "runs/keep.txt": "x\n"})
}

var cloneFiles = map[string]string{
	"src/auth.go":  "package auth\n\n// Login checks a password.\nfunc Login() {}\n",
	"docs/read.md": "# Login\n",
	"t.xml":        "<task name=\"t\"><description>login</description><file_paths><path>src/auth.go</path></file_paths></task>\n",
}

// stateRun runs taskctl in proj with --output json and decodes what it
// printed; it fails the test if the command does not return within a
// minute (opening a FIFO for writing blocks until a reader comes).
func stateRun(t *testing.T, proj string, args ...string) (int, stateEnvelope) {
	t.Helper()
	type result struct {
		code     int
		out, err string
	}
	done := make(chan result, 1)
	go func() {
		code, out, errs := taskctl(t, append([]string{"--project-dir", proj, "--cwd", proj, "--output", "json"}, args...)...)
		done <- result{code, out, errs}
	}()
	var r result
	select {
	case r = <-done:
	case <-time.After(time.Minute):
		t.Fatalf("taskctl %s: still running after a minute (blocked on a FIFO?)", strings.Join(args, " "))
	}
	var env stateEnvelope
	if err := json.Unmarshal([]byte(r.out), &env); err != nil {
		t.Fatalf("taskctl %s: exit %d, bad json: %v\n%s\n%s", strings.Join(args, " "), r.code, err, r.out, r.err)
	}
	return r.code, env
}

// stateEnvelope is what the tests read of any command's envelope.
type stateEnvelope struct {
	Error *struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
	Warnings []diag.Warning `json:"warnings"`
}

func TestHostileIndexState(t *testing.T) {
	cases := []struct {
		name  string
		links func(out string) map[string]string
		plant func(t *testing.T, proj, out string) // after the clone
	}{
		{name: "lock and .gitignore symlinked out", links: func(out string) map[string]string {
			return map[string]string{".taskctl/index/lock": out + "/a", ".taskctl/index/.gitignore": out + "/b"}
		}},
		{name: ".taskctl symlinked out", links: func(out string) map[string]string {
			return map[string]string{".taskctl": out + "/state"}
		}},
		{name: ".taskctl/index symlinked out", links: func(out string) map[string]string {
			return map[string]string{".taskctl/index": out + "/state"}
		}},
		{name: ".taskctl/index symlinked to a missing directory", links: func(out string) map[string]string {
			return map[string]string{".taskctl/index": out + "/new"}
		}},
		{name: "index file symlinked out", links: func(out string) map[string]string {
			return map[string]string{".taskctl/index/index.bin": out + "/victim.txt"}
		}},
		{name: "walk cache symlinked out", links: func(out string) map[string]string {
			return map[string]string{".taskctl/index/walk.bin": out + "/w"}
		}},
		{name: "lock a FIFO", plant: func(t *testing.T, proj, out string) {
			mkdir(t, filepath.Join(proj, ".taskctl", "index"))
			if err := syscall.Mkfifo(filepath.Join(proj, ".taskctl", "index", "lock"), 0o644); err != nil {
				t.Fatal(err)
			}
		}},
		{name: "lock hard-linked out", plant: func(t *testing.T, proj, out string) {
			mkdir(t, filepath.Join(proj, ".taskctl", "index"))
			if err := os.Link(filepath.Join(out, "victim.txt"), filepath.Join(proj, ".taskctl", "index", "lock")); err != nil {
				t.Fatal(err)
			}
		}},
	}
	for _, tc := range cases {
		for _, cmd := range [][]string{{"search", "login"}, {"index"}} {
			t.Run(tc.name+"/"+cmd[0], func(t *testing.T) {
				out := stateVictim(t)
				var links map[string]string
				if tc.links != nil {
					links = tc.links(out)
				}
				proj := hostile.Clone(t, cloneFiles, links)
				if tc.plant != nil {
					tc.plant(t, proj, out)
				}
				before := hostile.Snapshot(t, out)
				code, env := stateRun(t, proj, cmd...)
				hostile.Unchanged(t, out, before, "taskctl "+cmd[0])
				if code == 0 || env.Error == nil || env.Error.Code != "STATE_UNSAFE" {
					t.Fatalf("exit %d, error %+v: want a STATE_UNSAFE refusal", code, env.Error)
				}
				if !strings.Contains(env.Error.Message, proj) {
					t.Errorf("the refusal does not name what stood in the way: %s", env.Error.Message)
				}
			})
		}
	}
}

func TestHostileAuditLog(t *testing.T) {
	cases := []struct {
		name  string
		links func(out string) map[string]string
		plant func(t *testing.T, proj, out string)
	}{
		{name: "symlinked out", links: func(out string) map[string]string {
			return map[string]string{".taskctl/audit.jsonl": out + "/victim.txt"}
		}},
		{name: "hard-linked out", plant: func(t *testing.T, proj, out string) {
			mkdir(t, filepath.Join(proj, ".taskctl"))
			if err := os.Link(filepath.Join(out, "victim.txt"), filepath.Join(proj, ".taskctl", "audit.jsonl")); err != nil {
				t.Fatal(err)
			}
		}},
		{name: "a FIFO", plant: func(t *testing.T, proj, out string) {
			mkdir(t, filepath.Join(proj, ".taskctl"))
			if err := syscall.Mkfifo(filepath.Join(proj, ".taskctl", "audit.jsonl"), 0o644); err != nil {
				t.Fatal(err)
			}
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out := stateVictim(t)
			var links map[string]string
			if tc.links != nil {
				links = tc.links(out)
			}
			proj := hostile.Clone(t, cloneFiles, links)
			if tc.plant != nil {
				tc.plant(t, proj, out)
			}
			cfg := filepath.Join(t.TempDir(), "user.xml") // the user's own config turns the log on
			if err := os.WriteFile(cfg, []byte("<config><audit>true</audit></config>\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			before := hostile.Snapshot(t, out)
			code, env := stateRun(t, proj, "--config", cfg, "assemble", "t.xml", "--tokenizer", "none")
			hostile.Unchanged(t, out, before, "taskctl assemble")
			if code != 0 {
				t.Fatalf("exit %d, error %+v: the log is not the command's job", code, env.Error)
			}
			found := false
			for _, w := range env.Warnings {
				found = found || w.Code == "AUDIT_UNAVAILABLE" && strings.Contains(w.Message, "STATE_UNSAFE")
			}
			if !found {
				t.Errorf("no AUDIT_UNAVAILABLE warning saying STATE_UNSAFE: %+v", env.Warnings)
			}
		})
	}
}

func TestHostileRunsDir(t *testing.T) {
	out := stateVictim(t)
	proj := hostile.Clone(t, cloneFiles, map[string]string{".taskctl/runs": out + "/runs"})
	before := hostile.Snapshot(t, out)
	code, env := stateRun(t, proj, "run", "t.xml", "--executor", "cat")
	hostile.Unchanged(t, out, before, "taskctl run")
	if code == 0 || env.Error == nil || env.Error.Code != "STATE_UNSAFE" {
		t.Fatalf("exit %d, error %+v: want a STATE_UNSAFE refusal", code, env.Error)
	}
}

func TestHostileTokenCache(t *testing.T) {
	out := stateVictim(t)
	proj := hostile.Clone(t, cloneFiles, map[string]string{".taskctl/cache/tokens/" + tokens.CacheFile: out + "/victim.txt"})
	before := hostile.Snapshot(t, out)
	code, env := stateRun(t, proj, "assemble", "t.xml")
	hostile.Unchanged(t, out, before, "taskctl assemble")
	if code != 0 {
		t.Fatalf("exit %d, error %+v", code, env.Error)
	}
}

func mkdir(t *testing.T, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
}

// TestHostileInit: init --force rewrites config.xml and tasks/; a file
// there that shares its data with one outside (a hard link) is replaced,
// the file outside keeps its content, and a symlink is refused.
func TestHostileInit(t *testing.T) {
	out := hostile.Dir(t, map[string]string{"victim.xml": "<config><!-- not yours --></config>\n"})
	proj := hostile.Clone(t, cloneFiles, map[string]string{".taskctl/tasks/example.xml": out + "/new.xml"})
	mkdir(t, filepath.Join(proj, ".taskctl"))
	if err := os.Link(filepath.Join(out, "victim.xml"), filepath.Join(proj, ".taskctl", "config.xml")); err != nil {
		t.Fatal(err)
	}
	before := hostile.Snapshot(t, out)
	code, env := stateRun(t, proj, "init", "--force")
	hostile.Unchanged(t, out, before, "taskctl init --force")
	if code == 0 || env.Error == nil || env.Error.Code != "STATE_UNSAFE" || !strings.Contains(env.Error.Message, "example.xml") {
		t.Fatalf("exit %d, error %+v: want a STATE_UNSAFE refusal of tasks/example.xml", code, env.Error)
	}
	if data, err := os.ReadFile(filepath.Join(proj, ".taskctl", "config.xml")); err != nil || strings.Contains(string(data), "not yours") {
		t.Errorf("config.xml = %q, %v: want init's", data, err)
	}
}
