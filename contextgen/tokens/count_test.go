package tokens

import (
	"fmt"
	"hash/maphash"
	"strings"
	"testing"
)

// TestPieceCache counts distinct pieces through a piece cache, twice: every
// count it gives back, fresh or remembered after its shards have grown, is
// byte-pair encoding's.
func TestPieceCache(t *testing.T) {
	ranks := encodings[O200kBase].ranks()
	var c pieceCache
	piece := func(i int) string { return fmt.Sprintf("zq%dxv%d", i*7919, i) }
	for round := range 2 {
		for i := range 40000 {
			p := piece(i)
			if got, want := c.count(p, ranks), bpeCount(p, ranks); got != want {
				t.Fatalf("round %d: count(%q) = %d, want %d", round, p, got, want)
			}
		}
	}
	long := strings.Repeat("qz", maxCachedLength)
	if got, want := c.count(long, ranks), bpeCount(long, ranks); got != want {
		t.Errorf("count of a %d-byte piece = %d, want %d", len(long), got, want)
	}
}

// TestPieceShardBounds fills one shard past its number of pieces and,
// with long pieces, past its bytes: it never holds more than either bound,
// its table stays at most half full, and what it holds is found with its
// count.
func TestPieceShardBounds(t *testing.T) {
	seed := maphash.MakeSeed()
	for _, size := range []int{8, maxCachedLength} {
		var sh pieceShard
		piece := func(i int) string {
			s := fmt.Sprintf("%d.", i)
			return s + strings.Repeat("x", size-len(s))
		}
		for i := range 3 * maxShardPieces {
			p := piece(i)
			h := maphash.String(seed, p)
			tag := uint16(h>>48) | 1
			if _, ok := sh.find(p, h, tag); ok {
				t.Fatalf("size %d: %q found before it was added", size, p)
			}
			sh.add(seed, p, h, tag, i%200)
			if sh.n > maxShardPieces || len(sh.arena) > maxShardBytes || 2*sh.n > len(sh.slots) {
				t.Fatalf("size %d, after %d: %d pieces, %d bytes, %d slots", size, i+1, sh.n, len(sh.arena), len(sh.slots))
			}
			// The piece added, and the one before it unless the shard
			// was just emptied, are there with their counts.
			for _, j := range []int{i, i - 1} {
				if j < 0 || j == i-1 && sh.n == 1 {
					continue
				}
				q := piece(j)
				hq := maphash.String(seed, q)
				if n, ok := sh.find(q, hq, uint16(hq>>48)|1); !ok || n != j%200 {
					t.Fatalf("size %d, after %d: find(%q) = %d, %v; want %d", size, i+1, q, n, ok, j%200)
				}
			}
		}
	}
}
