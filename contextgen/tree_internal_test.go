package contextgen

import (
	"math/rand"
	"slices"
	"strings"
	"testing"
)

// treeBySplitting is the tree as first written: every path split at its
// slashes, the lists sorted directories first, each line built from the
// parts. tree must give the same text.
func treeBySplitting(rels []string) string {
	paths := make([][]string, len(rels))
	for i, rel := range rels {
		paths[i] = strings.Split(rel, "/")
	}
	slices.SortFunc(paths, func(pa, pb []string) int {
		for i := 0; i < len(pa) && i < len(pb); i++ {
			if pa[i] == pb[i] {
				continue
			}
			aDir, bDir := i < len(pa)-1, i < len(pb)-1
			if aDir != bDir {
				if aDir {
					return -1
				}
				return 1
			}
			return strings.Compare(pa[i], pb[i])
		}
		return len(pa) - len(pb)
	})
	var b strings.Builder
	var open []string
	for _, parts := range paths {
		dirs := parts[:len(parts)-1]
		same := 0
		for same < len(open) && same < len(dirs) && open[same] == dirs[same] {
			same++
		}
		for i := same; i < len(dirs); i++ {
			b.WriteString(strings.Repeat("  ", i) + dirs[i] + "/\n")
		}
		b.WriteString(strings.Repeat("  ", len(dirs)) + parts[len(parts)-1] + "\n")
		open = dirs
	}
	return b.String()
}

// TestTreeAsSplitting: on random trees (names that are prefixes of others,
// a file and a directory of the same name, depths past the indentation
// constant's) tree gives the text of the split-based reference.
func TestTreeAsSplitting(t *testing.T) {
	r := rand.New(rand.NewSource(4))
	names := []string{"a", "ab", "a.b", "b", "B", "a-", "z", "é", "a b"}
	for n := 0; n < 2000; n++ {
		seen := map[string]bool{}
		var rels []string
		for range r.Intn(40) {
			var parts []string
			for range 1 + r.Intn(20) {
				parts = append(parts, names[r.Intn(len(names))])
			}
			if rel := strings.Join(parts, "/"); !seen[rel] {
				seen[rel] = true
				rels = append(rels, rel)
			}
		}
		if got, want := tree(slices.Clone(rels)), treeBySplitting(rels); got != want {
			t.Fatalf("paths %q:\ntree gave\n%s\nwant\n%s", rels, got, want)
		}
	}
}
