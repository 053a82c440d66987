package root

import (
	"errors"
	"path/filepath"
	"testing"
)

// TestShellOpen: a command's open (Shell) follows a link only while
// it stays inside the project dir (a link out and back in is refused, as
// is ".." past the root), refuses .git/ and .taskctl/ (git's own reads
// go through a GitDir), and applies the name policy to what a command reads
// by the name given and by the real path.
func TestShellOpen(t *testing.T) {
	base := realTemp(t)
	dir := filepath.Join(base, "proj")
	writeTree(t, dir, "a.txt = a\n", ".env = X=1\n", ".git/HEAD = ref\n", ".taskctl/x = x\n", "sub/b.txt = b\n",
		"in -> sub/b.txt", "env_link -> .env", "out_and_back -> ../proj/a.txt",
		"abs_in -> "+filepath.Join(dir, "a.txt"), "abs_out -> "+filepath.Join(base, "x"), "git_link -> .git/HEAD")
	for _, beneath := range []bool{true, false} {
		r, err := Open([]string{dir}, Policy{})
		if err != nil {
			t.Fatal(err)
		}
		if !beneath {
			r.disableBeneath()
		}
		shellOpens(t, r.Shell())
		r.Close()
	}
}

func shellOpens(t *testing.T, sh *Shell) {
	var state *StateError
	var refused RefusedError
	for _, tc := range []struct {
		rel  string
		mode Mode
		real string // "" when refused
		why  func(error) bool
	}{
		{"a.txt", ModeContent, "a.txt", nil},
		{"in", ModeContent, "sub/b.txt", nil},
		{"abs_in", 0, "a.txt", nil},
		{"env_link", 0, ".env", nil}, // a listing or stat: no name policy
		{"env_link", ModeContent, "", func(e error) bool { return errors.As(e, &refused) }},
		{".env", ModeContent, "", func(e error) bool { return errors.As(e, &refused) }},
		{"out_and_back", 0, "", func(e error) bool { return errors.Is(e, ErrOutside) }},
		{"abs_out", 0, "", func(e error) bool { return errors.Is(e, ErrOutside) }},
		{".git/HEAD", ModeContent, "", func(e error) bool { return errors.As(e, &state) }},
		{"git_link", 0, "", func(e error) bool { return errors.As(e, &state) }},
		{".git/HEAD", 0, "", func(e error) bool { return errors.As(e, &state) }},
		{".taskctl/x", 0, "", func(e error) bool { return errors.As(e, &state) }},
	} {
		f, real, err := sh.Open(tc.rel, tc.mode)
		if f != nil {
			f.Close()
		}
		switch {
		case tc.why == nil && (err != nil || real != tc.real):
			t.Errorf("Open(%s, %d) = %q, %v; want %q", tc.rel, tc.mode, real, err, tc.real)
		case tc.why != nil && (err == nil || !tc.why(err)):
			t.Errorf("Open(%s, %d) = %q, %v; want a refusal", tc.rel, tc.mode, real, err)
		}
	}
	// git's own reads go through the view of .git (GitDir), which opens
	// inside it, and no view is given of a directory inside .taskctl/.
	g, err := sh.GitDir(".git")
	if err != nil {
		t.Fatalf("GitDir(.git): %v", err)
	}
	if f, err := g.Open("HEAD"); err != nil {
		t.Errorf("GitDir(.git).Open(HEAD): %v", err)
	} else {
		f.Close()
	}
	if _, err := sh.GitDir(".taskctl"); !errors.As(err, &state) {
		t.Errorf("GitDir(.taskctl) = %v, want a *StateError", err)
	}
}
