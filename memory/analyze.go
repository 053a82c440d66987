package memory

import (
	"path"
	"strings"
	"unicode"
	"unicode/utf8"
)

// docTerms is the analysis of one document: its terms, in first-seen order, with their
// frequencies in (content, ident) and the lengths of those fields. ids and
// tfs are the analyser's scratch space, valid until its next document.
type docTerms struct {
	ids  []uint32    // term IDs (index a.table.names)
	tfs  [][2]uint32 // their frequencies
	lens [2]uint32
}

// definers are the words after which an identifier is being defined in
// common languages; the defined name goes to the ident field as well.
var definers = map[string]bool{
	"func": true, "type": true, "def": true, "class": true, "struct": true, "interface": true,
	"function": true, "fn": true, "enum": true, "trait": true, "impl": true, "module": true,
	"const": true, "var": true, "let": true, "resource": true, "variable": true, "message": true,
	"service": true, "macro": true, "defn": true, "object": true, "record": true, "protocol": true,
}

// wordRec is the cached analysis of one word: the local IDs of its part
// terms (parts[po:po+np] of the analyser's part arena) and of its whole
// form (-1 if it has none). The word itself is keys[ko:ko+kn]. It holds no
// pointers, so a table of them costs the garbage collector nothing.
type wordRec struct {
	ko, po  uint32
	kn, np  uint16
	whole   int32
	definer bool // the word introduces a name ("func", "class", ...)
}

// wordSlot is one slot of the open-addressing word table: the word's hash
// and its record index plus one (0 for an empty slot).
type wordSlot struct {
	h, rec uint32
}

// maxWordCache bounds the per-analyser word cache.
const maxWordCache = 1 << 20

// wordHash is the hash the tokeniser computes over a word's bytes as it
// scans them (FNV-1a).
const (
	hashInit  = 2166136261
	hashPrime = 16777619
)

// emptyRec is the record of a word with no terms.
var emptyRec = wordRec{whole: -1}

// lookup returns the record of word w, whose hash is h, and its part IDs,
// analysing the word on first sight.
func (a *analyzer) lookup(w []byte, h uint32) (*wordRec, []uint32) {
	if len(w) > 4*maxTermLen {
		return &emptyRec, nil // identifier gives no terms for it
	}
	mask := uint32(len(a.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		s := a.slots[i]
		if s.rec == 0 {
			break
		}
		if s.h == h {
			r := &a.recs[s.rec-1]
			if int(r.kn) == len(w) && string(a.keys[r.ko:r.ko+uint32(r.kn)]) == string(w) {
				return r, a.parts32[r.po : r.po+uint32(r.np)]
			}
		}
	}
	ws := string(w)
	cache := len(a.recs) < maxWordCache
	r := wordRec{whole: -1, definer: definers[ws], po: uint32(len(a.parts32))}
	parts := a.spareParts[:0]
	a.identifierIDs(ws, func(id uint32, whole bool) {
		if int(id) >= len(a.counts) {
			a.counts = append(a.counts, make([][2]uint32, int(id)+1-len(a.counts))...)
		}
		if whole {
			r.whole = int32(id)
		} else {
			parts = append(parts, id)
		}
	})
	if !cache {
		a.spare, a.spareParts = r, parts
		return &a.spare, parts
	}
	a.parts32 = append(a.parts32, parts...)
	a.spareParts = parts
	r.np = uint16(len(parts))
	r.ko, r.kn = uint32(len(a.keys)), uint16(len(w))
	a.keys = append(a.keys, w...)
	a.recs = append(a.recs, r)
	if 2*len(a.recs) > len(a.slots) {
		a.growSlots()
	} else {
		a.insertSlot(h, uint32(len(a.recs)))
	}
	return &a.recs[len(a.recs)-1], a.parts32[r.po:]
}

func (a *analyzer) insertSlot(h, rec uint32) {
	mask := uint32(len(a.slots) - 1)
	i := h & mask
	for a.slots[i].rec != 0 {
		i = (i + 1) & mask
	}
	a.slots[i] = wordSlot{h, rec}
}

func (a *analyzer) growSlots() {
	old := a.slots
	a.slots = make([]wordSlot, 2*len(old))
	for _, s := range old {
		if s.rec != 0 {
			a.insertSlot(s.h, s.rec)
		}
	}
}

// wordByte is isWordByte as a table.
var wordByte = func() (t [256]bool) {
	for c := range 256 {
		t[c] = isWordByte(byte(c))
	}
	return t
}()

// document analyses file content into the content field (every word part,
// stemmed) and the ident field (every compound identifier whole, plus all
// the terms of names being defined). It splits words exactly as words
// does, hashing them as it scans.
func (a *analyzer) document(text []byte) docTerms {
	var dt docTerms
	if a.slots == nil {
		// A big job (a cold build) meets tens of thousands of words:
		// size the tables for them; a refresh of a few files need not
		// pay for clearing them.
		n := 1 << 10
		if a.big {
			n = 1 << 16
		}
		a.slots = make([]wordSlot, n/2)
	}
	touched := a.touched[:0]
	defining := false
	i, n := 0, len(text)
	for i < n {
		// skip separators
		for i < n {
			c := text[i]
			if wordByte[c] {
				break
			}
			if c >= utf8.RuneSelf {
				r, size := utf8.DecodeRune(text[i:])
				if r != utf8.RuneError && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
					break
				}
				i += size
				continue
			}
			i++
		}
		start := i
		h := uint32(hashInit)
		for i < n {
			c := text[i]
			if wordByte[c] {
				h = (h ^ uint32(c)) * hashPrime
				i++
				continue
			}
			if c == '-' && i+1 < n && wordByte[text[i+1]] && i > start {
				h = (h ^ uint32(c)) * hashPrime
				i++
				continue
			}
			if c >= utf8.RuneSelf {
				r, size := utf8.DecodeRune(text[i:])
				if r != utf8.RuneError && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
					for _, b := range text[i : i+size] {
						h = (h ^ uint32(b)) * hashPrime
					}
					i += size
					continue
				}
			}
			break
		}
		if i == start {
			continue
		}
		wr, parts := a.lookup(text[start:i], h)
		def := defining
		defining = wr.definer
		counts := a.counts
		for _, id := range parts {
			c := &counts[id]
			if c[0] == 0 && c[1] == 0 {
				touched = append(touched, id)
			}
			c[fContent]++
			dt.lens[fContent]++
			if def {
				c[fIdent]++
				dt.lens[fIdent]++
			}
		}
		if wr.whole >= 0 {
			c := &counts[wr.whole]
			if c[0] == 0 && c[1] == 0 {
				touched = append(touched, uint32(wr.whole))
			}
			c[fIdent]++
			dt.lens[fIdent]++
		}
	}
	dt.ids = touched
	tfs := a.tfs[:0]
	for _, id := range touched {
		tfs = append(tfs, a.counts[id])
		a.counts[id] = [2]uint32{}
	}
	a.touched, a.tfs = touched, tfs
	dt.tfs = tfs
	return dt
}

// post analyses text as document does and adds its postings, as document
// doc (numbered per analyser), to the analyser's posting lists.
func (a *analyzer) post(text []byte, doc uint32) [2]uint32 {
	dt := a.document(text)
	if n := len(a.counts); n > len(a.lists) {
		a.lists = append(a.lists, make([]listBuilder, n-len(a.lists))...)
	}
	for i, id := range dt.ids {
		a.lists[id].add(doc, dt.tfs[i][0], dt.tfs[i][1])
	}
	return dt.lens
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
