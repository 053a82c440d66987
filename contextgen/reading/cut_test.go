package reading

import (
	"testing"

	"github.com/taskctl/taskctl/contextgen/sources"
)

func TestCut(t *testing.T) {
	text := []byte("one\ntwo\nthree\nfour\n")
	cases := []struct {
		ro      sources.ReadOptions
		cap     int64
		want    string
		changed bool
	}{
		{sources.ReadOptions{}, 0, "one\ntwo\nthree\nfour\n", false},
		{sources.ReadOptions{MaxLines: 10}, 0, "one\ntwo\nthree\nfour\n", false},
		{sources.ReadOptions{SkipLines: 1, MaxLines: 2}, 0, "two\nthree\n[taskctl: truncated: showing lines 2-3 of 4]\n", true},
		{sources.ReadOptions{SkipLines: 3}, 0, "four\n[taskctl: truncated: showing lines 4-4 of 4]\n", true},
		{sources.ReadOptions{SkipLines: 9}, 0, "[taskctl: truncated: no lines shown of 4]\n", true},
		{sources.ReadOptions{MaxBytes: 8}, 0, "one\ntwo\n[taskctl: truncated: showing lines 1-2 of 4]\n", true},
		{sources.ReadOptions{}, 9, "one\ntwo\n[taskctl: truncated: showing lines 1-2 of 4]\n", true},
		{sources.ReadOptions{MaxBytes: 100}, 5, "one\n[taskctl: truncated: showing lines 1-1 of 4]\n", true},
		{sources.ReadOptions{MaxBytes: 2}, 0, "on\n[taskctl: truncated: line 1 cut at 2 bytes; 4 lines in all]\n", true},
	}
	for _, c := range cases {
		got, changed := cut(text, c.ro, c.cap)
		if string(got) != c.want || changed != c.changed {
			t.Errorf("cut(%+v, cap %d) = %q, %v; want %q, %v", c.ro, c.cap, got, changed, c.want, c.changed)
		}
	}
	// One line: "1 line", not "1 lines".
	got, _ := cut([]byte("a single long line\n"), sources.ReadOptions{MaxBytes: 8}, 0)
	if want := "a single\n[taskctl: truncated: line 1 cut at 8 bytes; 1 line in all]\n"; string(got) != want {
		t.Errorf("one line: %q, want %q", got, want)
	}
	got, _ = cut([]byte("a\n"), sources.ReadOptions{SkipLines: 3}, 0)
	if want := "[taskctl: truncated: no lines shown of 1]\n"; string(got) != want {
		t.Errorf("one line skipped: %q, want %q", got, want)
	}
	// A cut never splits a UTF-8 sequence.
	got, _ = cut([]byte("日本語\n"), sources.ReadOptions{MaxBytes: 4}, 0)
	if string(got[:3]) != "日" || got[3] != '\n' {
		t.Errorf("rune boundary: %q", got)
	}
	// No trailing newline in the source.
	got, changed := cut([]byte("a\nb"), sources.ReadOptions{MaxLines: 1}, 0)
	if string(got) != "a\n[taskctl: truncated: showing lines 1-1 of 2]\n" || !changed {
		t.Errorf("last line without newline: %q", got)
	}
}
