package main

import (
	"math"
	"strings"
	"testing"
	"time"
)

func TestScores(t *testing.T) {
	var s scores
	// gold a, b: a at rank 1, b at rank 7 → hits@1 1, @5 1, @10 2; RR 1.
	s.add([]string{"a", "x", "y", "z", "w", "v", "b"}, []string{"a", "b"}, time.Millisecond)
	// gold c not found; d at rank 3 → RR 1/3.
	s.add([]string{"q", "r", "d"}, []string{"c", "d"}, time.Millisecond)
	if s.hits != [3]int{1, 2, 3} || s.gold != 4 {
		t.Errorf("hits %v gold %d, want [1 2 3] 4", s.hits, s.gold)
	}
	if want := (1 + 1.0/3) / 2; math.Abs(s.rr/float64(s.n)-want) > 1e-12 {
		t.Errorf("MRR %v, want %v", s.rr/float64(s.n), want)
	}
	row := s.row("x")
	if !strings.Contains(row, "25.0") || !strings.Contains(row, "50.0") || !strings.Contains(row, "75.0") {
		t.Errorf("row %q, want recalls 25.0, 50.0, 75.0", row)
	}
}

func TestSourceAndTestPaths(t *testing.T) {
	for _, tt := range []struct {
		path         string
		source, test bool
	}{
		{"tsdb/head.go", true, false},
		{"tsdb/head_test.go", true, true},
		{"web/ui/src/App.test.tsx", true, true},
		{"pkg/testdata/x.go", true, true},
		{"docs/index.md", false, false},
		{"tests/test_api.py", true, true},
	} {
		if got := isSource(tt.path); got != tt.source {
			t.Errorf("isSource(%q) = %v, want %v", tt.path, got, tt.source)
		}
		if got := isTestPath(tt.path); got != tt.test {
			t.Errorf("isTestPath(%q) = %v, want %v", tt.path, got, tt.test)
		}
	}
}

func TestCleanMessage(t *testing.T) {
	got := cleanMessage("fix: head compaction\n\nDetails here.\n\nSigned-off-by: A <a@b>\nCo-authored-by: B <b@c>\n")
	if got != "fix: head compaction\n\nDetails here." {
		t.Errorf("cleanMessage = %q", got)
	}
}

func TestPlainBM25(t *testing.T) {
	p := newPlainBM25()
	files := []blob{{rel: "a", id: "1"}, {rel: "b", id: "2"}}
	content := map[string]string{"a": "apple apple banana", "b": "banana cherry"}
	p.sync(files, func(rel string) ([]byte, error) { return []byte(content[rel]), nil })
	if got := p.search("apple", 10); len(got) != 1 || got[0] != "a" {
		t.Errorf("search(apple) = %v", got)
	}
	content["b"] = "apple"
	files[1].id = "3"
	p.sync(files[1:], func(rel string) ([]byte, error) { return []byte(content[rel]), nil })
	if got := p.search("apple", 10); len(got) != 1 || got[0] != "b" {
		t.Errorf("after sync, search(apple) = %v, want [b]", got)
	}
}
