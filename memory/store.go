package memory

import (
	"os"
	"path/filepath"
	"strings"
)

// writeHook, when set (by tests), is called after each chunk of the index
// file is written.
var writeHook func(written int)

// writeAtomic writes parts, one after another, as the index file of dir:
// to a temporary file renamed into place.
func writeAtomic(dir string, parts [][]byte) (int64, error) {
	f, err := os.CreateTemp(dir, tmpPrefix+"*")
	if err != nil {
		return 0, err
	}
	tmp := f.Name()
	ok := false
	defer func() {
		if !ok {
			f.Close()
			os.Remove(tmp)
		}
	}()
	var total int64
	for _, data := range parts {
		total += int64(len(data))
	}
	preallocate(f, total)
	const chunk = 1 << 16
	var written int64
	for _, data := range parts {
		for off := 0; off < len(data); off += chunk {
			n, err := f.Write(data[off:min(off+chunk, len(data))])
			written += int64(n)
			if err != nil {
				return 0, err
			}
			if writeHook != nil {
				writeHook(int(written))
			}
		}
	}
	// Not synced: see "not fsynced" in the package documentation.
	if err := f.Close(); err != nil {
		return 0, err
	}
	if err := os.Rename(tmp, filepath.Join(dir, indexFile)); err != nil {
		return 0, err
	}
	ok = true
	return written, nil
}

// writeCache replaces the file name with data through a temporary file;
// failing is not an error (the cache is only an optimisation).
func writeCache(dir, name string, data []byte) {
	f, err := os.CreateTemp(dir, tmpPrefix+"*")
	if err != nil {
		return
	}
	preallocate(f, int64(len(data)))
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), name)
	}
	if err != nil {
		os.Remove(f.Name())
	}
}

// removeTemps deletes temporary files left by a killed writer; it runs
// under the lock, when no other writer can be using them.
func removeTemps(dir string) {
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), tmpPrefix) {
			os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}
