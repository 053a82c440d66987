package memory_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/taskctl/taskctl/memory"
)

// A request in other words than the code's finds it through the concept
// thesaurus, below a file that has the request's own word, and --explain
// shows the partner that matched.
func TestConceptPartners(t *testing.T) {
	root := writeTree(t, map[string]string{
		"proxy/balancer.go": "package proxy\n\n// pickUpstream chooses a backend by the balancing policy.\nfunc pickUpstream(ups []Upstream) Upstream { return ups[0] }\n",
		"proxy/spread.go":   "package proxy\n\n// spreadWork spreads the work.\nfunc spreadWork() {}\n",
		"log/writer.go":     "package log\n\n// Write writes a log line.\nfunc Write(line string) {}\n",
	})
	ix, _ := build(t, root)
	ms := ix.Search("spread requests over backends", memory.SearchOptions{Explain: true})
	got := rels(ms)
	if len(got) < 2 || got[0] != "proxy/spread.go" && got[0] != "proxy/balancer.go" {
		t.Fatalf("ranking = %v, want both proxy files first", got)
	}
	i := slices.Index(got, "proxy/balancer.go")
	if i < 0 {
		t.Fatalf("balancer.go not found through its concept words: %v", got)
	}
	found := false
	for _, ts := range ms[i].Reason.Terms {
		for _, l := range ts {
			if strings.Contains(l, "≈") {
				found = true
			}
		}
	}
	if !found {
		t.Errorf("reason of balancer.go names no concept partner: %v", ms[i].Reason)
	}
	// a concept partner counts less than the word itself
	ms = ix.Search("circular dependency", memory.SearchOptions{})
	_ = ms
}

// An exact word outranks its concept partner.
func TestConceptBelowExact(t *testing.T) {
	root := writeTree(t, map[string]string{
		"a/cycle.py":    "def find_cycle(graph):\n    \"\"\"Find a cycle in the graph.\"\"\"\n    return None\n",
		"a/circular.py": "def find_circular(graph):\n    \"\"\"Find a circular path in the graph.\"\"\"\n    return None\n",
	})
	ix, _ := build(t, root)
	got := rels(ix.Search("circular graph path", memory.SearchOptions{}))
	if len(got) != 2 || got[0] != "a/circular.py" {
		t.Fatalf("ranking = %v, want a/circular.py first and a/cycle.py found", got)
	}
}

// Tool files are found by what they are for: a lint configuration, a CI
// workflow, even when source files mention the same words more.
func TestToolFiles(t *testing.T) {
	root := writeTree(t, map[string]string{
		".golangci.yml":               "linters:\n  enable:\n    - govet\n    - errcheck\n",
		".github/workflows/tests.yml": "on: [push]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - run: go test ./...\n",
		"lint/lint.go":                "package lint\n\n// Lint runs the lint checks of a workflow and reports lint errors.\nfunc Lint(workflow string) error { return nil }\n",
		"flow/run.go":                 "package flow\n\n// RunWorkflow runs a workflow pipeline in CI mode.\nfunc RunWorkflow(ci bool) {}\n",
	})
	ix, _ := build(t, root)
	checkFirst(t, ix, map[string]string{
		"lint configuration":                  ".golangci.yml",
		"CI workflow that runs the tests":     ".github/workflows/tests.yml",
		"the continuous integration workflow": ".github/workflows/tests.yml",
	})
	// the job's word alone, in a message about code, does not lift them
	checkFirst(t, ix, map[string]string{
		"fix lint errors reported in the lint package": "lint/lint.go",
		"run the workflow of a pipeline":               "flow/run.go",
	})
}

// With a source to read the files from, a match reports the unit (a
// definition from its leading comment) that best matches, and a file
// whose one function holds the request's words ranks above one that has
// them scattered.
func TestUnits(t *testing.T) {
	root := writeTree(t, map[string]string{
		"wal/replay.go": "package wal\n\nimport \"os\"\n\n// Open opens a log.\nfunc Open(p string) (*os.File, error) { return os.Open(p) }\n\n" +
			"// Replay reads the write-ahead log back and applies its records in order.\nfunc Replay(f *os.File) error {\n\treturn nil\n}\n",
		"misc/scattered.go": "package misc\n\n// write something\nfunc A() {}\n\n" + strings.Repeat("// filler\nfunc F() {}\n\n", 10) +
			"// ahead of time\nfunc B() {}\n\n" + strings.Repeat("// filler\nfunc G() {}\n\n", 10) + "// log it\nfunc C() {}\n\n" +
			strings.Repeat("// filler\nfunc H() {}\n\n", 10) + "// replay it\nfunc D() {}\n\n// records in order\nfunc E() {}\n",
	})
	ix, _ := build(t, root)
	ms := ix.Search("write-ahead log replay", memory.SearchOptions{Source: memory.DirSource(root)})
	if len(ms) == 0 || ms[0].Rel != "wal/replay.go" {
		t.Fatalf("ranking = %v, want wal/replay.go first", rels(ms))
	}
	r := ms[0].Reason
	if r.Unit != "Replay" || r.Lines != [2]int{8, 11} {
		t.Errorf("unit = %q lines %v, want Replay lines [8 11]", r.Unit, r.Lines)
	}
	if r.Line < 8 || r.Line > 11 {
		t.Errorf("best line %d: %q, not in the unit's lines", r.Line, r.Text)
	}
	if !strings.Contains(r.String(), "lines 8-11 (Replay)") {
		t.Errorf("reason %q does not show the unit", r.String())
	}
	// without a source, no unit is reported
	ms = ix.Search("write-ahead log replay", memory.SearchOptions{})
	if len(ms) == 0 || ms[0].Reason.Lines != [2]int{} {
		t.Errorf("without a source: %v", ms)
	}
}

// A named algorithm or format in words finds the directory or file the
// project names after its acronym.
func TestAcronyms(t *testing.T) {
	root := writeTree(t, map[string]string{
		"tsdb/wal/wal.go":  "package wal\n\n// Segment is a file of records.\ntype Segment struct{}\n\nfunc (s *Segment) Read() {}\n",
		"tsdb/head.go":     "package tsdb\n\n// loadLog reads the log ahead of the head and writes it back.\nfunc loadLog() {}\n",
		"cache/lru/lru.go": "package lru\n\n// Cache evicts entries.\ntype Cache struct{}\n",
		"cache/cache.go":   "package cache\n\n// Evict drops the least recently used entry.\nfunc Evict() {}\n",
	})
	ix, _ := build(t, root)
	checkFirst(t, ix, map[string]string{
		"write-ahead log replay":       "tsdb/wal/wal.go",
		"least recently used eviction": "cache/lru/lru.go",
	})
}
