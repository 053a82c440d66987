package ignore

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestAnchoredFastPaths: an anchored rule's cheap shapes (literal, *suffix,
// prefix*) and the literal-start check answer as the full match does, for
// random patterns and paths made of the same few pieces.
func TestAnchoredFastPaths(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	parts := []string{"a", "b", "ab", ".a", "a.b", "*", "**", "?", "[ab]", "x*", "*.b", `\*`, "a*b"}
	names := []string{"a", "b", "ab", ".a", "a.b", "x", "xa", "c.b", "*", "aab", "a.b.b"}
	for range 20000 {
		var p []string
		for range 1 + rng.IntN(3) {
			p = append(p, parts[rng.IntN(len(parts))])
		}
		line := "/" + strings.Join(p, "/")
		rs, errs := ParseRules(".gitignore", "", []byte(line))
		if len(errs) > 0 || len(rs) != 1 {
			continue
		}
		r := rs[0]
		var q []string
		for range 1 + rng.IntN(3) {
			q = append(q, names[rng.IntN(len(names))])
		}
		rel := strings.Join(q, "/")
		want := r.matchGlob(rel)
		if got := r.match(rel, q[len(q)-1], true); got != want {
			t.Fatalf("pattern %q (prefix %q, rest %q, kind %d, lit %q) on %q: %v, the full match says %v", line, r.prefix, r.rest, r.kind, r.lit, rel, got, want)
		}
	}
}
