package project

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// cleanSeeds are paths as commands print them, and the odd ones.
var cleanSeeds = []string{
	"a", "./a", "././a", "a/b.go", "./a/b.go", ".//a", "a//b", "a/./b", "a/../b", "../a", "..", ".",
	"./", "a/", "a/.", "a/..", "/abs/x", "/", "//x", "a/..b", "..a/b", "a/b..", "...", "a/.../b", "./..",
	"", ".hidden", "a/.hidden/b", "....", "a/....", ".../..", "..../a",
}

// TestCleanJoin: cleanJoin(base, s) is filepath.Clean(base+"/"+s) (s when
// absolute), and hasDotDot and splitDir agree with the path package.
func TestCleanJoin(t *testing.T) {
	for _, base := range []string{"/", "/proj", "/proj/sub dir"} {
		for _, s := range cleanSeeds {
			checkClean(t, base, s)
		}
	}
}

func FuzzCleanJoin(f *testing.F) {
	for _, s := range cleanSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { checkClean(t, "/proj", s) })
}

func checkClean(t *testing.T, base, s string) {
	t.Helper()
	abs := s
	if !strings.HasPrefix(s, "/") {
		abs = base + "/" + s
	}
	if got, want := cleanJoin(base, s), filepath.Clean(abs); got != want {
		t.Errorf("cleanJoin(%q, %q) = %q, want %q", base, s, got, want)
	}
	if got, want := hasDotDot(abs), slices.Contains(strings.Split(abs, "/"), ".."); got != want {
		t.Errorf("hasDotDot(%q) = %v, want %v", abs, got, want)
	}
	if c := filepath.Clean(abs); c != "/" {
		if d, b := splitDir(c); d != filepath.Dir(c) || b != filepath.Base(c) {
			t.Errorf("splitDir(%q) = %q, %q, want %q, %q", c, d, b, filepath.Dir(c), filepath.Base(c))
		}
	}
}
