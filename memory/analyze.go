package memory

import (
	"path"
	"slices"
	"strings"
)

// docTerms is the analysis of one document: its terms, in first-seen order, with their
// frequencies in (content, ident) and the lengths of those fields.
type docTerms struct {
	ids      []uint32    // analyser-local term IDs
	tfs      [][2]uint32 // their frequencies
	firstNew uint32      // local IDs from here on were new with this document
	newNames []string    // their terms
	lens     [2]uint32
}

// definers are the words after which an identifier is being defined in
// common languages; the defined name goes to the ident field as well.
var definers = map[string]bool{
	"func": true, "type": true, "def": true, "class": true, "struct": true, "interface": true,
	"function": true, "fn": true, "enum": true, "trait": true, "impl": true, "module": true,
	"const": true, "var": true, "let": true, "resource": true, "variable": true, "message": true,
	"service": true, "macro": true, "defn": true, "object": true, "record": true, "protocol": true,
}

// wordInfo is the cached analysis of one word: the local IDs of its part
// terms and of its whole form (-1 if it has none).
type wordInfo struct {
	parts   []uint32
	whole   int32
	key     string // the word itself (a copy, not a slice of a document)
	definer bool   // the word introduces a name ("func", "class", ...)
}

// maxWordCache bounds the per-analyser word cache.
const maxWordCache = 1 << 20

// localID returns the analyser-local ID of term.
func (a *analyzer) localID(term string) uint32 {
	id, ok := a.ids[term]
	if !ok {
		id = uint32(len(a.names))
		a.ids[term] = id
		a.names = append(a.names, term)
		a.counts = append(a.counts, [2]uint32{})
	}
	return id
}

func (a *analyzer) word(w string) *wordInfo {
	// A small direct-mapped cache in front of the word map: the words of
	// code repeat a lot, and it stays in the CPU's caches where the big map
	// does not.
	if a.front == nil {
		a.front = new([frontSize]*wordInfo)
	}
	h := uint32(2166136261)
	for i := 0; i < len(w); i++ {
		h = (h ^ uint32(w[i])) * 16777619
	}
	slot := &a.front[h&(frontSize-1)]
	if wi := *slot; wi != nil && wi.key == w {
		return wi
	}
	if wi, ok := a.words1[w]; ok {
		*slot = wi
		return wi
	}
	wi := &wordInfo{whole: -1, key: strings.Clone(w), definer: definers[w]}
	a.identifier(w, func(term string, whole bool) {
		if whole {
			wi.whole = int32(a.localID(term))
		} else {
			wi.parts = append(wi.parts, a.localID(term))
		}
	})
	if len(a.words1) < maxWordCache {
		a.words1[wi.key] = wi
	}
	*slot = wi
	return wi
}

// frontSize is the number of slots of the analyser's front word cache.
const frontSize = 1 << 12

// document analyses file content into the content field (every word part,
// stemmed) and the ident field (every compound identifier whole, plus all
// the terms of names being defined).
func (a *analyzer) document(content string) docTerms {
	var dt docTerms
	if a.ids == nil {
		a.ids = make(map[string]uint32, 1<<16)
		a.words1 = make(map[string]*wordInfo, 1<<17)
	}
	touched := a.touched[:0]
	bump := func(id uint32, field int) {
		c := &a.counts[id]
		if c[0] == 0 && c[1] == 0 {
			touched = append(touched, id)
		}
		c[field]++
		dt.lens[field]++
	}
	defining := false
	a.words(content, func(w string) {
		def := defining
		wi := a.word(w)
		defining = wi.definer
		for _, id := range wi.parts {
			bump(id, fContent)
			if def {
				bump(id, fIdent)
			}
		}
		if wi.whole >= 0 {
			bump(uint32(wi.whole), fIdent)
		}
	})
	dt.ids = slices.Clone(touched)
	dt.tfs = make([][2]uint32, len(touched))
	for i, id := range touched {
		dt.tfs[i] = a.counts[id]
		a.counts[id] = [2]uint32{}
	}
	a.touched = touched
	dt.firstNew = a.sent
	dt.newNames = a.names[a.sent:len(a.names):len(a.names)]
	a.sent = uint32(len(a.names))
	return dt
}

// pathTerms analyses a slash path into the path field (directory
// components) and the name field (the base name without its extension).
func (a *analyzer) pathTerms(rel string, emit func(term string, field int)) {
	dir, base := path.Split(rel)
	a.words(dir, func(w string) {
		a.identifier(w, func(term string, _ bool) { emit(term, fPath) })
	})
	if ext := path.Ext(base); ext != "" && ext != base {
		base = strings.TrimSuffix(base, ext)
	}
	a.words(base, func(w string) {
		a.identifier(w, func(term string, _ bool) { emit(term, fName) })
	})
}
