package memory

import (
	"slices"
	"strings"
)

// dupPath is matchPaths' answer for a path the walk gave before.
const dupPath = -2

// matchPaths returns, for each walked entry, the ID of the old document
// (not a tombstone) at its path, -1 if there is none, or dupPath for a
// path given by an earlier entry. Entries in order of path (as walks give
// them) are matched against the documents in order of path, which are
// mostly in ID order already; in any other case a map does it.
func matchPaths(docs []docInfo, entries []walkEntry) []int {
	match := make([]int, len(entries))
	if byPath := livePaths(docs); byPath != nil && mergePaths(docs, byPath, entries, match) {
		return match
	}
	matchByMap(docs, entries, match)
	return match
}

// matchByMap is matchPaths with maps, for any order of documents and
// entries (the tests check the merge against it): the last live document
// with the path, and dupPath for a path seen before.
func matchByMap(docs []docInfo, entries []walkEntry, match []int) {
	byRel := make(map[string]int, len(docs))
	for i, d := range docs {
		if d.flags&docDeleted == 0 {
			byRel[d.rel] = i
		}
	}
	seen := make(map[string]bool, len(entries))
	for k, e := range entries {
		i, ok := byRel[e.rel]
		switch {
		case seen[e.rel]:
			match[k] = dupPath
		case ok:
			match[k] = i
		default:
			match[k] = -1
		}
		seen[e.rel] = true
	}
}

// mergePaths is matchPaths for documents byPath, in order of path, and
// entries that should be: it reports false, match half set, if they are
// not.
func mergePaths(docs []docInfo, byPath []int, entries []walkEntry, match []int) bool {
	j := 0
	for k, e := range entries {
		if k > 0 {
			switch c := strings.Compare(entries[k-1].rel, e.rel); {
			case c > 0:
				return false
			case c == 0:
				match[k] = dupPath
				continue
			}
		}
		match[k] = -1
		for ; j < len(byPath); j++ {
			if c := strings.Compare(docs[byPath[j]].rel, e.rel); c >= 0 {
				if c == 0 {
					match[k] = byPath[j]
				}
				break
			}
		}
	}
	return true
}

// livePaths returns the IDs of the documents that are not tombstones in
// order of path, or nil if two have the same path. Their ID order is
// mostly path order: a cold build numbers the files of each worker in
// the order it took them, from the front or the back of the sorted walk,
// and refreshes append the files they read after the others. So the IDs
// are cut into runs in order (or in reverse order, which are reversed),
// and the runs merged pairwise until one is left; very unordered IDs are
// sorted.
func livePaths(docs []docInfo) []int {
	ids := make([]int, 0, len(docs))
	for i, d := range docs {
		if d.flags&docDeleted == 0 {
			ids = append(ids, i)
		}
	}
	cmp := func(a, b int) int { return strings.Compare(docs[a].rel, docs[b].rel) }
	var runs []int // where each run ends in ids
	for i := 0; i < len(ids); {
		j := i + 1
		if j < len(ids) && cmp(ids[i], ids[j]) > 0 {
			for j < len(ids) && cmp(ids[j-1], ids[j]) > 0 {
				j++
			}
			slices.Reverse(ids[i:j])
		} else {
			for j < len(ids) && cmp(ids[j-1], ids[j]) < 0 {
				j++
			}
		}
		runs = append(runs, j)
		i = j
	}
	if len(runs) > 1 && len(runs) > len(ids)/16 {
		slices.SortFunc(ids, cmp)
		runs = runs[:0]
	}
	buf := make([]int, len(ids))
	for len(runs) > 1 {
		var next []int
		start := 0
		for r := 0; r < len(runs); r += 2 {
			if r+1 == len(runs) {
				copy(buf[start:], ids[start:runs[r]])
				next = append(next, runs[r])
				break
			}
			a, b := ids[start:runs[r]], ids[runs[r]:runs[r+1]]
			k := start // where the next goes in buf
			for ; len(a) > 0 && len(b) > 0; k++ {
				if cmp(b[0], a[0]) < 0 {
					buf[k], b = b[0], b[1:]
				} else {
					buf[k], a = a[0], a[1:]
				}
			}
			k += copy(buf[k:], a)
			copy(buf[k:], b)
			next = append(next, runs[r+1])
			start = runs[r+1]
		}
		ids, buf, runs = buf, ids, next
	}
	for k := 1; k < len(ids); k++ {
		if docs[ids[k-1]].rel == docs[ids[k]].rel {
			return nil
		}
	}
	return ids
}
