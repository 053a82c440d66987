package secrets

import (
	"math/rand"
	"slices"
	"testing"
)

// TestRunMatchesOneWalk checks that the side-by-side walks of run report
// exactly what one walk over the whole data does, in the same order, on
// data of every length that is dense with keywords, parts of keywords and
// keywords cut by the walks' boundaries.
func TestRunMatchesOneWalk(t *testing.T) {
	m := loadMatcher()
	r := rand.New(rand.NewSource(1))
	for n := 0; n < 20000; n++ {
		var data []byte
		for size := r.Intn(2000); len(data) < size; {
			if r.Intn(5) > 0 {
				data = append(data, "aAsS_ -x\n"[r.Intn(9)])
				continue
			}
			kw := m.keywords[r.Intn(len(m.keywords))].text
			k := r.Intn(len(kw) + 1)
			data = append(data, kw[:k]...)
			if r.Intn(2) == 0 {
				data = append(data, kw[k:]...)
			}
		}
		var got, want []int
		m.run(data, func(kw, end int) { got = append(got, kw, end) })
		m.walk(data, 0, 0, func(kw, end int) { want = append(want, kw, end) })
		if !slices.Equal(got, want) {
			t.Fatalf("%d bytes %q:\nrun reported  %v (keyword, end pairs)\none walk gave %v", len(data), data, got, want)
		}
	}
}
