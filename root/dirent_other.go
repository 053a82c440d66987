//go:build !linux

package root

import (
	"io/fs"
	"os"
)

// Elsewhere than Linux directories are read through an *os.Root (the
// walks open each one through it): portable, slower, as the Root stats
// each entry.

// LstatType returns the type bits of an lstat of path.
func LstatType(path string) (fs.FileMode, error) {
	st, err := os.Lstat(path)
	if err != nil {
		return 0, err
	}
	return st.Mode().Type(), nil
}

// ListTypes returns the names and types of the entries of the real
// directory dir.
func ListTypes(dir string, _ *[]byte) (map[string]fs.FileMode, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	ents, err := f.ReadDir(-1) // unsorted, unlike os.ReadDir
	if err != nil {
		return nil, err
	}
	m := make(map[string]fs.FileMode, len(ents))
	for _, e := range ents {
		m[e.Name()] = e.Type()
	}
	return m, nil
}
