//go:build unix

package memory

import (
	"runtime"
	"syscall"

	statedir "github.com/taskctl/taskctl/state"
)

// readIndex maps the file name of d read-only; the mapping is released
// when the state holding it becomes unreachable. Mapping instead of
// reading saves a copy of the whole file on every CLI call. The file is
// never truncated or rewritten in place (a new index replaces it by
// rename), so the mapping stays valid.
func readIndex(d *statedir.Dir, name string) (data []byte, release func(owner *state), err error) {
	f, err := d.Open(name)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	size := fi.Size()
	if size > 0 && size <= 1<<40 && int64(int(size)) == size {
		data, err = syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED)
		if err == nil {
			return data, func(owner *state) {
				runtime.AddCleanup(owner, func(b []byte) { syscall.Munmap(b) }, data)
			}, nil
		}
	}
	// an empty file, or one that cannot be mapped: read
	data, err = statedir.ReadRegular(f, 1<<40)
	return data, func(*state) {}, err
}
