//go:build unix

package workflow_test

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/taskctl/taskctl/workflow"
)

const oldID = "20200101-000000-abcd"

// writeRun makes run oldID in runs with record as its run.json and returns
// the run's directory.
func writeRun(t *testing.T, runs, record string) string {
	t.Helper()
	dir := filepath.Join(runs, oldID)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "run.json"), []byte(record), 0o600); err != nil {
		t.Fatal(err)
	}
	return dir
}

// v2 is a finished record of version 2 whose one step's output is in
// 01-a.output.txt.
const v2 = `{"version": 2, "run_id": "` + oldID + `", "task": "old", "status": "ok",
  "started": "2020-01-01T00:00:00Z", "duration_ms": 1, "files": [],
  "steps": [{"index": 1, "name": "a", "type": "atomic", "depth": 1, "status": "ok",
    "files": [], "inherit": "full", "duration_ms": 1, "output_file": "01-a.output.txt"}]}`

// LoadRun reads a step's output only from a regular file of the run's own
// directory, and only one no larger than a step's output may be: a crafted
// run directory makes it fail, never hang or run out of memory.
func TestLoadRunOutputFile(t *testing.T) {
	const name = "01-a.output.txt"
	for _, tt := range []struct {
		desc string
		make func(t *testing.T, dir string) // makes name in dir
		want string                         // in the error, "" for none
	}{
		{"regular", func(t *testing.T, dir string) {
			if err := os.WriteFile(filepath.Join(dir, name), []byte("out\n"), 0o600); err != nil {
				t.Fatal(err)
			}
		}, ""},
		{"fifo", func(t *testing.T, dir string) {
			if err := syscall.Mkfifo(filepath.Join(dir, name), 0o600); err != nil {
				t.Fatal(err)
			}
		}, "not a regular file"},
		{"symlink in the run", func(t *testing.T, dir string) {
			if err := os.WriteFile(filepath.Join(dir, "other"), []byte("out\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink("other", filepath.Join(dir, name)); err != nil {
				t.Fatal(err)
			}
		}, "not a regular file"},
		{"symlink to another run", func(t *testing.T, dir string) {
			other := filepath.Join(filepath.Dir(dir), "20200101-000000-ffff")
			if err := os.Mkdir(other, 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(other, name), []byte("out\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(filepath.Join("..", "20200101-000000-ffff", name), filepath.Join(dir, name)); err != nil {
				t.Fatal(err)
			}
		}, "not a regular file"},
		{"oversized", func(t *testing.T, dir string) {
			// Sparse: it takes no room on disk, and must take none in
			// memory.
			f, err := os.Create(filepath.Join(dir, name))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if err := f.Truncate(64<<20 + 1); err != nil {
				t.Fatal(err)
			}
		}, "step a: read its output: " + name + " is 67108865 bytes, more than the 64 MiB"},
	} {
		t.Run(tt.desc, func(t *testing.T) {
			_, runs := setup(t)
			dir := writeRun(t, runs, v2)
			tt.make(t, dir)
			type result struct {
				rec *workflow.Record
				err error
			}
			done := make(chan result, 1)
			go func() {
				rec, err := workflow.LoadRun(runs, oldID)
				done <- result{rec, err}
			}()
			var got result
			select {
			case got = <-done:
			case <-time.After(10 * time.Second):
				// Let a LoadRun blocked in opening the FIFO return.
				if f, err := os.OpenFile(filepath.Join(dir, name), os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
					f.Close()
				}
				t.Fatal("LoadRun still runs after 10s")
			}
			switch {
			case tt.want == "" && got.err != nil:
				t.Fatalf("LoadRun: %v", got.err)
			case tt.want == "" && got.rec.Steps[0].Output != "out\n":
				t.Errorf("output %q, want %q", got.rec.Steps[0].Output, "out\n")
			case tt.want != "" && (got.err == nil || !strings.Contains(got.err.Error(), tt.want)):
				t.Errorf("LoadRun = %v, want an error with %q", got.err, tt.want)
			}
		})
	}
}

// next is a run that settles the runs before it.
const next = `<task name="next" type="sequential"><description>d</description><steps><task name="only"><description>d</description></task></steps></task>`

// A run rewrites a record of version 1 whose process is gone as
// interrupted, and as version 1: with the outputs it holds. (Version 1 named
// an output file even when writing it failed.)
func TestSettleVersion1(t *testing.T) {
	project, runs := setup(t)
	v1 := `{"version": 1, "run_id": "` + oldID + `", "task": "old", "status": "running", "pid": 0,
  "started": "2020-01-01T00:00:00Z", "duration_ms": 1, "files": [],
  "steps": [{"index": 1, "name": "a", "type": "atomic", "depth": 1, "status": "ok", "output": "old output\n",
    "files": [], "inherit": "full", "duration_ms": 1, "output_file": "01-a.output.txt"}]}`
	dir := writeRun(t, runs, v1)
	rec, err := workflow.Run(context.Background(), parse(t, next), options(&fake{dir: project}, project, runs, script(t, "notes.sh")))
	if err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(filepath.Join(rec.Dir, "run.json")); !strings.Contains(string(data), `"version": 3,`) {
		t.Errorf("the new run's run.json is not version 3:\n%s", data)
	}
	got, err := workflow.LoadRun(runs, oldID)
	if err != nil {
		t.Fatalf("LoadRun after the next run: %v", err)
	}
	if got.Version != 1 || got.Status != workflow.RunInterrupted || got.Steps[0].Output != "old output\n" {
		t.Errorf("after the next run: version %d, status %q, output %q; want 1, interrupted, %q",
			got.Version, got.Status, got.Steps[0].Output, "old output\n")
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "run.json")); !strings.Contains(string(data), `"status": "interrupted"`) {
		t.Errorf("run.json was not rewritten:\n%s", data)
	}
}

// A run removes the temporary output files a run whose process is gone left
// in its directory (a SIGKILL mid-step leaves one), and nothing else: not
// another file, not a symbolic link or a directory with such a name, not the
// temporary file of a run that still runs.
func TestSettleRemovesOutputTemps(t *testing.T) {
	project, runs := setup(t)
	record := func(id string, pid int) string {
		return `{"version": 2, "run_id": "` + id + `", "task": "old", "status": "running", "pid": ` + strconv.Itoa(pid) + `,
  "started": "2020-01-01T00:00:00Z", "duration_ms": 1, "files": [],
  "steps": [{"index": 1, "name": "a", "type": "atomic", "depth": 1, "status": "ok",
    "files": [], "inherit": "full", "duration_ms": 1, "output_file": "01-a.output.txt"},
    {"index": 2, "name": "b", "type": "atomic", "depth": 1, "status": "running",
    "files": [], "inherit": "full", "duration_ms": 0}]}`
	}
	const temp = ".02-b.output.txt.0123456789ab.tmp"
	dead := writeRun(t, runs, record(oldID, 0))
	kept := []string{
		"01-a.output.txt",
		"02-b.prompt.txt",
		".run.json.0123456789ab.tmp", // not an output file's
		".02-b.output.txt.tmp",
		"02-b.output.txt.0123456789ab.tmp",
	}
	for _, name := range append([]string{temp}, kept...) {
		if err := os.WriteFile(filepath.Join(dead, name), []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	link, subdir := ".03-c.output.txt.aaaaaaaaaaaa.tmp", ".04-d.output.txt.bbbbbbbbbbbb.tmp"
	if err := os.Symlink("01-a.output.txt", filepath.Join(dead, link)); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dead, subdir), 0o700); err != nil {
		t.Fatal(err)
	}
	kept = append(kept, link, subdir)

	// A run this process runs: alive.
	const liveID = "20200101-000000-ffff"
	live := filepath.Join(runs, liveID)
	if err := os.Mkdir(live, 0o700); err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string]string{"run.json": record(liveID, os.Getpid()), "01-a.output.txt": "x", temp: "x"} {
		if err := os.WriteFile(filepath.Join(live, name), []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
	}

	if _, err := workflow.Run(context.Background(), parse(t, next), options(&fake{dir: project}, project, runs, script(t, "notes.sh"))); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(filepath.Join(dead, "run.json")); !strings.Contains(string(data), `"status": "interrupted"`) {
		t.Fatalf("the dead run was not settled:\n%s", data)
	}
	if _, err := os.Lstat(filepath.Join(dead, temp)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("%s of the dead run: %v, want it removed", temp, err)
	}
	for _, name := range kept {
		if _, err := os.Lstat(filepath.Join(dead, name)); err != nil {
			t.Errorf("%s of the dead run: %v, want it kept", name, err)
		}
	}
	if _, err := os.Lstat(filepath.Join(live, temp)); err != nil {
		t.Errorf("%s of the live run: %v, want it kept", temp, err)
	}
}

// A step's output that parsed to JSON is in run.json once: in the output
// file, which LoadRun parses again (version 3). A version 2 record, which
// holds the parsed JSON itself, reads back with it; a version 3 record
// whose output file no longer parses does not read back.
func TestParsedOnlyInOutputFile(t *testing.T) {
	project, runs := setup(t)
	rec, err := workflow.Run(context.Background(), parse(t, scoped), options(&fake{dir: project}, project, runs, script(t, "notes.sh")))
	if err != nil {
		t.Fatal(err)
	}
	first := rec.Step("first")
	if first.Parsed == nil || first.OutputFile == "" {
		t.Fatalf("first: parsed %s, output file %q; want both", first.Parsed, first.OutputFile)
	}
	data, err := os.ReadFile(filepath.Join(rec.Dir, "run.json"))
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(data, []byte(`"parsed":`)) || !bytes.Contains(data, []byte(`"parsed_from_output": true`)) {
		t.Errorf("run.json holds the parsed output, or does not say where it is:\n%s", data)
	}
	got, err := workflow.LoadRun(runs, rec.ID)
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range got.Steps {
		if !bytes.Equal(s.Parsed, rec.Steps[i].Parsed) || !bytes.Equal(s.Notes, rec.Steps[i].Notes) {
			t.Errorf("step %s read back with parsed %s notes %s, want %s %s", s.Name, s.Parsed, s.Notes, rec.Steps[i].Parsed, rec.Steps[i].Notes)
		}
	}

	v2 := `{"version": 2, "run_id": "` + oldID + `", "task": "old", "status": "ok",
  "started": "2020-01-01T00:00:00Z", "duration_ms": 1, "files": [],
  "steps": [{"index": 1, "name": "a", "type": "atomic", "depth": 1, "status": "ok", "parsed": {"notes": {"k": 1}},
    "files": [], "inherit": "full", "duration_ms": 1, "output_file": "01-a.output.txt"}]}`
	dir := writeRun(t, runs, v2)
	if err := os.WriteFile(filepath.Join(dir, "01-a.output.txt"), []byte("old output\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got, err := workflow.LoadRun(runs, oldID); err != nil {
		t.Errorf("version 2 record: %v", err)
	} else if string(got.Steps[0].Parsed) != `{"notes":{"k":1}}` {
		t.Errorf("version 2 record read back with parsed %s, want its parsed JSON", got.Steps[0].Parsed)
	}

	if err := os.WriteFile(filepath.Join(rec.Dir, first.OutputFile), []byte("no longer JSON"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := workflow.LoadRun(runs, rec.ID); err == nil || !strings.Contains(err.Error(), "step first: its output no longer parses") {
		t.Errorf("LoadRun with a changed output file: %v, want an error naming the step", err)
	}
}

// A run.json without the record's fields, or with a null step, is an
// error or an empty record, never a crash: LoadRun runs on every record of
// the runs directory when a run settles the ones before it.
func TestLoadRunHollowRecord(t *testing.T) {
	_, runs := setup(t)
	for _, record := range []string{`null`, `{}`, `{"steps": []}`, `{"steps": [null]}`, `{"version": 3, "steps": [{"parsed_from_output": true}]}`} {
		writeRun(t, runs, record)
		func() {
			defer func() {
				if p := recover(); p != nil {
					t.Errorf("run.json %s: LoadRun panicked: %v", record, p)
				}
			}()
			workflow.LoadRun(runs, oldID)
		}()
	}
}
