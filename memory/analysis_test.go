package memory

import (
	"context"
	"encoding/binary"
	"hash/crc32"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestOlderAnalysisReanalysed checks that an index written by an older
// analysis (here: analysis 2, which did not read Dart's definitions) is
// analysed again by the next Refresh, quietly, although no file changed:
// a user who upgrades taskctl gets the definitions the new one reads.
func TestOlderAnalysisReanalysed(t *testing.T) {
	root := t.TempDir()
	writeFile(t, root, "lib/retry.dart", "class RetryBudget {\n  int left = 3;\n\n  void spend() {\n    left--;\n  }\n}\n")
	writeFile(t, root, "lib/util.go", "package lib\n\n// Spend is unrelated.\nfunc Spend() {}\n")
	dir := filepath.Join(t.TempDir(), "index")

	// The index analysis 2 wrote: no Dart definitions, its header stamped
	// with that analysis.
	langs := defLangs()
	dart := langs[".dart"]
	delete(langs, ".dart")
	_, _, err := Update(context.Background(), dir, DirSource(root), false, nil)
	langs[".dart"] = dart
	if err != nil {
		t.Fatal(err)
	}
	name := filepath.Join(dir, indexFile)
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	old := max(crc32.Checksum([]byte("analysis 2"), crc32.MakeTable(crc32.Castagnoli)), 1)
	binary.LittleEndian.PutUint32(data[28:], old)
	if err := os.WriteFile(name, data, 0o644); err != nil {
		t.Fatal(err)
	}

	const report = "a crash in RetryBudget.spend when the budget is spent"
	defines := func(ix *Index) string {
		for _, m := range ix.Search(report, SearchOptions{}) {
			if m.Rel == "lib/retry.dart" {
				return strings.Join(m.Reason.Notes, "; ")
			}
		}
		return ""
	}
	ix, warns, err := Open(dir)
	if err != nil || len(warns) > 0 {
		t.Fatalf("Open(the older index) = %v, %v", warns, err)
	}
	if n := defines(ix); strings.Contains(n, "defines") {
		t.Fatalf("the older index's reason is %q: it was not made without Dart's definitions", n)
	}

	ix, st, err := Update(context.Background(), dir, DirSource(root), false, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Warnings) > 0 || st.Reread != 2 || !st.Written {
		t.Errorf("refresh of the older index: warnings %v, %d files read again, written %v; want none, 2, true",
			st.Warnings, st.Reread, st.Written)
	}
	if n := defines(ix); !strings.Contains(n, "defines RetryBudget.spend") {
		t.Errorf("after the refresh the reason of lib/retry.dart is %q, want it to say it defines RetryBudget.spend", n)
	}
	if _, st, _ = Update(context.Background(), dir, DirSource(root), false, nil); st.Reread != 0 {
		t.Errorf("a refresh after that read %d files again, want 0", st.Reread)
	}
}

// TestOlderLayoutRebuiltQuietly opens an index that taskctl wrote in the
// layout before the definitions (format 1, testdata/format1-index.bin,
// written by aa022e8^ over the two files below): it is rebuilt, every
// file read again, without a warning (it said INDEX_CORRUPT, as if the
// file were damaged), and the rebuilt index has the definitions. A
// layout newer than this taskctl's is rebuilt quietly too.
func TestOlderLayoutRebuiltQuietly(t *testing.T) {
	old, err := os.ReadFile("testdata/format1-index.bin")
	if err != nil {
		t.Fatal(err)
	}
	newer := slices.Clone(old)
	binary.LittleEndian.PutUint32(newer[8:], formatVersion+1)
	for name, data := range map[string][]byte{"format 1": old, "a newer format": newer} {
		root := t.TempDir()
		writeFile(t, root, "src/retry.py", "class RetryBudget:\n    def spend(self, n):\n        return n\n")
		writeFile(t, root, "README.md", "A client that retries.\n")
		dir := filepath.Join(t.TempDir(), "index")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, indexFile), data, 0o644); err != nil {
			t.Fatal(err)
		}
		if _, warns, err := Open(dir); err != nil || len(warns) > 0 {
			t.Errorf("%s: Open = %v, %v; want no warning", name, warns, err)
		}
		ix, st, err := Update(context.Background(), dir, DirSource(root), false, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(st.Warnings) > 0 || st.Reread != 2 || !st.Written {
			t.Errorf("%s: refresh: warnings %v, %d files read, written %v; want none, 2, true", name, st.Warnings, st.Reread, st.Written)
		}
		if st.Defs == 0 {
			t.Errorf("%s: the rebuilt index has no definitions", name)
		}
		if ms := ix.Search("RetryBudget.spend", SearchOptions{}); len(ms) == 0 || ms[0].Rel != "src/retry.py" {
			t.Errorf("%s: Search(RetryBudget.spend) = %v, want src/retry.py first", name, ms)
		}
	}
}
