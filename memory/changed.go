package memory

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"hash/maphash"
	"math"
	"runtime"
	"sync"
)

// analyse reads and analyses todo (r.todo, or a batch of it) on
// GOMAXPROCS workers, each with its own analyser and posting lists,
// absorbed into r.fl at the end; progress, if not nil, is called with the
// files of todo done. One
// worker takes files from the front of todo, the next from the back (todo
// is in walk order), so that each meets the vocabulary of fewer
// directories and analyses fewer words for the first time.
func (r *refresh) analyse(ctx context.Context, src Source, todo []*work, progress func(done int)) error {
	q := &todoQueue{ctx: ctx, todo: todo, back: len(todo)}
	// each file done, for progress: without it, the workers do not wake
	// this goroutine for each file
	var done chan struct{}
	if progress != nil {
		done = make(chan struct{}, 64)
	}
	copies := newCopies(todo)
	as := make([]*analyzer, min(runtime.GOMAXPROCS(0), max(len(todo), 1)))
	var wg sync.WaitGroup
	for k := range as {
		wg.Go(func() { as[k] = r.analyseWorker(src, q, k%2 == 1, copies, done) })
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
			progress(n)
		}
	}
	for _, a := range as {
		if a != nil {
			r.fl.absorb(a)
		}
	}
	return ctx.Err()
}

// todoQueue hands out the files to read, from its front or its back,
// until they are all out or the context ends.
type todoQueue struct {
	ctx         context.Context
	mu          sync.Mutex
	todo        []*work
	front, back int
}

func (q *todoQueue) take(fromBack bool) *work {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.front >= q.back || q.ctx.Err() != nil {
		return nil
	}
	if fromBack {
		q.back--
		return q.todo[q.back]
	}
	q.front++
	return q.todo[q.front-1]
}

// analyseWorker reads the files q hands out until there are none left and
// analyses those that must be, with an analyser of its own made when it
// first needs one, which it returns with its postings sealed (nil if it
// analysed nothing). It sends on done, if not nil, after each file.
func (r *refresh) analyseWorker(src Source, q *todoQueue, fromBack bool, copies *copies, done chan<- struct{}) *analyzer {
	var a *analyzer
	var buf []byte
	for {
		w := q.take(fromBack)
		if w == nil {
			break
		}
		var data []byte
		data, buf = analyseOne(src, r.fsum, r.old, r.gone, w, buf)
		if data != nil {
			if a == nil {
				a = r.fl.analyzer()
			}
			copies.post(a, w, data)
		}
		if done != nil {
			done <- struct{}{}
		}
	}
	if a != nil {
		a.sealPostings() // here, in parallel, not in absorb
	}
	return a
}

// copies finds the files of one build that have the same content as
// another (vendored copies of a library, licences, generated files), so
// that the content is analysed once and its analysis posted for each. Only
// files whose size another file of the build shares can be copies; the
// analysis of those is kept for the others by contentHash and a hash keyed
// with a seed drawn for each build (contentHash alone could be crafted to
// be another file's, so that this file's terms went to that file).
//
// Every file whose size another shares is kept, whether a copy turns up or
// not: on a tree of many small files most sizes are shared, so what is kept
// is held to keptBytes a build (a batch); past it, copies are analysed
// each.
type copies struct {
	sizes map[int64]bool // sizes more than one file has
	seed  maphash.Seed
	mu    sync.Mutex
	kept  map[copyKey]*savedTerms
	room  int // bytes left to keep analyses in
}

// keptBytes is how many bytes of analyses copies keeps at most (a
// variable for tests).
var keptBytes = 16 << 20

// copyKey identifies the content of a file and the language its
// definitions are found by (defLangOf: files with the same content of two
// languages have other definitions, and must not share them).
type copyKey struct {
	hash  [16]byte
	keyed uint64
	lang  *defLang
}

// shareCopies is whether a build analyses copies once (tests compare both
// ways).
var shareCopies = true

func newCopies(todo []*work) *copies {
	seen := make(map[int64]bool, len(todo))
	c := &copies{sizes: map[int64]bool{}, seed: maphash.MakeSeed(), kept: map[copyKey]*savedTerms{}, room: keptBytes}
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
	k = copyKey{w.result.hash, maphash.Bytes(c.seed, data), defLangOf(w.e.rel)}
	c.mu.Lock()
	s = c.kept[k]
	c.mu.Unlock()
	return s, true, k
}

// hasRoom reports whether there is room to keep another analysis.
func (c *copies) hasRoom() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.room > 0
}

func (c *copies) keep(sum copyKey, s *savedTerms) {
	c.mu.Lock()
	c.kept[sum] = s
	c.room -= 64 + 12*len(s.dt.ids) // the entry, and the term IDs and frequencies
	c.mu.Unlock()
}

// post analyses data, w's content, as a's next document: the analysis kept
// for a copy of it if there is one, else kept for copies if there may be.
func (c *copies) post(a *analyzer, w *work, data []byte) {
	doc := uint32(len(a.docs))
	var lens [2]uint32
	switch s, maybe, key := c.find(w, data); {
	case s != nil:
		lens = a.postSaved(s, doc)
	case maybe && c.hasRoom():
		s = a.postSaving(data, doc, w.e.rel)
		c.keep(key, s)
		lens = s.dt.lens
	default:
		lens = a.post(data, doc, w.e.rel)
	}
	a.docs = append(a.docs, w)
	w.result.lens[fContent], w.result.lens[fIdent] = lens[0], lens[1]
}

// analyseOne reads and hashes w's file and decides whether it must be
// analysed: it returns its content if so, nil if it is skipped or its
// postings can be reused, and the buffer to read the next file into.
func analyseOne(src Source, fsum uint32, old *state, gone map[[16]byte][]int, w *work, buf []byte) ([]byte, []byte) {
	w.result = docInfo{rel: w.e.rel, size: w.e.size, mtime: w.e.mtime}
	var data []byte
	var err error
	if br, ok := src.(BufferedSource); ok {
		buf = readBuffer(buf, w.e.size)
		data, err = br.ReadFileInto(w.e.rel, w.e.size, buf)
		if cap(data) > cap(buf) {
			buf = data[:0] // (a file that grew since the walk)
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

// readBuffer returns buf, or a larger buffer if buf cannot take a file of
// size bytes and the byte that tells it ended (see ReadFileInto): twice
// buf's size at least, up to what a file may hold. A buffer made for each
// larger file met was fresh memory each time, its pages faulted in one by
// one as the file was read into it.
func readBuffer(buf []byte, size int64) []byte {
	need := size + 1
	if int64(cap(buf)) >= need || need > MaxFileSize+1 {
		return buf
	}
	return make([]byte, 0, min(max(need, 2*int64(cap(buf))), MaxFileSize+1))
}

// contentHash is the change-detection hash of a file as read, marked with
// the filter that makes its indexed text (fsum, see filterSum): CRC-32C and
// CRC-32 (IEEE) of the content, each XORed with fsum, and the content's
// length. It is not a cryptographic hash; a file crafted to collide only
// makes its own index entry stale.
func contentHash(data []byte, fsum uint32) [16]byte {
	var h [16]byte
	binary.LittleEndian.PutUint32(h[0:], crc32.Checksum(data, crc32.MakeTable(crc32.Castagnoli))^fsum)
	binary.LittleEndian.PutUint32(h[4:], crc32.ChecksumIEEE(data)^fsum)
	binary.LittleEndian.PutUint64(h[8:], uint64(len(data)))
	return h
}

// termEstimate is about how many distinct terms the analysis of n files of
// bytes bytes in all finds, for sizing the term tables, rather more than
// fewer: a table that fills takes further terms under its lock (see
// idTable). Distinct terms grow more slowly than the text (Heaps' law):
// as its 0.6th power, 6 times it fitting code (some 200,000 terms in a
// batch of 32 MB of podman's or Go's source, 120,000 in 16 MB).
func termEstimate(n int, bytes int64) int {
	heaps := int64(6 * math.Pow(float64(bytes), 0.6))
	return int(min(max(heaps, int64(n)*16), 1<<20))
}
