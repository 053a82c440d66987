package tokens

import (
	"container/heap"
	"strings"
	"sync"
	"unicode/utf8"
	"unsafe"

	"github.com/tiktoken-go/tokenizer/codec"
)

// An encoding is everything the fast counter needs for one encoding: the
// rank of every token, the hand-written split (split.go) and a process-wide
// cache of the counts of pieces that are not a single token.
type encoding struct {
	ranks  func() *rankTable
	next   func(string, int) int
	pieces pieceCache
}

var encodings = map[string]*encoding{
	O200kBase:  {ranks: sync.OnceValue(func() *rankTable { return buildRanks(codec.NewO200kBase()) }), next: nextO200k},
	Cl100kBase: {ranks: sync.OnceValue(func() *rankTable { return buildRanks(codec.NewCl100kBase()) }), next: nextCl100k},
}

// A rankTable maps the bytes of every token to its rank. For the tiktoken
// encodings a token's rank is its id, and special tokens are left out
// (counts are those of encode_ordinary).
type rankTable struct {
	m     map[string]uint32
	bytes int // total length of the tokens' bytes, all in one allocation
}

// buildRanks derives the rank table from the library's vocabulary by
// decoding every id with a codec that returns the bytes as they are (the
// default error mode), so no vocabulary data is copied into this package.
// The tokens' bytes share one backing array.
func buildRanks(c *codec.Codec) *rankTable {
	type tok struct {
		off, n int
		id     uint32
	}
	var (
		buf    []byte
		toks   []tok
		misses int
	)
	// Ids are dense up to the last ordinary token; the special tokens come
	// from the codec's own table and Decode does not know them. Stop after
	// a long run of unknown ids.
	for id := uint32(0); misses < 1024; id++ {
		s, err := c.Decode([]uint{uint(id)})
		if err != nil || s == "" {
			misses++
			continue
		}
		misses = 0
		toks = append(toks, tok{len(buf), len(s), id})
		buf = append(buf, s...)
	}
	all := unsafe.String(unsafe.SliceData(buf), len(buf)) // buf is never written again
	m := make(map[string]uint32, len(toks))
	for _, t := range toks {
		k := all[t.off : t.off+t.n]
		if _, dup := m[k]; !dup {
			m[k] = t.id
		}
	}
	return &rankTable{m: m, bytes: len(buf)}
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
	ranks := e.ranks().m
	next := e.next
	total := 0
	for i := 0; i < len(s); {
		j := next(s, i)
		p := s[i:j]
		i = j
		if _, ok := ranks[p]; ok {
			total++
			continue
		}
		total += e.pieces.count(p, ranks)
	}
	return total
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
// counting different files apart, and each shard is emptied when it grows
// past maxShardPieces, so a huge input cannot make it grow without bound.
type pieceCache struct {
	shards [64]pieceShard
}

type pieceShard struct {
	sync.RWMutex
	m map[string]int32
	_ [32]byte // keep shards on separate cache lines
}

const (
	maxShardPieces  = 1 << 14 // 64 shards: about a million pieces at most
	maxCachedLength = 256     // longer pieces are rare and not cached
)

func (c *pieceCache) count(p string, ranks map[string]uint32) int {
	if len(p) > maxCachedLength {
		return bpeCount(p, ranks)
	}
	h := uint(len(p))*0x9e3779b1 ^ uint(p[0])*0x85ebca6b ^ uint(p[len(p)-1])*0xc2b2ae35 ^ uint(p[len(p)/2])*0x27d4eb2f
	sh := &c.shards[(h>>7)%uint(len(c.shards))]
	sh.RLock()
	n, ok := sh.m[p]
	sh.RUnlock()
	if ok {
		return int(n)
	}
	n = int32(bpeCount(p, ranks))
	sh.Lock()
	if sh.m == nil || len(sh.m) >= maxShardPieces {
		sh.m = make(map[string]int32)
	}
	sh.m[strings.Clone(p)] = n
	sh.Unlock()
	return int(n)
}

const noRank = ^uint32(0)

// bpeCount is the number of tokens byte-pair encoding makes of piece: start
// from single bytes and merge, again and again, the leftmost adjacent pair
// whose concatenation has the lowest rank, until no adjacent pair is a
// token. Every single byte is a token in these encodings.
func bpeCount(piece string, ranks map[string]uint32) int {
	if _, ok := ranks[piece]; ok {
		return 1
	}
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

func bpeShort(piece string, ranks map[string]uint32) int {
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
		rank[i] = lookup(ranks, piece[i:i+2])
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
			rank[bi] = lookup(ranks, piece[start[bi]:start[bi+2]])
		}
		if bi > 0 {
			rank[bi-1] = lookup(ranks, piece[start[bi-1]:start[bi+1]])
		}
	}
	return n
}

func lookup(ranks map[string]uint32, s string) uint32 {
	if r, ok := ranks[s]; ok {
		return r
	}
	return noRank
}

// bpeLong is bpeShort for long pieces, O(n log n): the parts form a linked
// list and the candidate merges a heap ordered by rank, then position (the
// leftmost of equal ranks first, as the scan does). A heap entry is stale
// once either of its parts has changed; the part's version tells.
func bpeLong(piece string, ranks map[string]uint32) int {
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
		if r := lookup(ranks, piece[i:i+2]); r != noRank {
			h = append(h, merge{rank: r, left: int32(i), end: int32(i + 2)})
		}
	}
	heap.Init(&h)
	count := n
	for len(h) > 0 {
		m := heap.Pop(&h).(merge)
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
			if rk := lookup(ranks, piece[l.start:e]); rk != noRank {
				heap.Push(&h, merge{rank: rk, left: m.left, end: e})
			}
		}
		if l.prev >= 0 {
			p := &parts[l.prev]
			if rk := lookup(ranks, piece[p.start:l.end]); rk != noRank {
				heap.Push(&h, merge{rank: rk, left: l.prev, end: l.end})
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

type mergeHeap []merge

func (h mergeHeap) Len() int { return len(h) }
func (h mergeHeap) Less(i, j int) bool {
	return h[i].rank < h[j].rank || h[i].rank == h[j].rank && h[i].left < h[j].left
}
func (h mergeHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *mergeHeap) Push(x any)   { *h = append(*h, x.(merge)) }
func (h *mergeHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// reset empties the cache (for benchmarks of a cold cache).
func (c *pieceCache) reset() {
	for i := range c.shards {
		sh := &c.shards[i]
		sh.Lock()
		sh.m = nil
		sh.Unlock()
	}
}
