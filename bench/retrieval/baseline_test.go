package main

import (
	"bytes"
	"math"
	"slices"
	"strings"
	"testing"
)

// refBM25 is the baseline as first written, a map of maps: plainBM25 must
// rank exactly as it does.
type refBM25 struct {
	docs  map[string]*refDoc
	post  map[string]map[string]int
	total int64
}

type refDoc struct {
	id  string
	len int
	tf  map[string]int
}

// refTokens is the baseline's first tokenizer.
func refTokens(s string, fn func(string)) {
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
			if w := strings.ToLower(s[start:i]); !plainStop[w] {
				fn(w)
			}
			start = -1
		}
	}
}

func (p *refBM25) sync(files []blob, read func(string) ([]byte, error)) {
	want := map[string]bool{}
	for _, f := range files {
		want[f.rel] = true
		if d, ok := p.docs[f.rel]; ok && d.id == f.id {
			continue
		}
		p.remove(f.rel)
		data, err := read(f.rel)
		if err != nil || bytes.IndexByte(data, 0) >= 0 {
			continue
		}
		d := &refDoc{id: f.id, tf: map[string]int{}}
		refTokens(string(data), func(w string) { d.tf[w]++; d.len++ })
		p.docs[f.rel] = d
		p.total += int64(d.len)
		for t, n := range d.tf {
			if p.post[t] == nil {
				p.post[t] = map[string]int{}
			}
			p.post[t][f.rel] = n
		}
	}
	for rel := range p.docs {
		if !want[rel] {
			p.remove(rel)
		}
	}
}

func (p *refBM25) remove(rel string) {
	d, ok := p.docs[rel]
	if !ok {
		return
	}
	for t := range d.tf {
		delete(p.post[t], rel)
	}
	p.total -= int64(d.len)
	delete(p.docs, rel)
}

func (p *refBM25) search(query string) []string {
	n := float64(len(p.docs))
	avg := float64(p.total) / n
	seen := map[string]bool{}
	score := map[string]float64{}
	refTokens(query, func(t string) {
		if seen[t] || len(p.post[t]) == 0 {
			return
		}
		seen[t] = true
		df := float64(len(p.post[t]))
		idf := math.Log(1 + (n-df+0.5)/(df+0.5))
		for rel, tf := range p.post[t] {
			f, dl := float64(tf), float64(p.docs[rel].len)
			score[rel] += idf * f * (1.2 + 1) / (f + 1.2*(1-0.75+0.75*dl/avg))
		}
	})
	var rels []string
	for r := range score {
		rels = append(rels, r)
	}
	slices.SortFunc(rels, func(a, b string) int {
		if score[a] != score[b] {
			if score[a] > score[b] {
				return -1
			}
			return 1
		}
		return strings.Compare(a, b)
	})
	return rels
}

// TestPlainBM25MatchesReference moves both through twenty trees, files
// added, changed and removed, with enough removals to compact, and
// compares every ranking.
func TestPlainBM25MatchesReference(t *testing.T) {
	words := strings.Fields("Alpha beta GAMMA delta the of Érable éTÉ x_1 foo_bar 42 widget Widget spin")
	seed := uint32(7)
	rnd := func(n int) int {
		seed = seed*1664525 + 1013904223
		return int(seed>>8) % n
	}
	text := func() string {
		var b strings.Builder
		for range 1 + rnd(30) {
			b.WriteString(words[rnd(len(words))])
			b.WriteString([]string{" ", "\n", ".", "(", "-"}[rnd(5)])
		}
		return b.String()
	}
	content := map[string]string{}
	p, ref := newPlainBM25(), &refBM25{docs: map[string]*refDoc{}, post: map[string]map[string]int{}}
	for step := range 20 {
		for range 40 {
			rel := "f" + string(rune('a'+rnd(26))) + string(rune('a'+rnd(8)))
			if rnd(4) == 0 {
				delete(content, rel)
			} else {
				content[rel] = text()
			}
		}
		var files []blob
		for rel := range content {
			id := rel + "@" + content[rel]
			files = append(files, blob{rel: rel, id: id, size: int64(len(content[rel]))})
		}
		read := func(rel string) ([]byte, error) { return []byte(content[rel]), nil }
		p.sync(files, read)
		ref.sync(files, read)
		for range 5 {
			q := text()
			got, want := p.search(q, 1<<20), ref.search(q)
			if !slices.Equal(got, want) {
				t.Fatalf("step %d, query %q:\n got %v\nwant %v", step, q, got, want)
			}
		}
	}
	if len(p.docs) > 2*p.live+64 {
		t.Errorf("%d slots for %d live documents: dead slots are never compacted", len(p.docs), p.live)
	}
}
