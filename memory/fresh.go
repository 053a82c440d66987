package memory

import (
	"cmp"
	"encoding/binary"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/taskctl/taskctl/internal/pages"
)

// freshLists gathers the postings of freshly analysed documents, by the
// term IDs of the table their analysers share. Each analyser numbers its
// documents from 0; absorbing analysers in turn gives each document its
// fresh index, the analyser's base plus its own number (offset later by
// the number of documents kept from the old index), and keeps its
// postings, in chunks sorted by term. sorted lays the chunks out as one
// posting list a term.
type freshLists struct {
	table *termTable
	logs  []freshLog
	terms int           // one more than the highest term ID in logs
	lists []listBuilder // by term ID, made from logs by build
	n     uint32

	words *wordTable // shared by the analysers too

	size      int   // about how many terms a table made by analyzer is for
	bytes     int64 // about how many bytes its analysers analyse
	tableOnce sync.Once
	early     bool // prepare was started before any analyser was made
	// prepare's parts of the tables' mapping, the next to take, and the
	// parts left to do
	mapping     []func()
	nextMapping atomic.Int32
	mapped      sync.WaitGroup
}

// A freshLog is a chunk of one analyser's postings, sorted by term, with
// the analyser's wide frequencies and the fresh index of its first
// document.
type freshLog struct {
	posts []posting
	wide  [][2]uint32
	base  uint32
}

// newFreshLists returns lists for documents analysed with terms from a
// table of about n terms, about bytes bytes of them.
func newFreshLists(n int, bytes int64) *freshLists {
	return &freshLists{table: newTermTable(n), words: newWordTable(bytes)}
}

// lazyFreshLists is newFreshLists, but the tables are made when the first
// analyser is (a refresh may read files and find them unchanged).
func lazyFreshLists(n int, bytes int64) *freshLists {
	return &freshLists{size: n, bytes: bytes}
}

// analyzer returns an analyser over f's term table. It is safe for
// concurrent use.
func (f *freshLists) analyzer() *analyzer {
	f.prepare()
	a := newAnalyzer()
	a.table, a.wtab = f.table, f.words
	// room for its share of the postings (code has about one in 27
	// bytes), made at once: growing the log, each larger copy was zeroed
	// (fresh pages) and copied into
	a.posts = make([]posting, 0, min(chunkPostings, max(1<<10, int(f.bytes/48))))
	pages.Populate(a.posts[:cap(a.posts)]) // filled a posting at a time
	// counts for as many terms as the table is made for: grown from
	// nothing, each larger copy was zeroed and copied into
	a.growCounts(uint32(max(f.size, 1) - 1))
	return a
}

// dropTables drops the word table, which only analysers use (one made
// after it has a table of its own, and the same analysis).
func (f *freshLists) dropTables() {
	f.words = nil
}

// prepare makes the term and word tables unless they are made, and
// returns when they are. Mapping their memory (megabytes) is most of the
// work: it is split in parts, and every goroutine that calls prepare
// while some are left takes them.
func (f *freshLists) prepare() {
	f.tableOnce.Do(func() {
		if f.table == nil {
			f.table, f.words = makeTermTable(f.size), makeWordTable(f.bytes)
			f.mapping = append(f.words.mapping(2), f.table.mapping()...)
			f.mapped.Add(len(f.mapping))
		}
	})
	for {
		i := int(f.nextMapping.Add(1)) - 1
		if i >= len(f.mapping) {
			break
		}
		f.mapping[i]()
		f.mapped.Done()
	}
	f.mapped.Wait()
}

// absorb takes the postings of a's documents, after those absorbed
// before, and sets their works' fresh indices.
func (f *freshLists) absorb(a *analyzer) {
	a.sealPostings()
	for _, ps := range a.chunks {
		f.logs = append(f.logs, freshLog{posts: ps, wide: a.wide, base: f.n})
	}
	f.terms = max(f.terms, a.terms)
	for j, w := range a.docs {
		w.fresh = int(f.n) + j
	}
	f.n += uint32(len(a.docs))
}

// buildTasks returns the work of making each term's posting list from the
// logs, split into up to k tasks of about as many postings each, which may
// run in parallel: a term's postings are together in each log, and the
// logs are in document order, so one pass through each log, term by term,
// writes the lists in order, and a task writes the lists of its range of
// terms to a buffer of its own.
func (f *freshLists) buildTasks(k int) []func() {
	if len(f.logs) == 0 {
		return nil
	}
	total := 0
	for _, lg := range f.logs {
		total += len(lg.posts)
	}
	if len(f.lists) != f.terms {
		f.makeLists()
	}
	if total < splitBuild {
		k = 1
	}
	// below returns the postings of terms below id
	below := func(id int) (n int) {
		for _, lg := range f.logs {
			n += sort.Search(len(lg.posts), func(i int) bool { return lg.posts[i].id >= uint32(id) })
		}
		return n
	}
	var tasks []func()
	lo, nlo := 0, 0
	for i := 1; i <= k; i++ {
		hi, nhi := f.terms, total
		if i < k {
			hi = sort.Search(f.terms, func(id int) bool { return below(id) >= total*i/k })
			nhi = below(hi)
		}
		if hi > lo {
			lo, hi, n := lo, hi, nhi-nlo
			tasks = append(tasks, func() { f.buildRange(lo, hi, n) })
		}
		lo, nlo = hi, nhi
	}
	return tasks
}

// runTasks runs tasks, in order, on up to GOMAXPROCS goroutines (the
// calling one among them), and returns when all are done.
func runTasks(tasks []func()) {
	var next atomic.Int64
	work := func() {
		for {
			i := next.Add(1) - 1
			if i >= int64(len(tasks)) {
				return
			}
			tasks[i]()
		}
	}
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(tasks)) - 1 {
		wg.Go(work)
	}
	work()
	wg.Wait()
}

// makeLists makes the lists build fills, one a term.
func (f *freshLists) makeLists() {
	f.lists = make([]listBuilder, f.terms)
}

// buildParts is how many parts sorted splits the lists into.
const buildParts = 6

// splitBuild is how many postings buildTasks splits from.
var splitBuild = 1 << 16

// buildRange makes the lists of the terms from lo to hi, which have n
// postings.
func (f *freshLists) buildRange(lo, hi, n int) {
	// the garbage collector may read the lists, fresh, before they are
	// written
	pages.Populate(f.lists[lo:hi])
	at := make([]int, len(f.logs)) // each log's first posting of lo
	for k, lg := range f.logs {
		at[k] = sort.Search(len(lg.posts), func(i int) bool { return lg.posts[i].id >= uint32(lo) })
	}
	buf := make([]byte, 0, 4*n)
	for id := lo; id < hi; id++ {
		start := len(buf)
		var last, df uint32
		for k := range f.logs {
			lg := &f.logs[k]
			c := at[k]
			for ; c < len(lg.posts) && lg.posts[c].id == uint32(id); c++ {
				p := lg.posts[c]
				doc := p.doc + lg.base
				delta := doc - last // the first: doc itself
				tf := [2]uint32{p.tf & 0xffff, p.tf >> 16}
				if p.tf&wideTF != 0 {
					tf = lg.wide[p.tf&^wideTF]
				}
				buf = appendUvarint32(buf, delta)
				buf = appendUvarint32(buf, tf[0])
				buf = appendUvarint32(buf, tf[1])
				last = doc
				df++
			}
			at[k] = c
		}
		f.lists[id] = listBuilder{buf: buf[start:len(buf):len(buf)], last: last, df: df}
	}
}

// appendUvarint32 is binary.AppendUvarint, with the commonest case (a
// byte) first.
func appendUvarint32(b []byte, v uint32) []byte {
	if v < 0x80 {
		return append(b, byte(v))
	}
	return binary.AppendUvarint(b, uint64(v))
}

// termList is a term and its fresh posting list.
type termList struct {
	key uint64 // the term's first 8 bytes, big-endian, zero-padded
	t   string
	l   *listBuilder
}

// sorted returns the terms that have postings and their lists, sorted by
// term.
//
// The terms are sorted while their lists are written (the sort does not
// read them): the sort and a few parts of the lists are tasks for as many
// goroutines as there are processors, the sort first, as it takes longest.
func (f *freshLists) sorted() []termList {
	if f.table == nil {
		return nil // no analyser was made: no terms
	}
	if len(f.logs) > 0 {
		f.makeLists()
	}
	// (the lists may run past the last term: their number is a bound)
	n := min(len(f.lists), len(f.table.names))
	var order []uint32
	tasks := []func(){func() { order = sortTermIDs(f.table.keys[:n], f.table.names[:n]) }}
	runTasks(append(tasks, f.buildTasks(buildParts)...))
	f.logs = nil
	// the terms with postings, in order: each half of them on a goroutine
	out := make([]termList, len(order))
	pages.Populate(out)
	gather := func(ids []uint32, dst []termList) (k int) {
		for _, id := range ids {
			if l := &f.lists[id]; l.df > 0 {
				dst[k] = termList{f.table.keys[id], f.table.names[id], l}
				k++
			}
		}
		return k
	}
	half := len(order) / 2
	var k1, k2 int
	runTasks([]func(){
		func() { k1 = gather(order[:half], out[:half]) },
		func() { k2 = gather(order[half:], out[half:]) },
	})
	if k1 < half {
		copy(out[k1:], out[half:half+k2])
	}
	return out[:k1+k2]
}

// sortTermIDs returns the IDs of the terms names, whose keys (termKey)
// are keys, in the order of the terms: a radix sort of (key, ID) pairs
// eight bits a pass from the lowest (skipping the bytes every key shares;
// fewer than 1,024 pairs, a comparison sort by key), then each run of equal
// keys (terms of eight bytes or more that share
// their first eight) by the whole term. The pairs are half the size of a
// termList, and the terms themselves are read only for those runs.
func sortTermIDs(keys []uint64, names []string) []uint32 {
	type pair struct {
		key uint64
		id  uint32
	}
	n := len(keys)
	src := make([]pair, n)
	pages.Populate(src) // (and dst below: filled, each, a pair at a time)
	for id, k := range keys {
		src[id] = pair{k, uint32(id)}
	}
	byName := func(a, b uint32) int {
		return strings.Compare(names[a], names[b])
	}
	if n >= 1<<10 {
		var counts [8][256]int
		for _, p := range src {
			for b := range 8 {
				counts[b][p.key>>(8*b)&0xff]++
			}
		}
		dst := make([]pair, n)
		pages.Populate(dst)
		for b := range 8 {
			c := &counts[b]
			shift := 8 * b
			if c[src[0].key>>shift&0xff] == n {
				continue
			}
			sum := 0
			for d, k := range c {
				c[d] = sum
				sum += k
			}
			for _, p := range src {
				d := p.key >> shift & 0xff
				dst[c[d]] = p
				c[d]++
			}
			src, dst = dst, src
		}
	} else {
		slices.SortFunc(src, func(a, b pair) int { return cmp.Compare(a.key, b.key) })
	}
	order := make([]uint32, n)
	for i, p := range src {
		order[i] = p.id
	}
	for i := 0; i < n; {
		j := i + 1
		for j < n && src[j].key == src[i].key {
			j++
		}
		switch run := order[i:j]; {
		case len(run) > 16:
			slices.SortFunc(run, byName)
		case len(run) > 1: // most: insertion
			for k := 1; k < len(run); k++ {
				for m := k; m > 0 && byName(run[m-1], run[m]) > 0; m-- {
					run[m-1], run[m] = run[m], run[m-1]
				}
			}
		}
		i = j
	}
	return order
}
