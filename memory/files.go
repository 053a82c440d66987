package memory

import "slices"

// Files returns the paths (slash-separated, relative to the project root)
// of every file the index records, sorted: those it indexed and, with
// indexed false, those it lists without indexing (binary, oversized or
// unreadable).
func (ix *Index) Files() (paths []string, indexed []bool) {
	ix.mu.RLock()
	st := ix.st
	ix.mu.RUnlock()
	type f struct {
		rel string
		ok  bool
	}
	var fs []f
	for _, d := range st.docs {
		if d.flags&docDeleted != 0 {
			continue
		}
		fs = append(fs, f{d.rel, d.flags&docSkipped == 0})
	}
	slices.SortFunc(fs, func(a, b f) int {
		switch {
		case a.rel < b.rel:
			return -1
		case a.rel > b.rel:
			return 1
		}
		return 0
	})
	for _, x := range fs {
		paths = append(paths, x.rel)
		indexed = append(indexed, x.ok)
	}
	return paths, indexed
}
