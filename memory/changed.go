package memory

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"hash/maphash"
	"runtime"
	"sync"
)

// analyse reads and analyses todo on GOMAXPROCS workers, each with its
// own analyser and posting lists, absorbed into fl at the end. One worker
// takes files from the front of todo, the next from the back (todo is in
// walk order), so that each meets the vocabulary of fewer directories and
// analyses fewer words for the first time.
func (ix *Index) analyse(ctx context.Context, src Source, fsum uint32, old *state, gone map[[16]byte][]int, todo []*work, fl *freshLists, progress func(int, int)) error {
	var wg sync.WaitGroup
	// each file done, for progress: without it, the workers do not wake
	// this goroutine for each file
	var done chan struct{}
	if progress != nil {
		done = make(chan struct{}, 64)
	}
	workers := min(runtime.GOMAXPROCS(0), max(len(todo), 1))
	var mu sync.Mutex
	front, back := 0, len(todo)
	take := func(fromBack bool) *work {
		mu.Lock()
		defer mu.Unlock()
		if front >= back || ctx.Err() != nil {
			return nil
		}
		if fromBack {
			back--
			return todo[back]
		}
		front++
		return todo[front-1]
	}
	copies := newCopies(todo)
	as := make([]*analyzer, workers) // made when a worker first needs one
	for k := range as {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var buf []byte
			for {
				w := take(k%2 == 1)
				if w == nil {
					if a := as[k]; a != nil {
						a.sealPostings() // here, in parallel, not in absorb
					}
					return
				}
				var data []byte
				data, buf = analyseOne(src, fsum, old, gone, w, buf)
				if data != nil {
					a := as[k]
					if a == nil {
						a = fl.analyzer()
						as[k] = a
					}
					doc := uint32(len(a.docs))
					var lens [2]uint32
					switch s, maybe, key := copies.find(w, data); {
					case s != nil:
						lens = a.postSaved(s, doc)
					case maybe:
						s = a.postSaving(data, doc)
						copies.keep(key, s)
						lens = s.dt.lens
					default:
						lens = a.post(data, doc)
					}
					a.docs = append(a.docs, w)
					w.result.lens[fContent], w.result.lens[fIdent] = lens[0], lens[1]
				}
				if done != nil {
					done <- struct{}{}
				}
			}
		}()
	}
	if done == nil {
		wg.Wait()
	} else {
		go func() {
			wg.Wait()
			close(done)
		}()
		n := 0
		for range done {
			n++
			progress(n, len(todo))
		}
	}
	for _, a := range as {
		if a != nil {
			fl.absorb(a)
		}
	}
	return ctx.Err()
}

// copies finds the files of one build that have the same content as
// another (vendored copies of a library, licences, generated files), so
// that the content is analysed once and its analysis posted for each. Only
// files whose size another file of the build shares can be copies; the
// analysis of those is kept for the others by contentHash and a hash keyed
// with a seed drawn for each build (contentHash alone could be crafted to
// be another file's, so that this file's terms went to that file).
type copies struct {
	sizes map[int64]bool // sizes more than one file has
	seed  maphash.Seed
	mu    sync.Mutex
	kept  map[copyKey]*savedTerms
}

type copyKey struct {
	hash  [16]byte
	keyed uint64
}

// shareCopies is whether a build analyses copies once (tests compare both
// ways).
var shareCopies = true

func newCopies(todo []*work) *copies {
	seen := make(map[int64]bool, len(todo))
	c := &copies{sizes: map[int64]bool{}, seed: maphash.MakeSeed(), kept: map[copyKey]*savedTerms{}}
	if !shareCopies {
		return c
	}
	for _, w := range todo {
		if seen[w.e.size] {
			c.sizes[w.e.size] = true
		}
		seen[w.e.size] = true
	}
	return c
}

// find returns the analysis kept for w's content data, or nil, whether
// another file may have the same content, and its key then.
func (c *copies) find(w *work, data []byte) (s *savedTerms, maybe bool, k copyKey) {
	if !c.sizes[int64(len(data))] {
		return nil, false, k
	}
	k = copyKey{w.result.hash, maphash.Bytes(c.seed, data)}
	c.mu.Lock()
	s = c.kept[k]
	c.mu.Unlock()
	return s, true, k
}

func (c *copies) keep(sum copyKey, s *savedTerms) {
	c.mu.Lock()
	c.kept[sum] = s
	c.mu.Unlock()
}

// analyseOne reads and hashes w's file and decides whether it must be
// analysed: it returns its content if so, nil if it is skipped or its
// postings can be reused, and the buffer to read the next file into.
func analyseOne(src Source, fsum uint32, old *state, gone map[[16]byte][]int, w *work, buf []byte) ([]byte, []byte) {
	w.result = docInfo{rel: w.e.rel, size: w.e.size, mtime: w.e.mtime}
	var data []byte
	var err error
	if br, ok := src.(BufferedSource); ok {
		data, err = br.ReadFileInto(w.e.rel, w.e.size, buf)
		if cap(data) > cap(buf) && cap(data) <= 1<<20 {
			buf = data[:0]
		}
	} else {
		data, err = src.ReadFile(w.e.rel)
	}
	_, filtering := src.(FilteringSource)
	if errors.Is(err, ErrBinary) {
		w.result.flags = docSkipped // listed, not indexed: no news
		return nil, buf
	}
	if err != nil || len(data) > MaxFileSize || !filtering && bytes.IndexByte(data, 0) >= 0 {
		w.result.flags, w.err = docSkipped, err
		return nil, buf
	}
	w.result.hash = contentHash(data, fsum)
	w.result.size = int64(len(data))
	if w.oldID >= 0 {
		o := old.docs[w.oldID]
		if o.hash == w.result.hash && o.flags&docSkipped == 0 {
			w.reuse = w.oldID
			return nil, buf
		}
	}
	if ids := gone[w.result.hash]; len(ids) > 0 {
		w.reuse = ids[0] // Refresh analyses it if another file claims it first
		return nil, buf
	}
	if isLockFile(w.e.rel) {
		return noText, buf
	}
	// A filtering source decides what is text (it may decode UTF-16).
	if text := filter(src, data); text != nil && bytes.IndexByte(text, 0) < 0 {
		return text, buf
	}
	w.result.flags = docSkipped
	return nil, buf
}

// contentHash is the change-detection hash of a file as read, marked with
// the filter that makes its indexed text (fsum, see filterSum): CRC-32C and
// CRC-32 (IEEE) of the content, each XORed with fsum, and the content's
// length. It is not a cryptographic hash; a file crafted to collide only
// makes its own index entry stale.
func contentHash(data []byte, fsum uint32) [16]byte {
	var h [16]byte
	binary.LittleEndian.PutUint32(h[0:], crc32.Checksum(data, castagnoli())^fsum)
	binary.LittleEndian.PutUint32(h[4:], crc32.ChecksumIEEE(data)^fsum)
	binary.LittleEndian.PutUint64(h[8:], uint64(len(data)))
	return h
}

// termEstimate is about how many distinct terms the analysis of n files of
// bytes bytes in all finds, for sizing the term tables: code has about one
// in 256 bytes.
func termEstimate(n int, bytes int64) int {
	return int(min(max(bytes/256, int64(n)*16), 1<<20))
}
