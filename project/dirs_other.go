//go:build !linux

package project

import (
	"os"
	"strings"
)

// openChild opens a subdirectory through the root (portable, slower: the
// root stats every entry while listing).
func openChild(r *rootDir, _ *os.File, _, display string) (*os.File, error) {
	rel := strings.TrimPrefix(strings.TrimPrefix(display, r.dir), "/")
	if rel == "" {
		rel = "."
	}
	return r.root.Open(rel)
}

func openStart(r *rootDir, rel, _ string) (*os.File, error) {
	return r.root.Open(rel)
}
