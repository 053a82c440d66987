package main

import (
	"bytes"
	"math"
	"sort"
	"strings"
)

// plainBM25 is the baseline: Okapi BM25 (k1 1.2, b 0.75) over file content
// only, with a plain analyser: lower-cased runs of letters, digits and
// underscores, English stop words removed, no stemming and no identifier
// splitting. It is kept incrementally by blob so that it sees exactly the
// files the taskctl index sees at each commit.
type plainBM25 struct {
	docs  map[string]*plainDoc      // rel → document
	post  map[string]map[string]int // term → rel → tf
	total int64                     // sum of document lengths
}

type plainDoc struct {
	id  string
	len int
	tf  map[string]int
}

func newPlainBM25() *plainBM25 {
	return &plainBM25{docs: map[string]*plainDoc{}, post: map[string]map[string]int{}}
}

var plainStop = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a an and are as at be but by for if in into is it no not of on or such that the
their then there these they this to was will with`) {
		m[w] = true
	}
	return m
}()

func plainTokens(s string, fn func(string)) {
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
			w := strings.ToLower(s[start:i])
			if !plainStop[w] {
				fn(w)
			}
			start = -1
		}
	}
}

// sync makes the index hold exactly files (read through read).
func (p *plainBM25) sync(files []blob, read func(rel string) ([]byte, error)) {
	want := make(map[string]bool, len(files))
	for _, f := range files {
		want[f.rel] = true
		if d, ok := p.docs[f.rel]; ok && d.id == f.id {
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
		d := &plainDoc{id: f.id, tf: map[string]int{}}
		plainTokens(string(data), func(w string) { d.tf[w]++; d.len++ })
		p.docs[f.rel] = d
		p.total += int64(d.len)
		for t, n := range d.tf {
			m := p.post[t]
			if m == nil {
				m = map[string]int{}
				p.post[t] = m
			}
			m[f.rel] = n
		}
	}
	for rel := range p.docs {
		if !want[rel] {
			p.remove(rel)
		}
	}
}

func (p *plainBM25) remove(rel string) {
	d, ok := p.docs[rel]
	if !ok {
		return
	}
	for t := range d.tf {
		delete(p.post[t], rel)
		if len(p.post[t]) == 0 {
			delete(p.post, t)
		}
	}
	p.total -= int64(d.len)
	delete(p.docs, rel)
}

func (p *plainBM25) search(query string, limit int) []string {
	n := float64(len(p.docs))
	if n == 0 {
		return nil
	}
	avg := float64(p.total) / n
	seen := map[string]bool{}
	score := map[string]float64{}
	plainTokens(query, func(t string) {
		if seen[t] {
			return
		}
		seen[t] = true
		post := p.post[t]
		df := float64(len(post))
		if df == 0 {
			return
		}
		idf := math.Log(1 + (n-df+0.5)/(df+0.5))
		for rel, tf := range post {
			dl := float64(p.docs[rel].len)
			f := float64(tf)
			score[rel] += idf * f * (1.2 + 1) / (f + 1.2*(1-0.75+0.75*dl/avg))
		}
	})
	rels := make([]string, 0, len(score))
	for r := range score {
		rels = append(rels, r)
	}
	sort.Slice(rels, func(i, j int) bool {
		if score[rels[i]] != score[rels[j]] {
			return score[rels[i]] > score[rels[j]]
		}
		return rels[i] < rels[j]
	})
	if len(rels) > limit {
		rels = rels[:limit]
	}
	return rels
}
