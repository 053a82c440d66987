package shellexec

import (
	"bytes"
	"context"
	"regexp"
	"testing"
)

// TestLongMatchAbandoned: the time limit interrupts a long regular
// expression match (#21 point 5: grep -E 'a.{1,1000}x' on a 1 MB line ran
// 19.9 s past a 10 s limit). With the context already done, the matcher
// gives up at once instead of running the match to its end: it reports
// the search as cancelled, not as a result. No time is measured.
func TestLongMatchAbandoned(t *testing.T) {
	m, err := newMatcher([]string{"a.{1,1000}x"}, false, true, grepOpts{})
	if err != nil {
		t.Fatal(err)
	}
	line := bytes.Repeat([]byte("a"), 1<<20)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	m.ctx = ctx
	if start, _ := m.next(line, 0, '\n'); start >= 0 {
		t.Errorf("next found a match in a line without x")
	}
	if !m.cancelled() {
		t.Errorf("the match ran to its end with the context done; want it abandoned")
	}
	if _, ok := m.matchCtx(line); ok {
		t.Errorf("match ran to its end with the context done; want it abandoned")
	}
	// A live context gets the real answers.
	m.ctx = context.Background()
	if start, end := m.next([]byte("zz\naaxb\n"), 0, '\n'); start != 3 || end != 7 {
		t.Errorf("next = %d, %d; want 3, 7", start, end)
	}
}

// TestSedLongMatchAbandoned: sed's address and substitution give up with
// the run's context done instead of matching a long line to its end.
func TestSedLongMatchAbandoned(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	re := mustSedRegex(t, "a.{1,1000}x")
	line := bytes.Repeat([]byte("a"), 1<<20)
	r := &sedRun{c: &cmd{ctx: ctx}}
	if r.matchAddr(&sedAddr{kind: '/', re: re}, line) {
		t.Errorf("the address matched a line without x")
	}
	if _, did := r.subst(&sedCmd{re: re, nth: 1}, line); did {
		t.Errorf("the substitution matched a line without x")
	}
	if _, ok := abandonableCtx(ctx, len(line), func() bool { return re.Match(line) }); ok {
		t.Errorf("a call with the context done ran to its end")
	}
}

func mustSedRegex(t *testing.T, s string) *regexp.Regexp {
	t.Helper()
	re, err := compileSedRegex(s, true, "")
	if err != nil {
		t.Fatal(err)
	}
	return re
}
