package memory

import (
	"context"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"time"

	"github.com/taskctl/taskctl/internal/diag"
	statedir "github.com/taskctl/taskctl/state"
)

type walkEntry struct {
	rel   string
	size  int64
	mtime int64
}

// work is one file that must be read.
type work struct {
	e      walkEntry
	oldID  int // same path in the old index, or -1
	result docInfo
	reuse  int   // old document whose postings can be reused, or -1
	fresh  int   // index among the freshly analysed documents, or -1
	racy   bool  // read only because its time is too close to the index's
	err    error // the file could not be read
}

// Refresh brings the index up to date with src and persists it. Files whose
// size and modification time are unchanged are not read; a changed file
// whose content hash is unchanged is not analysed again; a file that
// disappeared while a file with its content appeared is taken as renamed.
// Refresh holds an exclusive lock on the index directory, writes the new
// index to a temporary file and renames it into place, so readers and a
// killed writer always leave a complete index behind. progress, if not nil,
// is called with the files done and the files to read.
func (ix *Index) Refresh(ctx context.Context, src Source, progress func(done, total int)) (Stats, error) {
	defer holdMemory()()
	r, err := ix.beginRefresh() // lock, and load the old index meanwhile
	if err != nil {
		return Stats{}, err
	}
	defer r.end()
	// the history first: what reading it leaves is collected before
	// the files are (see readCollecting)
	if err := r.history(ctx, src); err != nil {
		return r.stats, err
	}
	if err := r.walk(ctx, src); err != nil {
		return r.stats, err
	}
	if err := r.awaitOld(src); err != nil {
		return r.stats, err
	}
	r.matchWalked()
	if err := r.analyseChanged(ctx, src, progress); err != nil {
		return r.stats, err
	}
	if r.oldStands() {
		r.stats.Reused = r.old.live // every indexed file is kept
		return r.keepOld(), nil
	}
	r.numberDocs()
	if !r.worthWriting() {
		return r.keepOld(), nil
	}
	return r.write(ctx)
}

// refreshMemoryLimit is the soft memory limit a Refresh holds a program
// to, and refreshHeadroom how much it lets a program that already holds
// more than that grow by (see holdMemory).
const (
	refreshMemoryLimit = 448 << 20
	refreshHeadroom    = 256 << 20
)

// holdMemory lowers the program's soft memory limit (debug.SetMemoryLimit)
// to refreshMemoryLimit, or to refreshHeadroom above the memory the
// program holds now if that is more, when its limit is higher; it returns
// what restores it. A refresh of a large tree is made in batches (see
// segmentBytes) so that what it keeps stays well under that; but a program
// that collects only near its limit, as the command line does, would
// otherwise keep all the garbage the walk and the batches leave until it
// reached its own. A program with a large heap (a server with other work)
// gets room to refresh without collecting all the time.
func holdMemory() (restore func()) {
	// What the program holds: all the runtime has mapped, less the heap
	// it has given back. (runtime.ReadMemStats, not runtime/metrics, whose
	// initialiser every command would pay for this one read.)
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	limit := max(refreshMemoryLimit, int64(ms.Sys-ms.HeapReleased)+refreshHeadroom)
	prev := debug.SetMemoryLimit(-1)
	if prev <= limit {
		return func() {}
	}
	debug.SetMemoryLimit(limit)
	return func() { debug.SetMemoryLimit(prev) }
}

// refresh is one Refresh under way: what its phases share.
type refresh struct {
	ix    *Index
	start time.Time
	stats Stats
	// inMemory: an index without a directory (Update with dir "") lives in
	// memory; nothing is read or written but the project's files.
	inMemory bool
	dir      *statedir.Dir // the index directory, locked
	unlock   func()

	id       fileID          // the committed index file, under the lock
	reset    bool            // start from nothing
	old      *state          // the index refreshed (nil while it loads)
	loading  chan loadResult // the old index, when it is decoded while the files are walked
	fromFile bool            // old is what the index file id holds
	fsum     uint32          // the filter of src (filterSum)

	entries []walkEntry        // the files walked
	fl      *freshLists        // the postings of the files analysed (the last batch's)
	segs    *segments          // the earlier batches', when there are several
	slots   []slot             // one for each file walked
	todo    []*work            // the files to read
	seen    []bool             // by old ID: a file walked has its path
	gone    map[[16]byte][]int // old documents no file has now, by content hash
	bytes   int64              // the bytes of todo

	keep []int     // old ID → final ID, or -1
	docs []docInfo // the documents of the new index, by final ID
	nOld int       // how many of docs are old documents or their tombstones
}

// A slot is one walked file: an old document whose postings are kept as
// they are, or the file's work (read, or skipped unread).
type slot struct {
	old int   // reuse this old document's postings, or -1
	w   *work // or the file's
}

type loadResult struct {
	st    *state
	warns []diag.Warning
	err   error
}

// beginRefresh locks the index directory and takes the newest committed
// index to refresh: the one Open loaded if no writer has replaced it since
// (it is not decoded again), else the file, decoded on another goroutine
// while the files are walked; nothing for a reset.
func (ix *Index) beginRefresh() (*refresh, error) {
	r := &refresh{ix: ix, start: time.Now(), inMemory: ix.dir == ""}
	if !r.inMemory {
		var err error
		if r.dir, r.unlock, err = openForWriting(ix.dir); err != nil {
			return nil, err
		}
	}
	ix.mu.Lock()
	loaded, cur := ix.loaded, ix.st
	r.reset, ix.reset = ix.reset, false
	ix.mu.Unlock()
	if !r.inMemory {
		r.id = indexFileID(ix.dir)
	}
	switch {
	case r.reset:
		r.old = newState(nil, dict{}, dict{}, 0)
	case r.inMemory || loaded != (fileID{}) && r.id == loaded && cur != nil:
		r.old = cur
	default:
		r.loading = make(chan loadResult, 1)
		go func() {
			st, warns, err := load(ix.dir)
			r.loading <- loadResult{st, warns, err}
		}()
	}
	return r, nil
}

// end waits for the tables started early (no goroutine of a Refresh
// outlives it) and unlocks the index directory.
func (r *refresh) end() {
	if r.fl != nil && r.fl.early {
		r.fl.prepare()
	}
	runtime.KeepAlive(r.old) // its posting lists may be a memory mapping
	if r.segs != nil {
		r.segs.close()
	}
	if r.unlock != nil {
		r.unlock()
		r.dir.Close()
	}
}

// walk lists src's files into r.entries, through the walk cache of the
// index directory when src can use one. With no old documents (a rebuild,
// no index yet), every file walked is to be analysed: the analysers'
// tables are then started as soon as the walk says how large.
func (r *refresh) walk(ctx context.Context, src Source) error {
	// about as many files as the old index has (no copies as it grows):
	// while it loads, as many as its size allows (indexes hold some 500
	// bytes to some kilobytes a file)
	n := int(min(r.id.size/256, 1<<20))
	if r.old != nil {
		n = len(r.old.docs) + len(r.old.docs)/16
	}
	r.entries = make([]walkEntry, 0, n)
	add := func(rel string, size int64, mtime time.Time) error {
		r.entries = append(r.entries, walkEntry{rel, size, mtime.UnixNano()})
		return nil
	}
	cold := r.reset || !r.inMemory && r.id == (fileID{}) || r.old != nil && len(r.old.docs) == 0
	var next []byte // the walk cache to write
	var err error
	if cs, ok := src.(CachingSource); ok && !r.inMemory {
		next, err = r.walkCached(ctx, cs, add)
	} else {
		err = src.Walk(ctx, add)
	}
	if err != nil {
		return fmt.Errorf("walk: %w", err)
	}
	if cold {
		r.startTables()
	}
	if next != nil {
		return writeCache(r.dir, next)
	}
	return nil
}

// walkCached walks cs with the walk cache of the index directory, and
// returns the cache to write. The walk cache is independent of the index:
// the source checks everything it takes from it, so it need not be written
// with the index, nor synced (a damaged one is ignored). It is used when
// there is an index to refresh.
func (r *refresh) walkCached(ctx context.Context, cs CachingSource, add func(string, int64, time.Time) error) ([]byte, error) {
	var prev []byte
	owner := new(state) // the mapping of prev is released with it
	if !r.reset && r.id != (fileID{}) {
		data, release, err := readIndex(r.dir, walkFile)
		var unsafe *statedir.UnsafeError
		if errors.As(err, &unsafe) {
			return nil, err
		}
		if err == nil {
			prev = data
			release(owner)
		}
	}
	next, err := cs.WalkCached(ctx, prev, add)
	runtime.KeepAlive(owner) // WalkCached keeps nothing of prev
	return next, err
}

// startTables makes the analysers' tables (megabytes, mapped up front)
// for the files walked (for the first batch of them, when they are more
// than one), on other goroutines, while this one goes on.
func (r *refresh) startTables() {
	var n int
	var bytes int64
	for _, e := range r.entries {
		if e.size <= MaxFileSize {
			n, bytes = n+1, bytes+e.size
		}
	}
	if size := batchBytes(len(r.entries)); !r.inMemory && bytes > size {
		n = int(int64(n) * size / bytes)
		bytes = size
	}
	r.fl = lazyFreshLists(termEstimate(n, bytes), bytes)
	r.fl.early = true
	go r.fl.prepare()
}

// awaitOld waits for the old index if it was loading. An index analysed
// through another filter (FilteringSource) has nothing to reuse: it is
// dropped, and every file is read and analysed again.
func (r *refresh) awaitOld(src Source) error {
	r.fromFile = !r.inMemory && !r.reset && r.loading == nil
	if r.loading != nil {
		lr := <-r.loading
		if lr.err != nil {
			return lr.err
		}
		r.old, r.stats.Warnings = lr.st, lr.warns
		r.fromFile = len(lr.warns) == 0 && r.id != (fileID{})
	}
	r.fsum = filterSum(src)
	if r.old.filter != r.fsum {
		r.old, r.fromFile = newState(nil, dict{}, dict{}, 0), false
	}
	if r.fl == nil && len(r.old.docs) == 0 { // (the index loaded had none)
		r.startTables()
	}
	return nil
}

// matchWalked matches the files walked with the old documents: a file
// whose size and modification time are those recorded keeps its document;
// any other is work, read unless it is over MaxFileSize. The old documents
// that no file has now are gone, for a file with their content to claim.
func (r *refresh) matchWalked() {
	old := r.old
	// A file recorded with a modification time within racyWindow of the
	// index file's own may have changed again after it was read without a
	// change of time or size (file systems stamp times from a coarse
	// clock): like git's "racily clean" entries, it is hashed again.
	racyBefore := int64(math.MaxInt64)
	if r.id.mtime != 0 {
		racyBefore = r.id.mtime - racyWindow
	}
	match := matchPaths(old.docs, r.entries)
	r.seen = make([]bool, len(old.docs))
	r.slots = make([]slot, 0, len(r.entries))
	for k, e := range r.entries {
		i := match[k]
		if i == dupPath {
			continue // duplicate path from the walker
		}
		ok := i >= 0
		if ok {
			r.seen[i] = true
		}
		racy := ok && old.docs[i].mtime >= racyBefore
		if ok && old.docs[i].size == e.size && old.docs[i].mtime == e.mtime && !racy {
			r.slots = append(r.slots, slot{old: i})
			continue
		}
		w := &work{e: e, oldID: -1, reuse: -1, fresh: -1, racy: racy}
		if ok {
			w.oldID = i
		}
		if e.size > MaxFileSize {
			w.result = docInfo{rel: e.rel, size: e.size, mtime: e.mtime, flags: docSkipped}
		} else {
			r.todo = append(r.todo, w)
			r.bytes += e.size
		}
		r.slots = append(r.slots, slot{old: -1, w: w})
	}
	r.entries = nil // (slots have what is needed of them)
	r.gone = make(map[[16]byte][]int)
	for i, d := range old.docs {
		if !r.seen[i] && d.flags == 0 {
			r.gone[d.hash] = append(r.gone[d.hash], i)
		}
	}
}

// analyseChanged reads, hashes and analyses the files that may have
// changed, in parallel, in batches (see segmentBytes) whose postings all
// but the last are flushed to segments; settles which old document each
// file whose content is already indexed reuses; and frees the analysis's
// tables.
func (r *refresh) analyseChanged(ctx context.Context, src Source, progress func(done, total int)) error {
	batches := r.batches()
	if len(batches) > 1 {
		runtime.GC() // what the walk left, before the first batch adds to it
	}
	done := 0
	for k, todo := range batches {
		var base uint32
		if k > 0 {
			base = r.fl.n
			if err := r.flushSegment(); err != nil {
				return err
			}
		}
		if r.fl == nil {
			r.fl = lazyFreshLists(termEstimate(len(todo), workBytes(todo)), workBytes(todo))
			r.fl.n = base // fresh indices follow the last batch's
		}
		var each func(int)
		if progress != nil {
			each = func(n int) { progress(done+n, len(r.todo)) }
		}
		if err := r.analyse(ctx, src, todo, each); err != nil {
			return err
		}
		done += len(todo)
	}
	if r.fl == nil { // nothing to read
		r.fl = lazyFreshLists(termEstimate(0, 0), 0)
	}
	r.claimReused(src)
	r.dropTables()
	return nil
}

// batches splits r.todo into batches of about batchBytes bytes and at
// most batchFiles files, in order (one batch for an index in memory, or
// none when there is nothing to read).
func (r *refresh) batches() [][]*work {
	size := batchBytes(len(r.slots))
	if r.inMemory || r.bytes <= size && len(r.todo) <= batchFiles {
		if len(r.todo) == 0 {
			return nil
		}
		return [][]*work{r.todo}
	}
	var out [][]*work
	start, bytes := 0, int64(0)
	for k, w := range r.todo {
		if k > start && (bytes+w.e.size > size || k-start == batchFiles) {
			out = append(out, r.todo[start:k])
			start, bytes = k, 0
		}
		bytes += w.e.size
	}
	return append(out, r.todo[start:])
}

// batchFiles is how many files a batch analyses at most: what the analysis
// keeps grows with the files as well as with their bytes (a variable for
// tests).
var batchFiles = 32 << 10

// batchBytes is how many bytes of files a batch of a refresh of n files
// analyses: segmentBytes, or less when the records the refresh keeps of
// every file (perFileBytes each) leave less of buildMemory for the
// analysis (about analysisFactor bytes a byte), down to a floor.
func batchBytes(n int) int64 {
	const (
		buildMemory    = 400 << 20
		perFileBytes   = 300
		analysisFactor = 4
		minBatch       = 8 << 20
	)
	left := (buildMemory - int64(n)*perFileBytes) / analysisFactor
	return min(segmentBytes, max(minBatch, left))
}

func workBytes(todo []*work) (n int64) {
	for _, w := range todo {
		n += w.e.size
	}
	return n
}

// flushSegment writes the postings of the batch analysed to a segment and
// drops them and its tables.
func (r *refresh) flushSegment() error {
	if r.segs == nil {
		r.segs = &segments{d: r.dir}
	}
	if r.fl.early {
		r.fl.prepare()
	}
	if err := r.segs.flush(r.fl); err != nil {
		return err
	}
	r.fl = nil
	runtime.GC() // the batch's memory, for the next to reuse
	return nil
}

// claimReused gives each old document that files found to hold its
// content to the first of them; another file claiming the same document
// is analysed here. It counts the files read again and those renamed,
// and warns of those that could not be read.
func (r *refresh) claimReused(src Source) {
	claimed := make(map[int]bool)
	var late *analyzer
	for k := range r.slots {
		s := &r.slots[k]
		if s.w == nil {
			continue
		}
		info := &s.w.result
		if err := s.w.err; err != nil {
			r.stats.Warnings = append(r.stats.Warnings, diag.Warning{Code: diag.PathUnreadable, Path: filepath.Join(src.Root(), filepath.FromSlash(info.rel)),
				Message: fmt.Sprintf("not indexed: %v", err)})
		}
		if re := s.w.reuse; re >= 0 {
			if !claimed[re] {
				claimed[re] = true
				s.old = re
				if re != s.w.oldID {
					r.stats.Renamed++
				}
				continue
			}
			if late == nil {
				late = r.fl.analyzer()
			}
			data, err := src.ReadFile(info.rel)
			if err == nil {
				data = filter(src, data)
			}
			if err != nil || data == nil {
				info.flags |= docSkipped
				continue
			}
			lens := late.post(data, uint32(len(late.docs)), info.rel)
			late.docs = append(late.docs, s.w)
			info.lens[fContent], info.lens[fIdent] = lens[0], lens[1]
		}
		if info.flags&docSkipped == 0 {
			r.stats.Reread++
		}
	}
	if late != nil {
		r.fl.absorb(late)
	}
}

// dropTables ends the analysis: its tables (the word table, the
// analysers' caches and counts) are tens of megabytes for a large one. A
// collection now frees them for what follows (lists, sort buffers, the
// new index) to reuse, rather than mapping fresh pages a fault at a time,
// and leaves less for the process to unmap when it ends (the command line
// collects nothing otherwise).
func (r *refresh) dropTables() {
	if r.fl.early {
		r.fl.prepare() // the tables were started, whether used or not
	}
	r.fl.dropTables()
	if r.bytes >= collectAfter {
		runtime.GC()
	}
}

// oldStands reports whether the old index stands as it is, the common
// refresh: every file is at the path of an old document, every old
// document is still there, and the files read again (if any) kept their
// content; unless the files it would read again are too many (maxStale).
func (r *refresh) oldStands() bool {
	if r.fl.n != 0 || r.stats.Renamed != 0 {
		return false
	}
	live, deleted := 0, 0
	for _, d := range r.old.docs {
		if d.flags&docDeleted != 0 {
			deleted++
		} else {
			live++
		}
	}
	if len(r.slots) != live || deleted*4 > len(r.old.docs) {
		return false
	}
	for _, s := range r.slots {
		if s.old < 0 {
			return false
		}
	}
	stale := 0
	for _, w := range r.todo {
		if w.result.mtime != r.old.docs[w.oldID].mtime {
			stale++
		}
	}
	return stale <= maxStale && !racyDue(r.todo, r.old)
}

// keepOld installs the old index, in which the refresh found nothing
// worth writing a new one for.
func (r *refresh) keepOld() Stats {
	r.ix.keep(r.old, r.fromFile, r.id)
	r.stats.fill(r.old, time.Since(r.start))
	return r.stats
}

// numberDocs gives each document of the new index its final ID. Old
// documents keep their IDs, so the posting lists of terms no fresh
// document has are copied as they are; an old document that changed or
// left becomes a tombstone (its stale postings are skipped by Search)
// until tombstones pass a quarter of the documents, when they are
// compacted away. Fresh documents follow in arrival order, then documents
// without postings.
func (r *refresh) numberDocs() {
	old := r.old
	oldSlot := make([]int, len(old.docs)) // old ID → slot reusing it, or -1
	for i := range oldSlot {
		oldSlot[i] = -1
	}
	for k := range r.slots {
		if r.slots[k].old >= 0 {
			oldSlot[r.slots[k].old] = k
		}
	}
	dead := 0
	for i, d := range old.docs {
		if oldSlot[i] < 0 {
			dead++
			if d.flags == 0 && !r.seen[i] {
				r.stats.Removed++
			}
		}
	}
	compact := dead*4 > len(old.docs)+int(r.fl.n)
	r.keep = make([]int, len(old.docs))
	r.docs = make([]docInfo, 0, len(r.slots)+dead)
	for i := range old.docs {
		k := oldSlot[i]
		if k < 0 {
			r.keep[i] = -1
			if !compact {
				r.keep[i] = len(r.docs)
				r.docs = append(r.docs, docInfo{flags: docDeleted})
			}
			continue
		}
		d := old.docs[i]
		if w := r.slots[k].w; w != nil {
			d = w.result // a file read again, or found under a new path
		}
		o := old.docs[i]
		d.lens[fContent], d.lens[fIdent] = o.lens[fContent], o.lens[fIdent]
		d.flags = o.flags
		r.keep[i] = len(r.docs)
		r.docs = append(r.docs, d)
	}
	r.nOld = len(r.docs)
	r.appendFresh()
}

// appendFresh appends the fresh documents, then those without postings,
// to the new index's, and counts the indexed files kept.
func (r *refresh) appendFresh() {
	// Reused counts indexed files: not those listed but skipped.
	r.stats.Reused = len(r.slots) - int(r.fl.n) - r.stats.Renamed
	for _, s := range r.slots {
		if s.old < 0 && s.w.fresh < 0 || s.old >= 0 && r.old.docs[s.old].flags&docSkipped != 0 {
			r.stats.Reused--
		}
	}
	fresh := make([]docInfo, r.fl.n)
	for _, s := range r.slots {
		if s.old < 0 && s.w.fresh >= 0 {
			fresh[s.w.fresh] = s.w.result
		}
	}
	r.docs = append(r.docs, fresh...)
	for _, s := range r.slots {
		if s.old < 0 && s.w.fresh < 0 {
			d := s.w.result
			d.flags |= docSkipped
			r.docs = append(r.docs, d)
		}
	}
}

// worthWriting reports whether the new documents are worth a new index.
// Files whose content is the one indexed but whose modification time moved
// (touched, checked out again) need none: the next Refresh reads and
// hashes them again. A new index is written only when more than maxStale
// of them would be read again each time.
func (r *refresh) worthWriting() bool {
	old := r.old
	if len(r.docs) != len(old.docs) || r.fl.n > 0 {
		return true
	}
	stale := 0
	for i := range r.keep {
		if r.keep[i] != i {
			return true
		}
		if d, o := r.docs[i], old.docs[i]; d != o {
			// (the path and name lengths are set by write)
			d.lens[fPath], d.lens[fName] = o.lens[fPath], o.lens[fName]
			if d == o {
				continue
			}
			d.mtime = o.mtime
			if d != o {
				return true
			}
			stale++
		}
	}
	return racyDue(r.todo, old) || stale > maxStale
}

// write makes the sections of the new index, writes it to the index
// directory (unless it lives in memory) and installs it.
func (r *refresh) write(ctx context.Context) (Stats, error) {
	if r.segs != nil {
		return r.writeSegmented(ctx)
	}
	text, paths := r.sections()
	if err := ctx.Err(); err != nil {
		return r.stats, err
	}
	parts, err := encode(r.docs, text, paths, r.fsum)
	if err != nil {
		return r.stats, err
	}
	var size int64
	if r.inMemory {
		for _, b := range parts {
			size += int64(len(b))
		}
	} else if size, err = writeIndex(r.dir, parts); err != nil {
		return r.stats, err
	}
	textDict, err := section(text)
	if err != nil {
		return r.stats, fmt.Errorf("index written but unreadable: %w", err)
	}
	pathDict, err := section(paths)
	if err != nil {
		return r.stats, fmt.Errorf("index written but unreadable: %w", err)
	}
	st := newState(r.docs, textDict, pathDict, size)
	st.filter = r.fsum
	r.ix.install(st)
	r.ix.mu.Lock()
	if !r.inMemory {
		r.ix.loaded = indexFileID(r.ix.dir)
	}
	r.ix.mu.Unlock()
	r.stats.Written = !r.inMemory
	r.stats.fill(st, time.Since(r.start))
	return r.stats, nil
}

// sections returns the content/ident and the path/name sections of the new
// index. The first is copied when no old document moved or left and none
// was added, else merged. The second depends only on the paths and flags
// of the documents: when none changed (files touched or edited in place
// without tombstones), it is copied. It is made on another goroutine while
// the first is merged.
func (r *refresh) sections() (text, paths []byte) {
	old := r.old
	identity := r.nOld == len(old.docs) && r.fl.n == 0 && sortedIdentity(r.keep)
	samePaths := len(r.docs) == len(old.docs)
	for i := 0; samePaths && i < len(r.docs); i++ {
		samePaths = r.docs[i].rel == old.docs[i].rel && r.docs[i].flags == old.docs[i].flags
	}
	pathDone := make(chan []byte, 1)
	go func() {
		if samePaths {
			for i := range r.docs {
				r.docs[i].lens[fPath], r.docs[i].lens[fName] = old.docs[i].lens[fPath], old.docs[i].lens[fName]
			}
			pathDone <- rawDict(&old.path, nil)
			return
		}
		pathDone <- buildPaths(r.docs)
	}()
	if identity {
		text = rawDict(&old.text, nil)
	} else {
		text = mergeText(&old.text, len(old.docs), r.keep, r.nOld, r.fl)
	}
	return text, <-pathDone
}

// racyWindow is how close to the index file's modification time a file's
// may be for its size and time not to prove it unchanged (ns).
const racyWindow = 2e9

// racyDue reports whether the racy files of todo found unchanged should
// stop being racy by a new index being written: racy files found
// unchanged stay racy until an index is written more than racyWindow
// after their time; when there are many, one is.
func racyDue(todo []*work, old *state) bool {
	racyEqual, racyLatest := 0, int64(math.MinInt64)
	for _, w := range todo {
		if w.racy && w.reuse == w.oldID && w.e.mtime == old.docs[w.oldID].mtime {
			racyEqual++
			racyLatest = max(racyLatest, w.e.mtime)
		}
	}
	return racyEqual > maxStale && time.Now().UnixNano()-racyWindow > racyLatest
}

// maxStale is the number of files whose modification time changed but not
// their content that Refresh leaves to be hashed again by the next one
// rather than write a new index.
const maxStale = 64

// collectAfter is how many bytes an analysis takes for Refresh to collect
// its tables when it is over.
const collectAfter = 4 << 20
