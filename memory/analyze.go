package memory

import (
	"encoding/binary"
	"path"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
	"unsafe"
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

// The word table caches the analysis of every word an analyser met. Its
// slots (open addressing) hold a word's hash and the offset, plus one, of
// its entry in the word arena, where the analysis and the word itself lie
// together, so that a lookup touches one slot and mostly one cache line of
// the arena. An entry is, in uint32s:
//
//	whole term ID + 1 (0: the word has no whole form)
//	word length | part count << 8 | 1 << 16 if the word introduces a name ("func", "class", ...)
//	the part term IDs
//	the word's bytes, little-endian, the last uint32 zero-padded
//
// Neither holds pointers, so they cost the garbage collector nothing.
type wordSlot struct {
	h, off uint32
}

// maxWordCache bounds the per-analyser word cache.
const maxWordCache = 1 << 20

// wordHash is the hash the tokeniser computes over a word's bytes as it
// scans them (FNV-1a).
const (
	hashInit  = 2166136261
	hashPrime = 16777619
)

// lookup returns the analysis of word w, whose hash is h: the ID of its
// whole form (-1 if none), whether it introduces a name, and its part IDs
// (valid until the next lookup). It analyses the word on first sight.
func (a *analyzer) lookup(w []byte, h uint32) (whole int32, definer bool, parts []uint32) {
	if len(w) > 4*maxTermLen {
		return -1, false, nil // identifier gives no terms for it
	}
	mask := uint32(len(a.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		s := a.slots[i]
		if s.off == 0 {
			break
		}
		if s.h != h {
			continue
		}
		e := a.arena[s.off-1:]
		meta := e[1]
		kn, np := int(meta&0xff), int(meta>>8&0xff)
		if kn == len(w) && keyEqual(e[2+np:], w) {
			return int32(e[0]) - 1, meta&(1<<16) != 0, e[2 : 2+np]
		}
	}
	// w lies in the document, which stays unchanged while it is
	// analysed; nothing keeps ws beyond this call (the term table copies
	// what it keeps).
	ws := unsafe.String(unsafe.SliceData(w), len(w))
	whole = -1
	definer = len(w) >= 2 && len(w) <= 9 && w[0] >= 'a' && w[0] <= 'z' && definers[ws]
	parts = a.spareParts[:0]
	a.identifierIDs(ws, func(id uint32, isWhole bool) {
		if int(id) >= len(a.counts) {
			a.counts = append(a.counts, make([][2]uint32, int(id)+1-len(a.counts))...)
		}
		if isWhole {
			whole = int32(id)
		} else {
			parts = append(parts, id)
		}
	})
	a.spareParts = parts
	if a.nwords >= maxWordCache {
		return whole, definer, parts
	}
	off := uint32(len(a.arena))
	meta := uint32(len(w)) | uint32(len(parts))<<8
	if definer {
		meta |= 1 << 16
	}
	a.arena = append(a.arena, uint32(whole+1), meta)
	a.arena = append(a.arena, parts...)
	for k := 0; k < len(w); k += 4 {
		var v uint32
		for j := min(k+4, len(w)) - 1; j >= k; j-- {
			v = v<<8 | uint32(w[j])
		}
		a.arena = append(a.arena, v)
	}
	a.nwords++
	if 2*a.nwords > len(a.slots) {
		a.growSlots()
	}
	a.insertSlot(h, off+1)
	return whole, definer, a.arena[off+2 : off+2+uint32(len(parts))]
}

// keyEqual reports whether the packed word k (as the arena holds it)
// is w.
func keyEqual(k []uint32, w []byte) bool {
	i := 0
	for ; i+4 <= len(w); i += 4 {
		if k[i/4] != binary.LittleEndian.Uint32(w[i:]) {
			return false
		}
	}
	if i < len(w) {
		var v uint32
		for j := len(w) - 1; j >= i; j-- {
			v = v<<8 | uint32(w[j])
		}
		return k[i/4] == v
	}
	return true
}

func (a *analyzer) insertSlot(h, off uint32) {
	mask := uint32(len(a.slots) - 1)
	i := h & mask
	for a.slots[i].off != 0 {
		i = (i + 1) & mask
	}
	a.slots[i] = wordSlot{h, off}
}

func (a *analyzer) growSlots() {
	old := a.slots
	a.slots = make([]wordSlot, 2*len(old))
	for _, s := range old {
		if s.off != 0 {
			a.insertSlot(s.h, s.off)
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

// nextWord finds the first word of text at or after i, as words splits
// them, and returns its bounds and hash (start == end: none before the
// end). It is a function of its own so that its loops keep their few
// variables in registers, which they did not inside document.
func nextWord(text []byte, i int) (start, end int, h uint32) {
	for i < len(text) {
		c := text[i]
		if wordByte[c] {
			break
		}
		if c < utf8.RuneSelf {
			i++
			continue
		}
		r, size := utf8.DecodeRune(text[i:])
		if r != utf8.RuneError && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			break
		}
		i += size
	}
	start = i
	h = hashInit
	for i < len(text) {
		for i < len(text) && wordByte[text[i]] {
			h = (h ^ uint32(text[i])) * hashPrime
			i++
		}
		if i >= len(text) {
			break
		}
		c := text[i]
		if c == '-' {
			if i > start && i+1 < len(text) && wordByte[text[i+1]] {
				h = (h ^ uint32(c)) * hashPrime
				i++
				continue
			}
			break
		}
		if c < utf8.RuneSelf {
			break
		}
		r, size := utf8.DecodeRune(text[i:])
		if r == utf8.RuneError || !(unicode.IsLetter(r) || unicode.IsDigit(r)) {
			break
		}
		for _, b := range text[i : i+size] {
			h = (h ^ uint32(b)) * hashPrime
		}
		i += size
	}
	return start, i, h
}

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
	for i := 0; i < len(text); {
		start, end, h := nextWord(text, i)
		i = end
		if end == start {
			continue
		}
		if end-start == 1 && text[start] < utf8.RuneSelf {
			// a single ASCII letter, digit or '_': no terms, and it
			// introduces no name (what lookup would say, for the
			// commonest words of code)
			defining = false
			continue
		}
		whole, definer, parts := a.lookup(text[start:end], h)
		def := defining
		defining = definer
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
		if whole >= 0 {
			c := &counts[whole]
			if c[0] == 0 && c[1] == 0 {
				touched = append(touched, uint32(whole))
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
	a.addPostings(dt, len(a.counts), doc)
	return dt.lens
}

// addPostings adds document doc's postings, whose term IDs are below n.
func (a *analyzer) addPostings(dt docTerms, n int, doc uint32) {
	if n > len(a.lists) {
		a.lists = append(a.lists, make([]listBuilder, n-len(a.lists))...)
	}
	for i, id := range dt.ids {
		a.lists[id].add(doc, dt.tfs[i][0], dt.tfs[i][1])
	}
}

// savedTerms is the analysis of a document kept for other files with the
// same content (vendored copies, licences): its terms, their frequencies,
// the field lengths, and one more than the highest term ID.
type savedTerms struct {
	dt docTerms
	n  int
}

// postSaving is post that also returns the document's analysis.
func (a *analyzer) postSaving(text []byte, doc uint32) *savedTerms {
	dt := a.document(text)
	a.addPostings(dt, len(a.counts), doc)
	s := &savedTerms{dt: docTerms{ids: slices.Clone(dt.ids), tfs: slices.Clone(dt.tfs), lens: dt.lens}}
	for _, id := range dt.ids {
		s.n = max(s.n, int(id)+1)
	}
	return s
}

// postSaved adds the postings of a document whose content is that of s,
// saved by this analyser or another of the same term table.
func (a *analyzer) postSaved(s *savedTerms, doc uint32) [2]uint32 {
	a.addPostings(s.dt, s.n, doc)
	return s.dt.lens
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
