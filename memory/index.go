package memory

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/taskctl/taskctl/internal/diag"
	statedir "github.com/taskctl/taskctl/state"
)

// File names inside the index directory.
const (
	indexFile = "index.bin"
	lockName  = "lock"
)

// Stats describes an index after Refresh.
type Stats struct {
	Files      int            // indexed files
	Skipped    int            // listed but not indexed: binary, oversized or unreadable
	Terms      int            // distinct word terms (content/ident dictionary plus path/name dictionary)
	Defs       int            // distinct defined names, bare and qualified (see defs.go)
	Bytes      int64          // bytes of the indexed files
	IndexBytes int64          // size of the index file
	Duration   time.Duration  // time Refresh took
	Reread     int            // files read and analysed again
	Reused     int            // indexed files whose postings were kept without analysing them
	Renamed    int            // files found under a new path by content hash
	Removed    int            // files that left the index
	Written    bool           // whether a new index file was written
	Commits    int            // commits of the project's history the index holds (see history.go)
	NewCommits int            // of those, commits this Refresh read the changes of
	Warnings   []diag.Warning // a corrupt index found under the lock, and the like
}

// Index is a loaded index. Its methods are safe for concurrent use; Search
// sees either the index before a Refresh or the one after it.
type Index struct {
	dir string

	mu    sync.RWMutex
	st    *state
	gen   int64
	reset bool // the next Refresh starts from nothing
	// loaded identifies the index file st was decoded from, so a Refresh
	// that finds it unchanged need not decode it again.
	loaded fileID
	hist   *history // the project's commits, nil for none (history.go)
}

// Open loads the index kept in dir. A missing index gives an empty one; a
// corrupt, truncated or old-format index gives an empty one and a warning
// (it is never trusted; the next Refresh rebuilds it). The error is non-nil
// only if dir exists but cannot be read, or if something stands where the
// directory or its index file should be (a symbolic link, a special file:
// a *statedir.UnsafeError; dir must be a real path, see statedir.Dir).
func Open(dir string) (*Index, []diag.Warning, error) {
	ix := &Index{dir: dir}
	id := indexFileID(dir)
	st, warns, err := load(dir)
	if err != nil {
		return nil, warns, err
	}
	ix.st = st
	ix.hist = loadHistory(dir)
	if len(warns) == 0 && id == indexFileID(dir) {
		ix.loaded = id
	}
	return ix, warns, nil
}

// Update opens the index kept in dir and brings it up to date with src,
// as Open and then Refresh would (Reset first, when rebuild is set), but
// reads the old index while src is walked instead of before, and not at
// all for a rebuild. A corrupt or unreadable index is reported in the
// Stats' Warnings, as Open would report it, and rebuilt. The error is
// non-nil if dir cannot be read or written, or the refresh fails. An empty
// dir builds an index in memory only (see Refresh).
func Update(ctx context.Context, dir string, src Source, rebuild bool, progress func(done, total int)) (*Index, Stats, error) {
	ix := &Index{dir: dir, st: newState(nil, dict{}, dict{}, 0), reset: rebuild}
	st, err := ix.Refresh(ctx, src, progress)
	if err != nil {
		return nil, st, err
	}
	return ix, st, nil
}

// fileID identifies one version of the index file: it changes when a
// writer renames a new index into place.
type fileID struct {
	dev, ino uint64
	size     int64
	mtime    int64
}

// indexFileID returns the identity of dir's index file (zero if none).
func indexFileID(dir string) fileID {
	st, err := os.Lstat(filepath.Join(dir, indexFile))
	if err != nil {
		return fileID{}
	}
	id := fileID{size: st.Size(), mtime: st.ModTime().UnixNano()}
	id.dev, id.ino = devIno(st)
	return id
}

// Stale reports whether the index file in ix's directory is no longer the
// one ix last loaded or wrote: another process replaced or removed it (an
// index in memory is never stale).
func (ix *Index) Stale() bool {
	if ix.dir == "" {
		return false
	}
	ix.mu.RLock()
	loaded := ix.loaded
	ix.mu.RUnlock()
	return loaded == (fileID{}) || indexFileID(ix.dir) != loaded
}

// Dir returns the index directory.
func (ix *Index) Dir() string { return ix.dir }

// Stats describes the loaded index (Duration and the refresh counters are
// zero).
func (ix *Index) Stats() Stats {
	ix.mu.RLock()
	st, hist := ix.st, ix.hist
	ix.mu.RUnlock()
	var s Stats
	s.fill(st, 0)
	s.Commits = hist.counted()
	return s
}

// Len returns the number of indexed files.
func (ix *Index) Len() int {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return ix.st.live
}

// load reads the index kept in dir: see Open.
func load(dir string) (*state, []diag.Warning, error) {
	d, err := statedir.Open(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return newState(nil, dict{}, dict{}, 0), nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	defer d.Close()
	name := filepath.Join(dir, indexFile)
	data, release, err := readIndex(d, indexFile)
	var unsafe *statedir.UnsafeError
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return newState(nil, dict{}, dict{}, 0), nil, nil
	case errors.As(err, &unsafe):
		return nil, nil, err
	case err != nil:
		return newState(nil, dict{}, dict{}, 0), []diag.Warning{{Code: diag.IndexUnreadable, Message: err.Error(), Path: name}}, nil
	}
	dec, err := decode(data)
	if err != nil {
		st := newState(nil, dict{}, dict{}, 0)
		release(st)
		if errors.Is(err, errOtherLayout) {
			// an older taskctl's index (or a newer one's): rebuilt
			// quietly, as one of an older analysis is analysed again
			return st, nil, nil
		}
		return st, []diag.Warning{{Code: diag.IndexCorrupt,
			Message: fmt.Sprintf("%s: %v; it will be rebuilt", name, err), Path: name}}, nil
	}
	st := newState(dec.docs, dec.text, dec.path, int64(len(data)))
	st.filter = dec.filter
	release(st)
	return st, nil, nil
}

func (s *Stats) fill(st *state, d time.Duration) {
	s.Files = st.live
	s.Skipped = 0
	for _, d := range st.docs {
		if d.flags&docSkipped != 0 {
			s.Skipped++
		}
	}
	s.Defs = st.text.prefixCount(defPrefix)
	s.Terms = st.text.n - s.Defs + st.path.n
	s.Bytes = st.bytes
	s.IndexBytes = st.size
	s.Duration = d
}

// keep installs old, the index Refresh found nothing to change in; when
// it is what the index file id holds, a later Refresh that finds the same
// file takes it without decoding the file again.
func (ix *Index) keep(old *state, fromFile bool, id fileID) {
	ix.install(old)
	if fromFile {
		ix.mu.Lock()
		ix.loaded = id
		ix.mu.Unlock()
	}
}

func (ix *Index) install(st *state) {
	ix.mu.Lock()
	ix.st = st
	ix.gen++
	ix.mu.Unlock()
}
