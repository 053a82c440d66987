//go:build !linux

package walk

import (
	"io/fs"
	"os"
	"path"
	"sync/atomic"
)

// dirHandle is an open directory. Elsewhere than Linux every directory is
// opened through the root (portable, slower: the root stats each entry).
type dirHandle struct {
	f    *os.File
	rel  string
	refs atomic.Int32
}

func (h *dirHandle) close() { h.f.Close() }

func openDir(r *Tree, parent *dirHandle, name, _ string) (*dirHandle, error) {
	rel := name
	if parent != nil {
		rel = path.Join(parent.rel, name)
	}
	f, err := r.d.OS().Open(rel)
	if err != nil {
		return nil, err
	}
	return &dirHandle{f: f, rel: rel}, nil
}

func (h *dirHandle) list(_ *[]byte, fn func(name []byte, typ fs.FileMode)) error {
	ents, err := h.f.ReadDir(-1)
	for _, e := range ents {
		fn([]byte(e.Name()), e.Type())
	}
	return err
}
