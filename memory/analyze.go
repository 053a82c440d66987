package memory

import (
	"encoding/binary"
	"math/bits"
	"math/rand/v2"
	"path"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
	"unsafe"

	"github.com/taskctl/taskctl/internal/pages"
)

// docTerms is the analysis of one document: its terms, in first-seen order, with their
// frequencies in (content, ident) and the lengths of those fields. ids and
// tfs are the analyser's scratch space, valid until its next document.
type docTerms struct {
	ids  []uint32    // term IDs (index a.table.names)
	tfs  [][2]uint32 // their frequencies
	lens [2]uint32
}

// lookup returns the analysis of word w, whose hash is h (hashWord): the
// ID of its whole form (-1 if none), whether it introduces a name, and its
// part IDs (valid until the next lookup); and the word table's value for
// it, or 0 if the table had none. It analyses the word on first sight.
// document passes no word longer than maxWordLen (which gives no terms).
func (a *analyzer) lookup(w []byte, h uint64) (whole int32, definer bool, parts []uint32, v uint64) {
	t := a.wtab
	i, v := t.find(h)
	if v != 0 {
		whole, definer, parts = t.decode(v, &a.onePart)
		return whole, definer, parts, v
	}
	// w lies in the document, which stays unchanged while it is
	// analysed; nothing keeps ws beyond this call (the term table copies
	// what it keeps).
	ws := unsafe.String(unsafe.SliceData(w), len(w))
	whole = -1
	parts = a.spareParts[:0]
	a.identifierIDs(ws, func(id uint32, isWhole bool) {
		if isWhole {
			whole = int32(id)
		} else {
			parts = append(parts, id)
		}
	})
	a.spareParts = parts
	definer = isDefiner(w)
	if i >= 0 {
		t.insert(i, h, whole, definer, parts)
	}
	return whole, definer, parts, 0
}

// hotWord is a slot of an analyser's cache of short words: a word of up
// to eight bytes, as a little-endian number, and its value in the
// analyser's word table. The cache is direct-mapped, 32 KB: the commonest
// words of a text (func, return, err, the) are met without hashing them or
// reading the shared table. Words crafted to share a slot only miss it.
type hotWord struct {
	key, val uint64
}

const hotWordBits = 11 // 2,048 words, 32 KB

// hotLongBits sizes the analyser's cache of words longer than eight bytes,
// keyed by their hash (hotWord's key is then the hash): the word table of
// a large tree is tens of megabytes, where each lookup misses the
// processor's caches; identifiers of a project recur.
const hotLongBits = 12 // 4,096 words, 64 KB

// Eight bytes at a time: ones has 1 in every byte, highs 0x80.
const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// wordBytes returns the bytes of v (eight bytes of text, little-endian)
// that isWordByte accepts, as their high bits. A byte in [lo, hi] of an
// ASCII byte x (high bit clear) is x+(0x80-lo) having its high bit and
// x+(0x7f-hi) not: neither sum carries into the next byte. Setting bit 5
// maps capitals onto small letters and leaves digits as they are ('_' and
// the other punctuation it maps land outside both ranges).
func wordBytes(v uint64) uint64 {
	x := v &^ highs
	l := x | 0x20*ones
	letter := (l + (0x80-'a')*ones) &^ (l + (0x7f-'z')*ones)
	digit := (x + (0x80-'0')*ones) &^ (x + (0x7f-'9')*ones)
	u := x ^ '_'*ones
	under := ^(u + 0x7f*ones) // high bit set where u is zero
	return (letter | digit | under) &^ v & highs
}

// highBits gathers the high bits of the eight bytes of v into a byte, the
// first byte's lowest.
func highBits(v uint64) uint64 {
	return (v & highs >> 7) * 0x0102040810204080 >> 56
}

// markWords returns a bitmap of the bytes of text that are in words, as
// words splits them: bit i%64 of word i/64 for byte i, followed by a word
// of zeros. classifyBlocks classifies the bytes 64 at a time (the last,
// short block padded); where a block holds runes, they are decoded; then a
// hyphen joins the word bytes around it when a word runs up to it and an
// ASCII word byte follows it (kebab-case). m, w and h are scratch space,
// returned for reuse.
func markWords(text []byte, m, w, h []uint64) (marks, ws, hs []uint64) {
	n := (len(text) + 63) / 64
	m = slices.Grow(m[:0], n+1)[:n+1]
	w = slices.Grow(w[:0], n+1)[:n+1]
	h = slices.Grow(h[:0], n+1)[:n+1]
	m[n], w[n], h[n] = 0, 0, 0
	full := len(text) / 64
	classifyBlocks(text[:64*full], m, w, h)
	if full < n {
		var tail [64]byte
		copy(tail[:], text[64*full:])
		classifyBlocks(tail[:], m[full:], w[full:], h[full:])
	}
	next := 0        // the start of the next rune to decode
	carried := false // the bytes before next are of a letter or digit
	for k := range n {
		lo := 64 * k
		wk := w[k]
		mk := wk
		if m[k] != 0 || next > lo {
			// runes: the ASCII bytes are as above; a rune that is a
			// letter or digit is word bytes, all of its bytes
			mk = 0
			if carried && next > lo { // the end of a rune begun in the block before
				mk = 1<<(next-lo) - 1
			}
			end := min(lo+64, len(text))
			i := max(next, lo)
			for i < end {
				if c := text[i]; c < utf8.RuneSelf {
					mk |= wk & (1 << (i - lo))
					i++
					continue
				}
				r, size := utf8.DecodeRune(text[i:])
				carried = r != utf8.RuneError && (unicode.IsLetter(r) || unicode.IsDigit(r))
				if carried { // its bytes past the block: the next one's
					mk |= (1<<size - 1) << (i - lo)
				}
				i += size
			}
			next = i
		}
		m[k] = mk
	}
	// Join: a hyphen whose previous byte is in a word (never a joined
	// hyphen: one is followed by a word byte) and whose next byte is an
	// ASCII word byte. The last byte of text has no next: padding.
	var prev uint64
	for k := range n {
		mk := m[k]
		m[k] |= h[k] & (mk<<1 | prev>>63) & (w[k]>>1 | w[k+1]<<63)
		prev = mk
	}
	return m, w, h
}

// markWords is markWords on the analyser's scratch space.
func (a *analyzer) markWords(text []byte) []uint64 {
	s := &a.marks
	s[0], s[1], s[2] = markWords(text, s[0], s[1], s[2])
	return s[0]
}

// nextRun returns the bounds of the first run of set bits of marks
// (markWords) at or after bit i (start == end: none).
func nextRun(marks []uint64, i int) (start, end int) {
	k := i >> 6
	if k >= len(marks) {
		return i, i
	}
	x := marks[k] &^ (1<<(i&63) - 1)
	for x == 0 {
		k++
		if k >= len(marks) {
			return i, i
		}
		x = marks[k]
	}
	start = k<<6 | bits.TrailingZeros64(x)
	y := ^marks[k] &^ (1<<(start&63) - 1)
	for y == 0 {
		k++ // the last word of marks is zero: y is not
		y = ^marks[k]
	}
	return start, k<<6 | bits.TrailingZeros64(y)
}

// wordSeed keys the hash of words in the analysers' tables, drawn for
// each process: a file crafted so that its words collide in the tables
// (and so that every lookup walks all of them) would have to know it.
var wordSeed = [2]uint64{rand.Uint64() | 1, rand.Uint64()}

// mix is the folded 128-bit product of wyhash.
func mix(a, b uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	return hi ^ lo
}

// hashWord hashes the n bytes of text at p, a word, for the word table:
// never 0.
func hashWord(text []byte, p, n int) uint64 {
	const k1, k2 = 0xa0761d6478bd642f, 0xe7037ed1a0b428db
	h := wordSeed[0] ^ uint64(n)*k1
	if n < 8 && p+8 <= len(text) {
		v := binary.LittleEndian.Uint64(text[p:]) << (64 - 8*uint(n))
		return max(mix(v^wordSeed[1], h^k2), 1)
	}
	for ; n >= 8; p, n = p+8, n-8 {
		h = mix(binary.LittleEndian.Uint64(text[p:])^wordSeed[1], h^k2)
	}
	if n > 0 {
		var v uint64
		for j := n - 1; j >= 0; j-- {
			v = v<<8 | uint64(text[p+j])
		}
		v <<= 64 - 8*uint(n)
		h = mix(v^wordSeed[1], h^k2)
	}
	return max(h, 1)
}

// document analyses file content into the content field (every word part,
// stemmed) and the ident field (every compound identifier whole, plus all
// the terms of names being defined). It splits words exactly as words
// does.
func (a *analyzer) document(text []byte) docTerms {
	var dt docTerms
	touched := a.touched[:0]
	defining := false
	marks := a.markWords(text)
	if a.wtab == nil { // an analyser of its own (Tokenize, tests)
		a.wtab = newWordTable(1 << 20)
	}
	if a.hotWords == nil {
		a.hotWords = new([1 << hotWordBits]hotWord)
		a.hotLong = new([1 << hotLongBits]hotWord)
	}
	for i := 0; ; {
		start, end := nextRun(marks, i)
		if start == end {
			break
		}
		i = end
		n := end - start
		if n <= 1 && (n == 0 || text[start] < utf8.RuneSelf) || n > maxWordLen {
			// none, or a single ASCII letter, digit or '_', or a
			// word too long to be an identifier: no terms, and it
			// introduces no name (what lookup would say, for the
			// commonest words of code)
			defining = false
			continue
		}
		whole, definer, parts := a.wordTerms(text, start, n)
		def := defining
		defining = definer
		counts := a.counts
		for _, id := range parts {
			if int(id) >= len(counts) {
				counts = a.growCounts(id)
			}
			c := &counts[id]
			if c[0] == 0 && c[1] == 0 {
				touched = append(touched, id)
			}
			c[fContent]++
			if def {
				c[fIdent]++
			}
		}
		dt.lens[fContent] += uint32(len(parts))
		if def {
			dt.lens[fIdent] += uint32(len(parts))
		}
		if whole >= 0 {
			if int(whole) >= len(counts) {
				counts = a.growCounts(uint32(whole))
			}
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

// wordTerms returns the terms of the word text[start:start+n] (see
// lookup), through the analyser's caches of the words it met: the short
// ones keyed by their bytes (no word holds a zero byte), the longer ones
// by their hash, as the word table is.
func (a *analyzer) wordTerms(text []byte, start, n int) (whole int32, definer bool, parts []uint32) {
	if n <= 8 && start+8 <= len(text) {
		k := binary.LittleEndian.Uint64(text[start:]) & (^uint64(0) >> (64 - 8*n))
		sl := &a.hotWords[(k*0x9e3779b97f4a7c15)>>(64-hotWordBits)]
		if sl.key == k {
			return a.wtab.decode(sl.val, &a.onePart)
		}
		var v uint64
		whole, definer, parts, v = a.lookup(text[start:start+n], hashWord(text, start, n))
		if v != 0 {
			*sl = hotWord{k, v}
		}
		return whole, definer, parts
	}
	h := hashWord(text, start, n)
	sl := &a.hotLong[h>>(64-hotLongBits)]
	if sl.key == h {
		return a.wtab.decode(sl.val, &a.onePart)
	}
	var v uint64
	whole, definer, parts, v = a.lookup(text[start:start+n], h)
	if v != 0 {
		*sl = hotWord{h, v}
	}
	return whole, definer, parts
}

// growCounts makes room in the analyser's counts for term ID id, and
// returns them.
func (a *analyzer) growCounts(id uint32) [][2]uint32 {
	n := max(int(id)+1, 2*len(a.counts), 1024)
	old := len(a.counts)
	a.counts = append(a.counts, make([][2]uint32, n-old)...)
	pages.Populate(a.counts[old:])
	return a.counts
}

// isDefiner reports whether w is a word after which an identifier is being
// defined in common languages; the defined name goes to the ident field as
// well.
func isDefiner(w []byte) bool {
	if len(w) < 2 || len(w) > 9 || w[0] < 'a' || w[0] > 'z' {
		return false
	}
	switch string(w) {
	case "func", "type", "def", "class", "struct", "interface",
		"function", "fn", "enum", "trait", "impl", "module",
		"const", "var", "let", "resource", "variable", "message",
		"service", "macro", "defn", "object", "record", "protocol":
		return true
	}
	return false
}

// post analyses text, the content of the file at rel, as document does,
// with the definitions it holds (withDefs), and adds its postings, as
// document doc (numbered per analyser), to the analyser's posting lists.
func (a *analyzer) post(text []byte, doc uint32, rel string) [2]uint32 {
	dt := a.withDefs(a.document(text), rel, text)
	a.addPostings(dt, len(a.counts), doc)
	return dt.lens
}

// withDefs adds to dt, the analysis of text, the definition terms of text
// as the file at rel (see defTerms), each with its count as the ident
// frequency; the field lengths are left as they are, so that a file's
// definitions do not change how its words are scored.
func (a *analyzer) withDefs(dt docTerms, rel string, text []byte) docTerms {
	lang := defLangOf(rel)
	if lang == nil {
		return dt
	}
	first := len(dt.ids)
	defTerms(rel, text, func(term string) {
		id := uint32(a.table.termID(term))
		if int(id) >= len(a.counts) {
			a.growCounts(id)
		}
		c := &a.counts[id]
		if c[fIdent] == 0 {
			dt.ids = append(dt.ids, id)
		}
		c[fIdent]++
	})
	for _, id := range dt.ids[first:] {
		dt.tfs = append(dt.tfs, a.counts[id])
		a.counts[id] = [2]uint32{}
	}
	a.touched, a.tfs = dt.ids, dt.tfs
	return dt
}

// addPostings adds document doc's postings, whose term IDs are below n,
// to the analyser's log: appending to it touches one place in memory,
// where adding to a list for each term touched a random one.
func (a *analyzer) addPostings(dt docTerms, n int, doc uint32) {
	a.terms = max(a.terms, n)
	// A full chunk is sealed, and so is one whose buffer (a chunk's size)
	// this document's postings would outgrow: growing it would copy it
	// to fresh memory twice its size, which every later chunk would keep.
	if k := len(a.posts); k >= chunkPostings || k+len(dt.ids) > cap(a.posts) && cap(a.posts) >= chunkPostings {
		a.sealPostings()
	}
	for i, id := range dt.ids {
		tf := dt.tfs[i]
		packed := tf[0] | tf[1]<<16
		if tf[0] > 0xffff || tf[1] >= wideTF>>16 {
			packed = wideTF | uint32(len(a.wide))
			a.wide = append(a.wide, tf)
		}
		a.posts = append(a.posts, posting{id: id, doc: doc, tf: packed})
	}
}

// A posting says that document doc (numbered per analyser) has term id
// with frequencies tf: tf[fContent] | tf[fIdent]<<16 or, when either
// does not fit, wideTF | their index in the analyser's wide.
type posting struct {
	id, doc, tf uint32
}

const wideTF = 1 << 31

// chunkPostings is about how many postings an analyser sorts at once (12
// MB of them): the sort's second buffer is no larger.
var chunkPostings = 1 << 18

// sealPostings sorts the postings added since the last call by term ID,
// keeping each term's in the order they were added (by document), and
// keeps them as a chunk. It is a radix sort, 11 bits of the ID a pass,
// each pass streaming through memory; the buffer it leaves free takes the
// next postings.
func (a *analyzer) sealPostings() {
	ps := a.posts
	if len(ps) == 0 {
		return
	}
	const digit = 11
	const mask = 1<<digit - 1
	passes := (bits.Len(uint(a.terms)) + digit - 1) / digit
	counts := make([][1 << digit]int, passes)
	for _, p := range ps {
		for k := range counts {
			counts[k][p.id>>(k*digit)&mask]++
		}
	}
	var free []posting
	for k := range counts {
		c := &counts[k]
		if c[ps[0].id>>(k*digit)&mask] == len(ps) {
			continue // one digit for all: already in order
		}
		if free == nil {
			free = make([]posting, len(ps), cap(ps))
			pages.Populate(free[:cap(free)]) // (written in random places)
		}
		sum := 0
		for d, n := range c {
			c[d] = sum
			sum += n
		}
		shift := k * digit
		for _, p := range ps {
			d := p.id >> shift & mask
			free[c[d]] = p
			c[d]++
		}
		ps, free = free, ps
	}
	a.chunks = append(a.chunks, ps)
	a.posts = free[:0]
}

// savedTerms is the analysis of a document kept for other files with the
// same content (vendored copies, licences): its terms, their frequencies,
// the field lengths, and one more than the highest term ID.
type savedTerms struct {
	dt docTerms
	n  int
}

// postSaving is post that also returns the document's analysis.
func (a *analyzer) postSaving(text []byte, doc uint32, rel string) *savedTerms {
	dt := a.withDefs(a.document(text), rel, text)
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

// dirTerms analyses the directory part of a slash path (path.Split's
// dir) into the terms of the path field, and nameTerms its base name,
// without its extension, into those of the name field.
func (a *analyzer) dirTerms(dir string, emit func(term string)) {
	a.words(dir, func(w string) {
		a.identifier(w, func(term string, _ bool) { emit(term) })
	})
}

func (a *analyzer) nameTerms(base string, emit func(term string)) {
	if ext := path.Ext(base); ext != "" && ext != base {
		base = strings.TrimSuffix(base, ext)
	}
	a.words(base, func(w string) {
		a.identifier(w, func(term string, _ bool) { emit(term) })
	})
}
