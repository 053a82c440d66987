package main

import (
	"bytes"
	"math"
	"sort"
	"strings"
	"unicode/utf8"
)

// plainBM25 is the baseline: Okapi BM25 (k1 1.2, b 0.75) over file content
// only, with a plain analyser: lower-cased runs of letters, digits and
// underscores, English stop words removed, no stemming and no identifier
// splitting. It is kept incrementally by blob so that it sees exactly the
// files the taskctl index sees at each commit.
//
// Documents live in slots; a removed document's slot is marked dead and
// its postings are skipped until dead slots outnumber live ones, when the
// lists are compacted. So moving the index from one commit to another
// costs about the tokens of the files that changed.
type plainBM25 struct {
	terms map[string]uint32 // term → id
	post  [][]plainPosting  // term id → postings, dead slots' included until compact
	df    []int32           // term id → live documents that contain it
	docs  []plainDoc        // by slot
	byRel map[string]int32  // rel → slot of its live document
	live  int
	dead  int
	total int64 // sum of live document lengths

	counts map[uint32]int32 // scratch: one document's term counts
	lower  []byte           // scratch: a lower-cased word
}

type plainDoc struct {
	rel, id string
	len     int32
	terms   []uint32 // distinct terms, for removal
	dead    bool
}

type plainPosting struct {
	doc, tf int32
}

func newPlainBM25() *plainBM25 {
	return &plainBM25{terms: map[string]uint32{}, byRel: map[string]int32{}, counts: map[uint32]int32{}}
}

var plainStop = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a an and are as at be but by for if in into is it no not of on or such that the
their then there these they this to was will with`) {
		m[w] = true
	}
	return m
}()

// plainTokens calls fn with each word of s that is not a stop word,
// lower-cased. The slice fn gets is valid only during the call.
func plainTokens(s []byte, scratch *[]byte, fn func(w []byte)) {
	start := -1
	for i := 0; i <= len(s); i++ {
		word := i < len(s) && (s[i] >= 'a' && s[i] <= 'z' || s[i] >= 'A' && s[i] <= 'Z' || s[i] >= '0' && s[i] <= '9' || s[i] == '_' || s[i] >= 0x80)
		if word {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			w := lowerWord(s[start:i], scratch)
			if !plainStop[string(w)] {
				fn(w)
			}
			start = -1
		}
	}
}

// lowerWord lower-cases w as strings.ToLower does, into *scratch when w is
// ASCII.
func lowerWord(w []byte, scratch *[]byte) []byte {
	b := (*scratch)[:0]
	for _, c := range w {
		if c >= utf8.RuneSelf {
			return []byte(strings.ToLower(string(w)))
		}
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		b = append(b, c)
	}
	*scratch = b
	return b
}

// sync makes the index hold exactly files (read through read).
func (p *plainBM25) sync(files []blob, read func(rel string) ([]byte, error)) {
	want := make(map[string]bool, len(files))
	for _, f := range files {
		want[f.rel] = true
		if s, ok := p.byRel[f.rel]; ok && p.docs[s].id == f.id {
			continue
		}
		p.remove(f.rel)
		if f.size > 10<<20 {
			continue
		}
		data, err := read(f.rel)
		if err != nil || bytes.IndexByte(data, 0) >= 0 {
			continue
		}
		p.add(f.rel, f.id, data)
	}
	for rel := range p.byRel {
		if !want[rel] {
			p.remove(rel)
		}
	}
	if p.dead > p.live && p.dead > 64 {
		p.compact()
	}
}

func (p *plainBM25) add(rel, id string, data []byte) {
	clear(p.counts)
	var n int32
	plainTokens(data, &p.lower, func(w []byte) {
		t, ok := p.terms[string(w)]
		if !ok {
			t = uint32(len(p.post))
			p.terms[string(w)] = t
			p.post = append(p.post, nil)
			p.df = append(p.df, 0)
		}
		p.counts[t]++
		n++
	})
	slot := int32(len(p.docs))
	d := plainDoc{rel: rel, id: id, len: n, terms: make([]uint32, 0, len(p.counts))}
	for t, tf := range p.counts {
		p.post[t] = append(p.post[t], plainPosting{doc: slot, tf: tf})
		p.df[t]++
		d.terms = append(d.terms, t)
	}
	p.docs = append(p.docs, d)
	p.byRel[rel] = slot
	p.live++
	p.total += int64(n)
}

func (p *plainBM25) remove(rel string) {
	s, ok := p.byRel[rel]
	if !ok {
		return
	}
	d := &p.docs[s]
	for _, t := range d.terms {
		p.df[t]--
	}
	p.total -= int64(d.len)
	d.dead, d.terms = true, nil
	delete(p.byRel, rel)
	p.live--
	p.dead++
}

// compact drops dead slots and renumbers the live ones.
func (p *plainBM25) compact() {
	slot := make([]int32, len(p.docs))
	docs := make([]plainDoc, 0, p.live)
	for i, d := range p.docs {
		slot[i] = -1
		if !d.dead {
			slot[i] = int32(len(docs))
			p.byRel[d.rel] = slot[i]
			docs = append(docs, d)
		}
	}
	for t, ps := range p.post {
		kept := ps[:0]
		for _, q := range ps {
			if s := slot[q.doc]; s >= 0 {
				kept = append(kept, plainPosting{doc: s, tf: q.tf})
			}
		}
		p.post[t] = kept
	}
	p.docs, p.dead = docs, 0
}

func (p *plainBM25) search(query string, limit int) []string {
	n := float64(p.live)
	if n == 0 {
		return nil
	}
	avg := float64(p.total) / n
	seen := map[uint32]bool{}
	score := make([]float64, len(p.docs))
	var hit []int32
	plainTokens([]byte(query), &p.lower, func(w []byte) {
		t, ok := p.terms[string(w)]
		if !ok || seen[t] || p.df[t] == 0 {
			return
		}
		seen[t] = true
		df := float64(p.df[t])
		idf := math.Log(1 + (n-df+0.5)/(df+0.5))
		for _, q := range p.post[t] {
			d := &p.docs[q.doc]
			if d.dead {
				continue
			}
			if score[q.doc] == 0 {
				hit = append(hit, q.doc)
			}
			f := float64(q.tf)
			score[q.doc] += idf * f * (1.2 + 1) / (f + 1.2*(1-0.75+0.75*float64(d.len)/avg))
		}
	})
	sort.Slice(hit, func(i, j int) bool {
		a, b := hit[i], hit[j]
		if score[a] != score[b] {
			return score[a] > score[b]
		}
		return p.docs[a].rel < p.docs[b].rel
	})
	rels := make([]string, 0, min(len(hit), max(limit, 0)))
	for _, s := range hit[:min(len(hit), max(limit, 0))] {
		rels = append(rels, p.docs[s].rel)
	}
	return rels
}
