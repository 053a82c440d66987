package memory

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"

	statedir "github.com/taskctl/taskctl/state"
)

// The index directory is a statedir.Dir: opened without following a
// symbolic link anywhere on its path, its files created, replaced, locked
// and read relative to it, never through a symbolic link, and refused
// (statedir.UnsafeError, STATE_UNSAFE) when something else stands in their
// place. So a cloned repository that commits .taskctl/index/lock, or the
// directory itself, as a link out of the clone cannot make a refresh
// write, create or lock anything there.

// openForWriting makes the index directory dir if need be, with a
// .gitignore holding "*" (also in a directory made by someone else), takes
// its lock and removes the temporary files a killed writer left; unlock
// releases the lock. The directory is returned open.
func openForWriting(dir string) (d *statedir.Dir, unlock func(), err error) {
	d, err = statedir.Make(dir)
	if err != nil {
		return nil, nil, err
	}
	if err := d.WriteNew(".gitignore", []byte("*\n"), 0o644); err != nil && !errors.Is(err, fs.ErrExist) {
		d.Close()
		return nil, nil, err
	}
	unlock, err = d.Lock(lockName)
	if err != nil {
		d.Close()
		return nil, nil, fmt.Errorf("lock index: %w", err)
	}
	removeTemps(d)
	return d, unlock, nil
}

// writeHook, when set (by tests), is called after each chunk of the index
// file is written.
var writeHook func(written int)

// writeIndex writes parts, one after another, as the index file of d: to
// a temporary file renamed into place.
func writeIndex(d *statedir.Dir, parts [][]byte) (int64, error) {
	return writeParts(d, indexFile, parts, writeHook)
}

// writeCache replaces the walk cache of d with data. Failing is no error
// (the cache is only an optimisation), unless something stands in the
// cache's place.
func writeCache(d *statedir.Dir, data []byte) error {
	_, err := writeParts(d, walkFile, [][]byte{data}, nil)
	var se *statedir.UnsafeError
	if errors.As(err, &se) {
		return err
	}
	return nil
}

// writeParts replaces name in d with parts, through a temporary file whose
// room is reserved first (see preallocate); hook, if not nil, is called
// after each chunk. The file is not synced: see "not fsynced" in the
// package documentation.
func writeParts(d *statedir.Dir, name string, parts [][]byte, hook func(written int)) (int64, error) {
	f, err := d.Create(name, 0o600)
	if err != nil {
		return 0, err
	}
	var total int64
	for _, data := range parts {
		total += int64(len(data))
	}
	preallocate(f.File, total)
	const chunk = 1 << 16
	var written int64
	for _, data := range parts {
		for off := 0; off < len(data); off += chunk {
			n, err := f.Write(data[off:min(off+chunk, len(data))])
			written += int64(n)
			if err != nil {
				f.Abort()
				return 0, err
			}
			if hook != nil {
				hook(int(written))
			}
		}
	}
	if err := f.Commit(false); err != nil {
		return 0, err
	}
	return written, nil
}

// removeTemps deletes the temporary files left by a killed writer (and
// those of earlier versions, "index.bin.tmp-*"); it runs under the lock,
// when no other writer can be using them.
func removeTemps(d *statedir.Dir) {
	ents, _ := d.ReadDir()
	for _, e := range ents {
		n := e.Name()
		if of, ok := statedir.PendingOf(n); ok && (of == indexFile || of == walkFile || of == scratchFile || of == historyFile) || strings.HasPrefix(n, "index.bin.tmp-") {
			d.RemoveFile(n)
		}
	}
}
