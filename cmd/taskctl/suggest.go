package main

import (
	"fmt"
	"strings"

	"github.com/spf13/pflag"
)

// suggest returns the candidate closest to word when it is a likely typo
// of it ("asemble" for assemble, "stlye" for style): at most one edit in a
// short word, two in a longer one, a swap of two letters counting as one.
// "" when none is that close, or two are equally close.
func suggest(word string, candidates []string) string {
	best, bestDist, tie := "", 1<<30, false
	limit := 1
	if len(word) > 4 {
		limit = 2
	}
	for _, c := range candidates {
		d := editDistance(word, c)
		switch {
		case d < bestDist:
			best, bestDist, tie = c, d, false
		case d == bestDist:
			tie = true
		}
	}
	if bestDist > limit || tie {
		return ""
	}
	return best
}

// editDistance is the optimal string alignment distance of a and b:
// insertions, deletions, substitutions and swaps of adjacent letters.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	d := make([][]int, len(ra)+1)
	for i := range d {
		d[i] = make([]int, len(rb)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(ra); i++ {
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(ra)][len(rb)]
}

// commandHint is " (did you mean 'taskctl assemble'?)" for a mistyped
// command name, else "".
func commandHint(name string) string {
	var names []string
	for _, c := range commands() {
		names = append(names, c.name)
	}
	if s := suggest(name, names); s != "" {
		return fmt.Sprintf("; did you mean %q?", s)
	}
	return ""
}

// flagParseError is a flag set's parse error with a hint for a mistyped
// long flag ("unknown flag: --stlye; did you mean --style?").
func flagParseError(fs *pflag.FlagSet, err error) error {
	msg := err.Error()
	name, ok := strings.CutPrefix(msg, "unknown flag: --")
	if !ok {
		return usageErr("%s", msg)
	}
	var names []string
	fs.VisitAll(func(f *pflag.Flag) {
		if !f.Hidden {
			names = append(names, f.Name)
		}
	})
	if s := suggest(name, names); s != "" {
		return usageErr("%s; did you mean --%s?", msg, s)
	}
	return usageErr("%s", msg)
}
