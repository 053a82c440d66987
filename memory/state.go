package memory

import "sync"

// state is one immutable loaded index.
type state struct {
	docs   []docInfo
	text   dict
	path   dict
	live   int                // documents that are indexed (not skipped or deleted)
	dead   []bool             // skipped or deleted documents; their stale postings are ignored
	norm   [][nFields]float32 // BM25 length normalisers per document and field
	bytes  int64
	size   int64  // file size
	filter uint32 // the filter its documents were analysed with (filterSum)

	altOnce sync.Once
	alts    map[string][]partner
	modOnce sync.Once
	mods    map[string][]uint32 // live documents by the base of their moduleStem
	relOnce sync.Once
	byRel   map[string]uint32 // live documents by path (docsByRel)
}

// BM25F parameters: per-field weight and length normalisation, and the
// term-frequency saturation k1. They were chosen on commits 101-200 of two
// repositories (bench/retrieval) and reported on commits 1-100; k1 is
// higher than the usual 1.2 because the weighted field frequencies of
// BM25F add up before saturation.
var (
	fieldWeight = [nFields]float64{fContent: 1.0, fIdent: 2.0, fPath: 2.0, fName: 3.0}
	fieldB      = [nFields]float64{fContent: 0.75, fIdent: 0.5, fPath: 0.3, fName: 0.3}
)

const k1 = 3.0

func newState(docs []docInfo, text, path dict, size int64) *state {
	st := &state{docs: docs, text: text, path: path, size: size}
	var sum [nFields]float64
	st.dead = make([]bool, len(docs))
	for i, d := range docs {
		if d.flags != 0 {
			st.dead[i] = true
			continue
		}
		st.live++
		st.bytes += d.size
		for f, l := range d.lens {
			sum[f] += float64(l)
		}
	}
	var avgs [nFields]float64
	for f := range nFields {
		avgs[f] = sum[f] / float64(max(st.live, 1))
	}
	st.norm = make([][nFields]float32, len(docs))
	for i, d := range docs {
		for f := range nFields {
			avg := avgs[f]
			n := 1.0
			if avg > 0 {
				n = 1 - fieldB[f] + fieldB[f]*float64(d.lens[f])/avg
			}
			st.norm[i][f] = float32(fieldWeight[f] / n)
		}
	}
	return st
}
