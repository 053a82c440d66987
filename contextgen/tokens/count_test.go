package tokens

import (
	"fmt"
	"strings"
	"testing"
)

// TestPieceCache fills one piece cache past its bounds: every count it
// gives back is byte-pair encoding's, before and after its shards grow and
// are emptied, and no shard holds more than its limits.
func TestPieceCache(t *testing.T) {
	ranks := encodings[O200kBase].ranks()
	var c pieceCache
	piece := func(i int) string { return fmt.Sprintf("zq%dxv%d", i*7919, i) }
	const n = 64*maxShardPieces + 5000
	for round := range 2 {
		for i := 0; i < n; i += 1 + round*3 {
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
	held := 0
	for i := range c.shards {
		sh := &c.shards[i]
		if sh.n > maxShardPieces || len(sh.arena) > maxShardBytes || 2*sh.n > len(sh.slots) {
			t.Errorf("shard %d: %d pieces, %d bytes, %d slots", i, sh.n, len(sh.arena), len(sh.slots))
		}
		held += sh.n
	}
	if held == 0 || held > 64*maxShardPieces {
		t.Errorf("cache holds %d pieces", held)
	}
}
