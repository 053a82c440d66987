package tokens

import (
	"encoding/binary"
	"hash/maphash"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"
	"unsafe"

	"github.com/taskctl/taskctl/internal/pages"
)

// An encoding is everything the fast counter needs for one encoding: the
// rank of every token (embedded, see ranktable.go), the hand-written split
// (split.go), a process-wide cache of the counts of pieces that are not a
// single token, and per-goroutine hot caches of the counts of short pieces.
type encoding struct {
	ranks   func() *rankTable
	loaded  atomic.Bool           // ranks has been built
	prepare sync.Once             // Prepare's goroutine
	ascii   func(string, int) int // the ASCII fast path of next: 0 where it does not decide
	next    func(string, int) int // the general split, for any text
	pieces  pieceCache
	hot     sync.Pool // of *hotCache
}

var encodings = map[string]*encoding{
	O200kBase:  newEncoding(o200kBaseTokens, o200kBaseRanks, asciiO200k, nextO200k),
	Cl100kBase: newEncoding(cl100kBaseTokens, cl100kBaseRanks, asciiCl100k, nextCl100k),
}

func newEncoding(vocab, table string, ascii, next func(string, int) int) *encoding {
	e := &encoding{ascii: ascii, next: next}
	e.ranks = sync.OnceValue(func() *rankTable {
		t, ok := loadRanks(table, vocab)
		if !ok {
			t = buildRanks(vocab)
		}
		e.loaded.Store(true)
		return t
	})
	return e
}

// A rankTable maps the bytes of every token to its rank. For the tiktoken
// encodings a token's rank is its id, and special tokens are left out
// (counts are those of encode_ordinary).
//
// It is an open-addressing hash table with linear probing, at most 80% full
// (76% for both encodings: 4 MB for o200k_base, 2 MB for cl100k_base). The
// filter answers most lookups of a string that is not a token, so probes
// are mostly for tokens, which end within a cache line or two; a table half
// as full counted no faster and doubled the binary's share of the tables.
// A slot holds a token's first eight bytes as a number, so a token of up
// to eight bytes is compared with one integer comparison; the rest of a
// longer token is compared with its bytes in buf.
//
// The tables are built once, by buildRanks, and embedded in the binary
// (ranktable.go): a process reads them in place.
type rankTable struct {
	slots []rankSlot
	shift uint   // 64 - log2(len(slots))
	buf   string // the vocabulary (vocab.go), which holds every token's bytes
	n     int    // tokens
	// filter is a Bloom filter of the tokens (two bits of one word each,
	// see filterWord): a lookup of a string that is not a token mostly
	// ends there.
	filter []uint64
	// pairs holds the rank of every two-byte string (noRank if it is not
	// a token), indexed by the bytes as a big-endian number: the first
	// lookups of every byte-pair merge.
	pairs []uint32
}

type rankSlot struct {
	key  uint64 // the first (up to) eight bytes, see key8
	meta uint32 // length<<24 | offset in buf; 0 for an empty slot
	rank uint32
}

// maxTokenLen bounds a token's length in the table (the longest of these
// encodings' tokens is 128 bytes).
const maxTokenLen = 255

// key8 packs the first eight bytes of s (fewer, zero-padded, if s is
// shorter) into a number, little-endian.
func key8(s string) uint64 {
	switch n := len(s); {
	case n >= 8:
		return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
			uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
	case n >= 4:
		// Two overlapping loads; the shared bytes land on the same bits.
		return uint64(le32(s)) | uint64(le32(s[n-4:]))<<((n-4)*8)
	case n >= 2:
		return uint64(le16(s)) | uint64(le16(s[n-2:]))<<((n-2)*8)
	case n == 1:
		return uint64(s[0])
	}
	return 0
}

func le32(s string) uint32 {
	_ = s[3]
	return uint32(s[0]) | uint32(s[1])<<8 | uint32(s[2])<<16 | uint32(s[3])<<24
}

func le16(s string) uint16 {
	_ = s[1]
	return uint16(s[0]) | uint16(s[1])<<8
}

// hash is the hash of s, whose key8 is k: its top bits are the home slot
// of s, and a second mix of it picks the bits of the filter.
func (t *rankTable) hash(k uint64, s string) uint64 {
	x := k ^ uint64(len(s))*0x9e3779b97f4a7c15
	if len(s) > 8 {
		x ^= key8(s[len(s)-8:]) * 0xc2b2ae3d27d4eb4f
	}
	x *= 0xbf58476d1ce4e5b9
	return x ^ x>>29
}

// filterBits is the size of the rank table's filter, 2^filterBits bits:
// 256 KB, small enough to stay in the processor's cache where the table
// (4 MB for o200k_base) does not.
const filterBits = 21

// filterWord is the index of the filter's word and the mask of the two bits
// in it that every token of hash h sets. About half the lookups during
// byte-pair merging are for a string that is not a token, and the filter
// answers all but some 4% of those without touching the table.
func filterWord(h uint64) (int, uint64) {
	f := h * 0x94d049bb133111eb
	return int(f >> (64 - filterBits + 6)), uint64(1)<<(f&63) | uint64(1)<<(f>>6&63)
}

// get returns the rank of token s.
func (t *rankTable) get(s string) (uint32, bool) {
	if len(s) == 0 || len(s) > maxTokenLen {
		return noRank, false
	}
	k := key8(s)
	h := t.hash(k, s)
	if w, m := filterWord(h); t.filter[w]&m != m {
		return noRank, false
	}
	meta := uint32(len(s)) << 24
	mask := uint64(len(t.slots) - 1)
	for i := h >> t.shift; ; i = (i + 1) & mask {
		sl := &t.slots[i]
		if sl.meta == 0 {
			return noRank, false
		}
		if sl.key == k && sl.meta&^(1<<24-1) == meta && (len(s) <= 8 || t.buf[sl.meta&(1<<24-1)+8:][:len(s)-8] == s[8:]) {
			return sl.rank, true
		}
	}
}

// rank is get without the second result: noRank for a non-token.
func (t *rankTable) rank(s string) uint32 {
	r, _ := t.get(s)
	return r
}

// count returns the number of tokens of text.
func (e *encoding) count(text []byte) int {
	if len(text) == 0 {
		return 0
	}
	s := unsafe.String(unsafe.SliceData(text), len(text)) // only read, during this call
	if !utf8.ValidString(s) {
		s = replaceInvalid(s)
	}
	ranks := e.ranks()
	hot, _ := e.hot.Get().(*hotCache)
	if hot == nil {
		hot = new(hotCache)
		pages.Populate(hot[:]) // read before written
	}
	total := 0
	for i := 0; i < len(s); {
		j := 0
		if s[i] < utf8.RuneSelf {
			j = e.ascii(s, i)
		}
		if j == 0 {
			j = e.next(s, i)
		}
		// The hot cache: a short piece is two numbers, its bytes, and its
		// length (see hotSlot).
		n := j - i
		var k1, k2 uint64
		switch {
		case n <= 8 && i+8 <= len(s):
			k1 = load64(s, i) & (^uint64(0) >> (64 - 8*n))
		case n < 16 && i+16 <= len(s):
			k1, k2 = load64(s, i), load64(s, i+8)&(^uint64(0)>>(128-8*n))
		case n < 16:
			k1 = key8(s[i:j])
			if n > 8 {
				k2 = key8(s[i+8 : j])
			}
		default:
			total += e.countPiece(s[i:j], ranks)
			i = j
			continue
		}
		tag := k2 | uint64(n)<<56
		h := (k1 ^ tag*0x9e3779b97f4a7c15) * 0xbf58476d1ce4e5b9
		sl := &hot[h>>(64-hotBits)]
		if sl.k1 == k1 && sl.tag&^(0xf<<60) == tag {
			total += int(sl.tag >> 60)
			i = j
			continue
		}
		c := e.countPiece(s[i:j], ranks)
		*sl = hotSlot{k1: k1, tag: tag | uint64(c)<<60}
		total += c
		i = j
	}
	e.hot.Put(hot)
	return total
}

// load64 is the eight bytes of s from i (i+8 <= len(s)), little-endian,
// as key8 packs them.
func load64(s string, i int) uint64 {
	return binary.LittleEndian.Uint64(unsafe.Slice(unsafe.StringData(s), len(s))[i : i+8])
}

// A hotCache is a direct-mapped cache of the counts of pieces of up to 15
// bytes, one per goroutine (from a sync.Pool, so it stays warm between
// calls), small enough to stay in the processor's cache: most pieces of a
// text are among a few thousand distinct ones, and looking them up here is
// much cheaper than in the rank table.
type hotCache [1 << hotBits]hotSlot

const hotBits = 14

// A hotSlot holds a piece of up to 15 bytes: k1 is its first eight bytes
// and tag the rest (up to seven) as key8 packs them, its length in bits
// 56-59 and its count (at most its length) in bits 60-63. An empty slot
// has length 0, which no piece has.
type hotSlot struct {
	k1, tag uint64
}

// countPiece is the count of piece p: 1 for a token, else from the piece
// cache or by byte-pair encoding.
func (e *encoding) countPiece(p string, ranks *rankTable) int {
	if _, ok := ranks.get(p); ok {
		return 1
	}
	return e.pieces.count(p, ranks)
}

// replaceInvalid replaces every maximal subpart of an ill-formed UTF-8
// sequence in s with U+FFFD, the practice the Unicode standard recommends and
// Python's bytes.decode(errors="replace") follows: a truncated but otherwise
// well-formed sequence ("\xe2\x82" of "€") is one replacement, any other
// invalid byte is one replacement each.
func replaceInvalid(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r != utf8.RuneError || n > 1 {
			b.WriteString(s[i : i+n])
			i += n
			continue
		}
		b.WriteRune(utf8.RuneError)
		i += maximalSubpart(s[i:])
	}
	return b.String()
}

// maximalSubpart returns the length of the maximal subpart of an ill-formed
// sequence at the start of s: the longest prefix of a well-formed sequence,
// or 1 if s[0] cannot start one (Unicode Table 3-7).
func maximalSubpart(s string) int {
	lo, hi, need := byte(0x80), byte(0xbf), 0
	switch c := s[0]; {
	case 0xc2 <= c && c <= 0xdf:
		need = 1
	case c == 0xe0:
		lo, need = 0xa0, 2
	case c == 0xed:
		hi, need = 0x9f, 2
	case 0xe1 <= c && c <= 0xef:
		need = 2
	case c == 0xf0:
		lo, need = 0x90, 3
	case 0xf1 <= c && c <= 0xf3:
		need = 3
	case c == 0xf4:
		hi, need = 0x8f, 3
	default:
		return 1
	}
	n := 1
	for n <= need && n < len(s) {
		c := s[n]
		if n > 1 {
			lo, hi = 0x80, 0xbf
		}
		if c < lo || c > hi {
			break
		}
		n++
	}
	return n
}

// pieceCache remembers the token count of pieces that are not one token
// (identifiers and the like repeat a lot). It is sharded to keep goroutines
// counting different files apart. A shard is an open-addressing table of
// small slots over an arena that holds the pieces' bytes: no allocation per
// piece and nothing for the garbage collector to trace, where a map of
// strings cost an allocation and a share of the map's growth for every
// piece. A shard is emptied when it holds maxShardPieces pieces or
// maxShardBytes of them, so a huge input cannot make it grow without bound.
type pieceCache struct {
	seed   maphash.Seed
	init   sync.Once
	shards [64]pieceShard
}

type pieceShard struct {
	sync.Mutex
	slots []pieceSlot // a power of two, at most half full; nil when empty
	arena []byte      // the pieces' bytes
	n     int         // pieces
	_     [16]byte    // keep shards on separate cache lines
}

// A pieceSlot is one piece: tag is bits of its hash (never 0, which marks
// an empty slot), n its count, and ref its place in the arena (offset<<9 |
// length; a cached piece is at most maxCachedLength bytes).
type pieceSlot struct {
	tag uint16
	n   uint16
	ref uint32
}

const (
	maxShardPieces  = 1 << 14 // 64 shards: about a million pieces at most
	maxShardBytes   = 1 << 20 // and 64 MB of them
	maxCachedLength = 256     // longer pieces are rare and not cached
	minShardSlots   = 1 << 8
)

func (c *pieceCache) count(p string, ranks *rankTable) int {
	if len(p) > maxCachedLength {
		return bpeCount(p, ranks)
	}
	c.init.Do(func() { c.seed = maphash.MakeSeed() })
	h := maphash.String(c.seed, p)
	sh := &c.shards[h%uint64(len(c.shards))]
	tag := uint16(h>>48) | 1
	sh.Lock()
	n, ok := sh.find(p, h, tag)
	sh.Unlock()
	if ok {
		return n
	}
	n = bpeCount(p, ranks)
	sh.Lock()
	if _, ok := sh.find(p, h, tag); !ok {
		sh.add(c.seed, p, h, tag, n)
	}
	sh.Unlock()
	return n
}

// find returns the count of p, whose hash is h and tag tag.
func (sh *pieceShard) find(p string, h uint64, tag uint16) (int, bool) {
	if sh.slots == nil {
		return 0, false
	}
	mask := uint64(len(sh.slots) - 1)
	for i := h >> 6 & mask; ; i = (i + 1) & mask {
		sl := sh.slots[i]
		if sl.tag == 0 {
			return 0, false
		}
		if sl.tag == tag && int(sl.ref&(1<<9-1)) == len(p) && string(sh.arena[sl.ref>>9:][:len(p)]) == p {
			return int(sl.n), true
		}
	}
}

// add inserts p, which is not in the shard, with count n. The shard's
// table doubles when it would be more than half full.
func (sh *pieceShard) add(seed maphash.Seed, p string, h uint64, tag uint16, n int) {
	if sh.n >= maxShardPieces || len(sh.arena)+len(p) > maxShardBytes {
		sh.slots, sh.arena, sh.n = nil, sh.arena[:0], 0
	}
	if sh.slots == nil {
		sh.slots = make([]pieceSlot, minShardSlots)
	} else if 2*(sh.n+1) > len(sh.slots) {
		old := sh.slots
		sh.slots = make([]pieceSlot, 2*len(old))
		pages.Populate(sh.slots) // read before written
		for _, sl := range old {
			if sl.tag != 0 {
				q := sh.arena[sl.ref>>9:][:sl.ref&(1<<9-1)]
				sh.put(maphash.Bytes(seed, q), sl)
			}
		}
	}
	sh.put(h, pieceSlot{tag: tag, n: uint16(n), ref: uint32(len(sh.arena))<<9 | uint32(len(p))})
	sh.arena = append(sh.arena, p...)
	sh.n++
}

// put places sl, of hash h, in the first empty slot from its home.
func (sh *pieceShard) put(h uint64, sl pieceSlot) {
	mask := uint64(len(sh.slots) - 1)
	i := h >> 6 & mask
	for sh.slots[i].tag != 0 {
		i = (i + 1) & mask
	}
	sh.slots[i] = sl
}

const noRank = ^uint32(0)

// bpeCount is the number of tokens byte-pair encoding makes of piece, which
// is not itself a token (countPiece has looked): start from single bytes
// and merge, again and again, the leftmost adjacent pair whose
// concatenation has the lowest rank, until no adjacent pair is a token.
// Every single byte is a token in these encodings.
func bpeCount(piece string, ranks *rankTable) int {
	if len(piece) <= 1 {
		return len(piece)
	}
	if len(piece) <= shortPiece {
		return bpeShort(piece, ranks)
	}
	return bpeLong(piece, ranks)
}

// shortPiece is the longest piece bpeShort takes: it scans all pairs for
// each merge, O(n²), with its state on the stack.
const shortPiece = 64

func bpeShort(piece string, ranks *rankTable) int {
	// Part i is piece[start[i]:start[i+1]]; rank[i] is the rank of parts i
	// and i+1 joined, or noRank.
	var startBuf [shortPiece + 1]uint8
	var rankBuf [shortPiece]uint32
	n := len(piece) // number of parts
	start := startBuf[:n+1]
	for i := range start {
		start[i] = uint8(i)
	}
	rank := rankBuf[:n-1]
	for i := range rank {
		rank[i] = ranks.pairs[uint16(piece[i])<<8|uint16(piece[i+1])]
	}
	for n > 1 {
		best, bi := noRank, -1
		for i, r := range rank[:n-1] {
			if r < best {
				best, bi = r, i
			}
		}
		if bi < 0 {
			break
		}
		// Merge parts bi and bi+1.
		copy(start[bi+1:], start[bi+2:n+1])
		copy(rank[bi:], rank[bi+1:n-1])
		n--
		if bi+1 < n {
			rank[bi] = ranks.rank(piece[start[bi]:start[bi+2]])
		}
		if bi > 0 {
			rank[bi-1] = ranks.rank(piece[start[bi-1]:start[bi+1]])
		}
	}
	return n
}

// bpeLong is bpeShort for long pieces, O(n log n): the parts form a linked
// list and the candidate merges a heap ordered by rank, then position (the
// leftmost of equal ranks first, as the scan does). A heap entry is stale
// once either of its parts has changed; the part's version tells.
func bpeLong(piece string, ranks *rankTable) int {
	n := len(piece)
	type part struct {
		start, end int32 // bytes of the part; end == -1 once merged away
		next, prev int32 // neighbours, -1 at the ends
	}
	parts := make([]part, n)
	for i := range parts {
		parts[i] = part{start: int32(i), end: int32(i + 1), next: int32(i + 1), prev: int32(i - 1)}
	}
	parts[n-1].next = -1
	h := make(mergeHeap, 0, n)
	for i := 0; i+1 < n; i++ {
		if r := ranks.pairs[uint16(piece[i])<<8|uint16(piece[i+1])]; r != noRank {
			h = append(h, merge{rank: r, left: int32(i), end: int32(i + 2)})
		}
	}
	h.init()
	count := n
	for len(h) > 0 {
		m := h.pop()
		l := &parts[m.left]
		// Stale unless the left part is alive and still ends where the
		// right part it was paired with ends... i.e. left part and its
		// right neighbour span exactly [l.start, m.end).
		if l.end < 0 || l.next < 0 || parts[l.next].end != m.end {
			continue
		}
		r := &parts[l.next]
		// Merge r into l.
		l.end = r.end
		l.next = r.next
		if r.next >= 0 {
			parts[r.next].prev = m.left
		}
		r.end = -1
		count--
		if l.next >= 0 {
			e := parts[l.next].end
			if rk := ranks.rank(piece[l.start:e]); rk != noRank {
				h.push(merge{rank: rk, left: m.left, end: e})
			}
		}
		if l.prev >= 0 {
			p := &parts[l.prev]
			if rk := ranks.rank(piece[p.start:l.end]); rk != noRank {
				h.push(merge{rank: rk, left: l.prev, end: l.end})
			}
		}
	}
	return count
}

// A merge joins the part starting at left with its right neighbour, ending
// at end.
type merge struct {
	rank      uint32
	left, end int32
}

// A mergeHeap is a binary min-heap of merges by rank, then position.
type mergeHeap []merge

func (m merge) before(o merge) bool {
	return m.rank < o.rank || m.rank == o.rank && m.left < o.left
}

func (h mergeHeap) init() {
	for i := len(h)/2 - 1; i >= 0; i-- {
		h.down(i)
	}
}

func (h *mergeHeap) push(m merge) {
	*h = append(*h, m)
	q := *h
	for i := len(q) - 1; i > 0; {
		p := (i - 1) / 2
		if !q[i].before(q[p]) {
			break
		}
		q[i], q[p] = q[p], q[i]
		i = p
	}
}

func (h *mergeHeap) pop() merge {
	q := *h
	m := q[0]
	q[0] = q[len(q)-1]
	*h = q[:len(q)-1]
	h.down(0)
	return m
}

func (h mergeHeap) down(i int) {
	for {
		l := 2*i + 1
		if l >= len(h) {
			return
		}
		c := l
		if r := l + 1; r < len(h) && h[r].before(h[l]) {
			c = r
		}
		if !h[c].before(h[i]) {
			return
		}
		h[i], h[c] = h[c], h[i]
		i = c
	}
}

// resetCaches empties the caches (for benchmarks of a cold start).
func (e *encoding) resetCaches() {
	e.pieces.reset()
	for e.hot.Get() != nil {
	}
}

// reset empties the cache.
func (c *pieceCache) reset() {
	for i := range c.shards {
		sh := &c.shards[i]
		sh.Lock()
		sh.slots, sh.arena, sh.n = nil, nil, 0
		sh.Unlock()
	}
}
