package memory

import (
	"encoding/binary"
	"hash/maphash"
	"strings"
	"sync"
	"sync/atomic"
	"unicode"
	"unicode/utf8"
	"unsafe"

	"github.com/taskctl/taskctl/internal/pages"
)

// maxTermLen bounds the length of a term; longer runs (hashes, base64,
// minified code) carry no lexical meaning and only bloat the dictionary.
const maxTermLen = 40

// Tokenize returns the index terms of text, in order, as the content analyser
// produces them: every word or identifier is split on camelCase, snake_case,
// kebab-case and letter/digit boundaries; the parts are lower-cased, English
// and code stop words are dropped and the rest are stemmed (Snowball
// English). A compound identifier (one with more than one part) is also
// kept whole, lower-cased and without separators, right after its parts:
// "parseHTTPRequest" gives "pars", "http", "request", "parsehttprequest".
// Data that only looks like words gives no terms: hex literals of four
// digits or more and hash-like runs (see noise).
//
// Tokenize is deterministic and never panics, whatever the input (invalid
// UTF-8 included).
func Tokenize(text string) []string {
	var out []string
	a := newAnalyzer()
	a.words(text, func(w string) {
		a.identifier(w, func(term string, whole bool) { out = append(out, term) })
	})
	return out
}

// analyzer holds the per-goroutine caches of the tokeniser. It is not safe
// for concurrent use; each worker has its own.
type analyzer struct {
	stems  map[string]string // word part → its term ("" for none)
	wholes map[string]string // interned whole identifiers
	table  *termTable        // term IDs, shared with the other analysers of a Refresh
	parts  []string
	buf    []byte

	// document analysis: the word table (shared like table) and
	// per-document counts
	wtab       *wordTable
	spareParts []uint32
	marks      [3][]uint64 // markWords's
	hotWords   *[1 << hotWordBits]hotWord
	hotLong    *[1 << hotLongBits]hotWord
	onePart    [1]uint32
	counts     [][2]uint32 // per term ID
	touched    []uint32
	tfs        [][2]uint32

	// the postings of the documents this analyser analysed in one
	// Refresh: chunks sorted by term, then those added since (sealed in
	// turn by sealPostings); the frequencies too large to pack; one more
	// than the highest term ID; and those documents in order
	chunks [][]posting
	posts  []posting
	wide   [][2]uint32
	terms  int
	docs   []*work
}

// newAnalyzer returns an analyser with a term table of its own.
func newAnalyzer() *analyzer {
	return &analyzer{stems: make(map[string]string, 256), table: newTermTable(0)}
}

// isWordByte reports whether b may be part of a word. Non-ASCII letters and
// digits are handled by words through utf8 decoding.
func isWordByte(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b == '_'
}

// words calls fn for every maximal run of letters, digits and underscores in
// text. Hyphens join words only inside words (kebab-case), so "foo-bar" is
// one word that identifier then splits; a leading or trailing hyphen and
// "--flag" are separators.
func (a *analyzer) words(text string, fn func(string)) {
	i := 0
	n := len(text)
	for i < n {
		// skip separators
		for i < n {
			c := text[i]
			if isWordByte(c) {
				break
			}
			if c >= utf8.RuneSelf {
				r, size := utf8.DecodeRuneInString(text[i:])
				if r != utf8.RuneError && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
					break
				}
				i += size
				continue
			}
			i++
		}
		start := i
		for i < n {
			c := text[i]
			if isWordByte(c) {
				i++
				continue
			}
			if c == '-' && i+1 < n && isWordByte(text[i+1]) && i > start {
				i++
				continue
			}
			if c >= utf8.RuneSelf {
				r, size := utf8.DecodeRuneInString(text[i:])
				if r != utf8.RuneError && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
					i += size
					continue
				}
			}
			break
		}
		if i > start {
			fn(text[start:i])
		}
	}
}

// charClass classifies a rune for identifier splitting.
func charClass(r rune) int {
	if r < utf8.RuneSelf { // what the unicode tables say of ASCII
		switch {
		case 'a' <= r && r <= 'z':
			return 2
		case 'A' <= r && r <= 'Z':
			return 1
		case '0' <= r && r <= '9':
			return 3
		}
		return 0
	}
	switch {
	case unicode.IsUpper(r):
		return 1
	case unicode.IsDigit(r):
		return 3
	case unicode.IsLetter(r):
		return 2
	}
	return 0 // separator: '_' or '-'
}

// split appends the parts of identifier w to a.parts (cleared first):
// separators '_' and '-' split, a lower→upper change splits ("fooBar"), an
// upper run followed by lower splits before its last upper ("HTTPServer" →
// "HTTP", "Server"), letter↔digit changes split ("utf8" → "utf", "8").
func (a *analyzer) split(w string) []string {
	a.parts = a.parts[:0]
	start := -1
	prev, prevPrev := 0, 0
	prevPos := 0
	for i, r := range w {
		c := charClass(r)
		if c == 0 {
			if start >= 0 {
				a.parts = append(a.parts, w[start:i])
				start = -1
			}
			prev, prevPrev = 0, 0
			continue
		}
		if start < 0 {
			start = i
		} else {
			switch {
			case c == 1 && prev == 2: // fooBar
				a.parts = append(a.parts, w[start:i])
				start = i
			case c == 2 && prev == 1 && prevPrev == 1: // HTTPServer: split before 'S'
				a.parts = append(a.parts, w[start:prevPos])
				start = prevPos
			case (c == 3) != (prev == 3): // letter/digit boundary
				a.parts = append(a.parts, w[start:i])
				start = i
			}
		}
		prevPrev, prev = prev, c
		prevPos = i
	}
	if start >= 0 {
		a.parts = append(a.parts, w[start:])
	}
	return a.parts
}

// identifier analyses one word and calls emit for each term: the stemmed
// parts that are not stop words, then the whole identifier (whole=true) if it
// had more than one part.
func (a *analyzer) identifier(w string, emit func(term string, whole bool)) {
	if len(w) > 4*maxTermLen || noise(w) {
		return
	}
	if simpleWord(w) { // the common case: one lower-case ASCII part
		if t := a.term(w); t != "" {
			emit(t, false)
		}
		return
	}
	parts := a.split(w)
	if len(parts) == 0 {
		return
	}
	a.buf = a.buf[:0]
	for _, p := range parts {
		a.buf = appendLower(a.buf, p)
		if t := a.term(p); t != "" {
			emit(t, false)
		}
	}
	if len(parts) > 1 && len(a.buf) <= maxTermLen && !allDigits(a.buf) {
		emit(a.intern(a.buf), true)
	}
}

// term normalises one part: lower-case, drop stop words, numbers longer than
// four digits and over-long runs, then stem. The result is interned.
func (a *analyzer) term(p string) string {
	if s, ok := a.stems[p]; ok {
		return s
	}
	s := normalise(p)
	if len(a.stems) < maxStems {
		a.stems[strings.Clone(p)] = s
	}
	return s
}

// maxStems bounds the analyser's stem cache.
const maxStems = 1 << 18

// identifierIDs is identifier giving local term IDs.
func (a *analyzer) identifierIDs(w string, emit func(id uint32, whole bool)) {
	if len(w) > 4*maxTermLen || noise(w) {
		return
	}
	if simpleWord(w) {
		// the word table keeps this analysis: the parts table need
		// not as well
		if t := normalise(w); t != "" {
			emit(uint32(a.table.termID(t)), false)
		}
		return
	}
	if allDigits(w) {
		if id := a.numberID(w); id >= 0 {
			emit(uint32(id), false)
		}
		return
	}
	parts := a.split(w)
	if len(parts) == 0 {
		return
	}
	a.buf = a.buf[:0]
	for _, p := range parts {
		a.buf = appendLower(a.buf, p)
		var id int32
		if allDigits(p) { // job1234, utf8
			id = a.numberID(p)
		} else {
			id = a.table.partID(p)
		}
		if id >= 0 {
			emit(uint32(id), false)
		}
	}
	if len(parts) > 1 && len(a.buf) <= maxTermLen && !allDigits(a.buf) {
		emit(uint32(a.table.termID(unsafe.String(unsafe.SliceData(a.buf), len(a.buf)))), true)
	}
}

// numberID is the term ID of number p (ASCII digits), or -1 if it has
// none: normalise's answer, without a trip through the parts table, as
// numbers are mostly met once each.
func (a *analyzer) numberID(p string) int32 {
	if len(p) < 2 || len(p) > 4 {
		return -1
	}
	return a.table.termID(p)
}

// normalise is term without the caches: a pure function of p.
func normalise(p string) string {
	if len(p) > maxTermLen {
		return ""
	}
	lower := strings.ToLower(p)
	if len(lower) == 1 && lower[0] < utf8.RuneSelf {
		return "" // single letters and digits are noise
	}
	if allDigits([]byte(lower)) {
		if len(lower) > 4 {
			return ""
		}
		return lower
	}
	if stopWords[lower] {
		return ""
	}
	s := stem(lower)
	if s == "" || stopWords[s] {
		return ""
	}
	return s
}

// intern returns b as a string, the same one for the same bytes. Whole
// identifiers have a map of their own: in the stem cache, "readconfigs"
// interned whole would be taken for the term of the word "readconfigs".
func (a *analyzer) intern(b []byte) string {
	if s, ok := a.wholes[string(b)]; ok {
		return s
	}
	s := string(b)
	if a.wholes == nil {
		a.wholes = make(map[string]string)
	}
	if len(a.wholes) < maxStems {
		a.wholes[s] = s
	}
	return s
}

// termTable numbers terms for the analysers of one Refresh, which share
// it: parts caches the term ID of a word part (-1: it has none), terms
// holds every term's ID and names every ID's term. normalise is a pure
// function, so sharing it changes no result; a part is normalised about
// once however many workers meet it.
type termTable struct {
	seed  maphash.Seed
	parts idTable
	terms idTable

	// guarded by terms.mu: every ID's term, its first eight bytes as a
	// big-endian number (zero-padded; the merge sorts terms by it first),
	// and the space they are copied to, a chunk at a time, so that the
	// terms lie in memory in the order of their IDs
	names []string
	keys  []uint64
	space []byte
}

// newTermTable returns a table for about n terms. The parts of compound
// words, cached with their terms, are fewer: some a sixth of the terms in
// Go's and podman's source, room for a quarter is made.
func newTermTable(n int) *termTable {
	t := makeTermTable(n)
	for _, m := range t.mapping() {
		m()
	}
	return t
}

// makeTermTable is newTermTable but for mapping the table's memory:
// mapping's work, which may be done on other goroutines before the table
// is used.
func makeTermTable(n int) *termTable {
	t := &termTable{seed: maphash.MakeSeed(), names: make([]string, 0, n), keys: make([]uint64, 0, n)}
	t.parts.init(n / 4)
	t.terms.init(n)
	return t
}

// mapping returns the work of mapping the table's memory (see
// pages.Populate), in parts that may be done in parallel: its hash tables
// are read before written, and the collector may read the names first.
func (t *termTable) mapping() []func() {
	return []func(){
		func() { pages.Populate(t.terms.slots) },
		func() {
			pages.Populate(t.parts.slots)
			pages.Populate(t.names[:cap(t.names)])
		},
	}
}

// partID returns the ID of the term of part p, or -1 if it has none.
func (t *termTable) partID(p string) int32 {
	h := maphash.String(t.seed, p)
	if id, ok := t.parts.get(h); ok {
		return id
	}
	id := int32(-1)
	if s := normalise(p); s != "" {
		id = t.termID(s)
	}
	return t.parts.getOrPut(h, func() int32 { return id })
}

// termID returns the ID of term s, numbering it if it is new.
func (t *termTable) termID(s string) int32 {
	h := maphash.String(t.seed, s)
	if id, ok := t.terms.get(h); ok {
		return id
	}
	return t.terms.getOrPut(h, func() int32 {
		if len(t.space)+len(s) > cap(t.space) {
			t.space = make([]byte, 0, max(64<<10, len(s)))
		}
		off := len(t.space)
		t.space = append(t.space, s...)
		t.names = append(t.names, unsafe.String(unsafe.SliceData(t.space[off:]), len(s)))
		t.keys = append(t.keys, termKey(s))
		return int32(len(t.names) - 1)
	})
}

// termKey is the first eight bytes of term t as a big-endian number,
// zero-padded: terms hold no zero bytes, so that keys are in the order of
// terms, and terms of equal keys are eight bytes or longer.
func termKey(t string) uint64 {
	var b [8]byte
	copy(b[:], t)
	return binary.BigEndian.Uint64(b[:])
}

// idTable maps strings, by a 64-bit hash (maphash, seeded for each
// table), to int32s for concurrent analysers. Reading takes no lock: an
// analyser meets mostly strings the table has. Adding one takes the
// table's lock, under which the table is probed again; a slot's value is
// stored before its key, so a reader that finds the key finds the value.
// The slots, sized when the table is made, never move; once 5/8 of them
// are taken, further strings go to a map read under the lock.
//
// Two distinct strings share a hash with a chance of about n²/2⁶⁵ for n
// strings (3 in 10⁸ for a million), and the seed keeps a file from being
// crafted to collide: the table holds no strings.
type idTable struct {
	slots []idSlot
	mask  uint64
	full  atomic.Bool // over is in use

	mu   sync.Mutex
	room int              // slots that may still be taken
	over map[uint64]int32 // strings past the slots' room
}

type idSlot struct {
	key atomic.Uint64 // 0: empty (a hash of 0 is stored as 1)
	val atomic.Int32
}

// init sizes t for at least n strings in its slots: the smallest power of
// two of which 5/8 is n or more. The tables are read where they are
// probed, in random places; the smaller they are, the likelier those are
// in the processor's cache.
func (t *idTable) init(n int) {
	size := 1024
	for size*5/8 < n && size < 1<<24 {
		size *= 2
	}
	t.slots = make([]idSlot, size) // (mapped by termTable.mapping)
	t.mask = uint64(size - 1)
	t.room = size * 5 / 8
}

func (t *idTable) get(h uint64) (int32, bool) {
	h = max(h, 1)
	for i := h & t.mask; ; i = (i + 1) & t.mask {
		switch t.slots[i].key.Load() {
		case h:
			return t.slots[i].val.Load(), true
		case 0:
			if !t.full.Load() {
				return 0, false
			}
			t.mu.Lock()
			v, ok := t.over[h]
			t.mu.Unlock()
			return v, ok
		}
	}
}

// getOrPut returns the value of hash h, storing the value mk returns if
// there is none; mk runs under t's lock.
func (t *idTable) getOrPut(h uint64, mk func() int32) int32 {
	h = max(h, 1)
	t.mu.Lock()
	defer t.mu.Unlock()
	i := h & t.mask
	for ; ; i = (i + 1) & t.mask {
		k := t.slots[i].key.Load()
		if k == h {
			return t.slots[i].val.Load()
		}
		if k == 0 {
			break
		}
	}
	if v, ok := t.over[h]; ok {
		return v
	}
	v := mk()
	if t.room > 0 {
		t.room--
		t.slots[i].val.Store(v)
		t.slots[i].key.Store(h)
		return v
	}
	if t.over == nil {
		t.over = make(map[uint64]int32)
	}
	t.over[h] = v
	t.full.Store(true)
	return v
}

// noise reports whether word w is data rather than language: a hex
// literal of four digits or more (the tables of generated and vendored
// code) or a run that changes between letters and digits six times or
// more (hashes, base64, UUIDs, checksums in lock files). Each such word is
// mostly met once: as terms they would fill the dictionary (a third of
// podman's) with words no description uses. It gives no terms.
func noise(w string) bool {
	if len(w) >= 6 && w[0] == '0' && w[1]|0x20 == 'x' {
		hex := true
		for i := 2; i < len(w) && hex; i++ {
			c := w[i] | 0x20
			hex = c >= '0' && c <= '9' || c >= 'a' && c <= 'f'
		}
		if hex {
			return true
		}
	}
	if len(w) < 7 {
		return false
	}
	changes, prev := 0, byte(0)
	for i := 0; i < len(w); i++ {
		var k byte
		switch c := w[i]; {
		case c >= '0' && c <= '9':
			k = 1
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			k = 2
		default: // '_', '-' or non-ASCII: a new part
			prev = 0
			continue
		}
		if prev != 0 && k != prev {
			changes++
		}
		prev = k
	}
	return changes >= 6
}

// simpleWord reports whether w is lower-case ASCII letters only.
func simpleWord(w string) bool {
	for i := 0; i < len(w); i++ {
		if w[i] < 'a' || w[i] > 'z' {
			return false
		}
	}
	return true
}

func appendLower(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf {
			return append(dst, strings.ToLower(s[i:])...)
		}
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		dst = append(dst, c)
	}
	return dst
}

func allDigits[S string | []byte](b S) bool {
	for i := 0; i < len(b); i++ {
		if b[i] < '0' || b[i] > '9' {
			return false
		}
	}
	return len(b) > 0
}

// proseStop is the prose among the stop words: English's function words,
// without the code's keywords (a file's name has "this", "import",
// "static" as words: ThisReference, ImportDeclaration).
var proseStop = func() map[string]bool {
	const prose = `a about above after again against all also am an and any are as at be because been
before being below between both but by can could did do does doing done down during each either else
ever few for from further get got had has have having he her here hers herself him himself his how however
i if in into is it its itself just let me more most my myself neither no nor not now of off on once only or
other our ours ourselves out over own same she should so some such than that the their theirs them
themselves then there these they this those through thus to too under until up upon us very via was we
were what when where which while who whom why will with within without would yet you your yours yourself
yourselves etc eg ie e.g i.e`
	m := make(map[string]bool, 200)
	for _, w := range strings.Fields(prose) {
		m[w] = true
	}
	return m
}()

// stopWords holds English function words and the keywords and noise words of
// common programming languages, compared before and after stemming.
var stopWords = func() map[string]bool {
	const code = `func function def fn return returns var val let const import imports package
true false nil null none undefined void self this super new delete
int int8 int16 int32 int64 uint uint8 uint16 uint32 uint64 float float32 float64 bool boolean str
byte bytes rune char long short double unsigned signed
public private protected static final abstract extends implements override virtual
elif endif begin end lambda yield async await pass break continue goto switch case default
try catch finally throw throws raise except assert
todo fixme xxx nolint noqa pragma
www com org`
	m := make(map[string]bool, 400)
	for w := range proseStop {
		m[w] = true
	}
	for _, w := range strings.Fields(code) {
		m[w] = true
	}
	return m
}()
