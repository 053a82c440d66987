package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestRunInterrupted cancels the context of a run whose step hangs, as
// SIGINT or SIGTERM does through Main: the exit code is 130, the json error
// is INTERRUPTED with the run's partial record, and the record on disk says
// interrupted.
func TestRunInterrupted(t *testing.T) {
	proj := t.TempDir()
	started := filepath.Join(proj, ".taskctl", "workspace", "started") // (where the sandbox lets it write)
	writeFiles(t, proj, map[string]string{
		"go.mod":  "module x\n",
		"hang.sh": "touch " + started + "\nsleep 30\n",
		"flow.xml": `<task name="f" type="sequential"><description>d</description><steps>
<task name="first"><description>one</description></task>
<task name="second"><description>two</description></task></steps></task>`,
	})
	if err := os.MkdirAll(filepath.Dir(started), 0o755); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		for ctx.Err() == nil {
			if _, err := os.Stat(started); err == nil {
				cancel()
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
	}()
	var out, errb bytes.Buffer
	code := run(ctx, []string{"--project-dir", proj, "--output", "json", "run", filepath.Join(proj, "flow.xml"),
		"--executor", "bash " + filepath.Join(proj, "hang.sh")}, strings.NewReader(""), &out, &errb)
	if code != exitInterrupted {
		t.Fatalf("exit %d, want %d\n%s\n%s", code, exitInterrupted, out.String(), errb.String())
	}
	var env struct {
		OK    bool
		Error struct {
			Code    string
			Details struct {
				ID     string `json:"run_id"`
				Status string
			}
		}
	}
	if err := json.Unmarshal(out.Bytes(), &env); err != nil {
		t.Fatalf("bad json: %v\n%s", err, out.String())
	}
	if env.OK || env.Error.Code != "INTERRUPTED" || env.Error.Details.Status != "interrupted" {
		t.Fatalf("envelope: ok %v, code %q, status %q, want INTERRUPTED/interrupted\n%s", env.OK, env.Error.Code, env.Error.Details.Status, out.String())
	}
	rec, err := os.ReadFile(filepath.Join(proj, ".taskctl", "runs", env.Error.Details.ID, "run.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(rec, []byte(`"interrupted"`)) {
		t.Errorf("run.json does not say interrupted:\n%s", rec)
	}
}

// TestDryRunJSONPrompts checks that a dry run in json carries each atomic
// step's prompt, with a later step's bound input shown as pending.
func TestDryRunJSONPrompts(t *testing.T) {
	proj := t.TempDir()
	writeFiles(t, proj, map[string]string{
		"go.mod": "module x\n",
		"a.txt":  "alpha\n",
		"flow.xml": `<task name="f" type="sequential"><description>d</description><steps>
<task name="first"><description>find the alpha</description><file_paths><path>a.txt</path></file_paths></task>
<task name="second"><description>use it</description><instructions>Given {{got}}</instructions>
<inputs><input name="got" from="first.output"/></inputs></task></steps></task>`,
	})
	code, out, errs := taskctl(t, "--project-dir", proj, "--output", "json", "run", filepath.Join(proj, "flow.xml"), "--dry-run")
	if code != exitOK {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	var env struct {
		Data struct {
			Steps []struct {
				Name, Status, Prompt string
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &env); err != nil {
		t.Fatalf("bad json: %v\n%s", err, out)
	}
	if len(env.Data.Steps) != 2 {
		t.Fatalf("%d steps, want 2\n%s", len(env.Data.Steps), out)
	}
	if p := env.Data.Steps[0].Prompt; !strings.Contains(p, "find the alpha") || !strings.Contains(p, "alpha\n") {
		t.Errorf("first prompt lacks its description or a.txt's content:\n%s", p)
	}
	if p := env.Data.Steps[1].Prompt; !strings.Contains(p, "<pending: first.output>") {
		t.Errorf("second prompt does not show its input as pending:\n%s", p)
	}
}
