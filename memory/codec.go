package memory

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"slices"
	"strings"
)

// The index file:
//
//	header (32 bytes): magic "TCTLIDX\n", version u32, flags u32,
//	                   body length u64, CRC-32C of the body u32, analysis
//	                   u32 (filterSum: CRC-32C of analysisID and the
//	                   source's FilterID, never 0)
//	body:              documents, then the text dictionary (content and
//	                   identifier fields), then the path dictionary (path and
//	                   file-name fields)
//
// A document is: uvarint length of the prefix shared with the previous
// path, uvarint suffix length, suffix, uvarint size, varint mtime (Unix
// nanoseconds), 16-byte content hash, flags byte (1 skipped, 2 deleted),
// and four uvarint field lengths (content, ident, path, name). A deleted
// document (a tombstone) keeps its ID so that other documents keep theirs;
// posting lists may still name it, and readers ignore those entries.
//
// A dictionary is: u32 term count n, (n+1) u32 offsets into the term
// strings, (n+1) u32 offsets into the postings, the term strings (sorted),
// the postings. A posting list is uvarint df, then df entries of uvarint
// doc-ID delta (the first is absolute) and two uvarint term frequencies.
// Integers are little-endian.
//
// Version 2 added the definitions (defs.go): text dictionary terms that
// start with defPrefix ("@queryset.bulkcreate"), their count in a
// document as the second term frequency; they add nothing to the field
// lengths.
//
// Two versions: formatVersion is the layout above; an index of another
// is not read, and is rebuilt quietly (errOtherLayout: an older or newer
// taskctl wrote it; it said INDEX_CORRUPT until issue 34's twelfth pass,
// as if it were damaged; a damaged one still does). The analysis
// word is what the documents' terms were made by: when the analysis
// changes (a language's definitions read, a word no longer indexed),
// analysisID changes (source.go), and the next Refresh analyses every
// file again, quietly, as it does for another filter; the layout and
// the postings of an old analysis stay readable until then.
const (
	magic         = "TCTLIDX\n"
	formatVersion = 2
	headerSize    = 32
)

// fields, in the order used by lengths and weights.
const (
	fContent = iota
	fIdent
	fPath
	fName
	nFields
)

var fieldNames = [nFields]string{"content", "ident", "path", "name"}

// Document flags.
const (
	docSkipped = 1 // listed but not indexed: binary, oversized or unreadable
	docDeleted = 2 // a tombstone: the file changed or left; its old postings are stale
)

type docInfo struct {
	rel   string
	size  int64
	mtime int64
	hash  [16]byte
	flags byte
	lens  [nFields]uint32
}

// dict is a read-only view of one dictionary section.
type dict struct {
	n       int
	strOff  []byte
	postOff []byte
	strs    []byte
	posts   []byte
}

func (d *dict) off(tab []byte, i int) int { return int(binary.LittleEndian.Uint32(tab[4*i:])) }

// termBytes and postings check their offsets on every access instead of
// validating all of them when the index is opened (which would cost as
// much as the search); a malformed file gives empty terms and lists.
func (d *dict) termBytes(i int) []byte {
	a, b := d.off(d.strOff, i), d.off(d.strOff, i+1)
	if a > b || b > len(d.strs) {
		return nil
	}
	return d.strs[a:b]
}

func (d *dict) postings(i int) []byte {
	a, b := d.off(d.postOff, i), d.off(d.postOff, i+1)
	if a > b || b > len(d.posts) {
		return nil
	}
	return d.posts[a:b]
}

// prefixCount returns how many terms start with prefix (sorted, they are
// a run).
func (d *dict) prefixCount(prefix string) int {
	lo := d.search(prefix)
	hi := lo
	for n := d.n - lo; n > 0; {
		half := n / 2
		if bytes.HasPrefix(d.termBytes(hi+half), []byte(prefix)) {
			hi += half + 1
			n -= half + 1
		} else {
			n = half
		}
	}
	return hi - lo
}

// search returns the index of the first term not less than term.
func (d *dict) search(term string) int {
	lo, hi := 0, d.n
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if bytes.Compare(d.termBytes(m), []byte(term)) < 0 {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// find returns the posting list of term, or nil.
func (d *dict) find(term string) []byte {
	lo := d.search(term)
	if lo < d.n && string(d.termBytes(lo)) == term {
		return d.postings(lo)
	}
	return nil
}

// ErrCorrupt is wrapped by decoding errors: the file is not a complete index
// of the current format.
var ErrCorrupt = errors.New("corrupt index")

// errOtherLayout is wrapped by the error of an index whose header is
// taskctl's and whose layout is another (formatVersion): an older
// taskctl's, or a newer one's. It is no damage: Open rebuilds it quietly.
var errOtherLayout = errors.New("index of another layout")

func corrupt(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrCorrupt, fmt.Sprintf(format, args...))
}

// decoded is the result of decoding an index file.
type decoded struct {
	docs   []docInfo
	text   dict
	path   dict
	filter uint32 // see filterSum
}

// decode checks and decodes an index file. It never panics: every length
// and offset is checked against the data before use.
func decode(data []byte) (*decoded, error) {
	if len(data) < headerSize || string(data[:8]) != magic {
		return nil, corrupt("bad magic")
	}
	if v := binary.LittleEndian.Uint32(data[8:]); v != formatVersion {
		return nil, fmt.Errorf("%w: %w: version %d, want %d", ErrCorrupt, errOtherLayout, v, formatVersion)
	}
	body := data[headerSize:]
	if n := binary.LittleEndian.Uint64(data[16:]); n != uint64(len(body)) {
		return nil, corrupt("body is %d bytes, header says %d", len(body), n)
	}
	// The checksum is computed beside the decoding when there is much to
	// check (decoding is safe on any input; nothing decoded is returned
	// before the checksum has matched).
	want := binary.LittleEndian.Uint32(data[24:])
	var sum chan uint32
	if len(body) >= parallelCRC {
		sum = make(chan uint32, 1)
		go func() { sum <- crc32.Checksum(body, crc32.MakeTable(crc32.Castagnoli)) }()
	} else if crc32.Checksum(body, crc32.MakeTable(crc32.Castagnoli)) != want {
		return nil, corrupt("checksum mismatch")
	}
	dec, err := decodeBody(body)
	if sum != nil && <-sum != want {
		return nil, corrupt("checksum mismatch")
	}
	if dec != nil {
		dec.filter = binary.LittleEndian.Uint32(data[28:])
	}
	return dec, err
}

// parallelCRC is the body size from which decode checksums the body on
// another goroutine while it decodes.
const parallelCRC = 256 << 10

// decodeBody decodes the body of an index file.
func decodeBody(body []byte) (*decoded, error) {
	r := reader{b: body}
	n := r.uvarint()
	if r.err != nil || n > uint64(len(body)) {
		return nil, corrupt("bad document count")
	}
	dec := &decoded{docs: make([]docInfo, 0, n)}
	// Every path is written into one builder, whose string the documents'
	// paths are substrings of: one allocation, not one per document (the
	// builder only appends, so a string taken from it never changes).
	var paths strings.Builder
	paths.Grow(int(min(n*64, uint64(len(body))*4)))
	prev := "" // the previous document's path
	for i := uint64(0); i < n; i++ {
		var d docInfo
		shared := r.uvarint()
		suffix := r.bytes(r.uvarint())
		if r.err != nil || shared > uint64(len(prev)) {
			return nil, corrupt("bad path of document %d", i)
		}
		start := paths.Len()
		paths.WriteString(prev[:shared])
		paths.Write(suffix)
		d.rel = paths.String()[start:]
		d.size = int64(r.uvarint())
		d.mtime = r.varint()
		copy(d.hash[:], r.bytes(16))
		d.flags = r.byte()
		for f := range d.lens {
			l := r.uvarint()
			if l > math.MaxUint32 {
				r.err = ErrCorrupt
			}
			d.lens[f] = uint32(l)
		}
		if r.err != nil {
			return nil, corrupt("truncated document %d", i)
		}
		dec.docs = append(dec.docs, d)
		prev = d.rel
	}
	var err error
	if dec.text, err = r.dict(); err != nil {
		return nil, err
	}
	if dec.path, err = r.dict(); err != nil {
		return nil, err
	}
	if len(r.b) != 0 {
		return nil, corrupt("%d trailing bytes", len(r.b))
	}
	return dec, nil
}

type reader struct {
	b   []byte
	err error
}

func (r *reader) uvarint() uint64 {
	if r.err != nil {
		return 0
	}
	if len(r.b) > 0 && r.b[0] < 0x80 { // one byte, as most are
		v := r.b[0]
		r.b = r.b[1:]
		return uint64(v)
	}
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.err = ErrCorrupt
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *reader) varint() int64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Varint(r.b)
	if n <= 0 {
		r.err = ErrCorrupt
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *reader) bytes(n uint64) []byte {
	if r.err != nil {
		return nil
	}
	if n > uint64(len(r.b)) {
		r.err = ErrCorrupt
		return nil
	}
	b := r.b[:n]
	r.b = r.b[n:]
	return b
}

func (r *reader) byte() byte {
	b := r.bytes(1)
	if b == nil {
		return 0
	}
	return b[0]
}

func (r *reader) u32() uint32 {
	b := r.bytes(4)
	if b == nil {
		return 0
	}
	return binary.LittleEndian.Uint32(b)
}

func (r *reader) dict() (dict, error) {
	n := uint64(r.u32())
	if r.err != nil || (n+1)*8 > uint64(len(r.b)) {
		return dict{}, corrupt("bad dictionary size")
	}
	d := dict{n: int(n)}
	d.strOff = r.bytes((n + 1) * 4)
	d.postOff = r.bytes((n + 1) * 4)
	if r.err != nil {
		return dict{}, corrupt("truncated dictionary")
	}
	if d.off(d.strOff, 0) != 0 || d.off(d.postOff, 0) != 0 {
		return dict{}, corrupt("dictionary offsets do not start at 0")
	}
	d.strs = r.bytes(uint64(d.off(d.strOff, d.n)))
	d.posts = r.bytes(uint64(d.off(d.postOff, d.n)))
	if r.err != nil {
		return dict{}, corrupt("truncated dictionary data")
	}
	return d, nil
}

// iter walks a posting list. Malformed data or a document ID of n or more
// ends the walk early; it never panics.
type iter struct {
	b   []byte
	n   uint32
	doc uint32
	df  uint64
	i   uint64
	tf  [2]uint32
}

func newIter(list []byte, nDocs int) iter {
	it := iter{b: list, n: uint32(nDocs)}
	v, k := binary.Uvarint(list)
	if k <= 0 {
		it.b = nil
		return it
	}
	it.df = v
	it.b = list[k:]
	return it
}

func (it *iter) next() bool {
	if it.i >= it.df || len(it.b) == 0 {
		return false
	}
	var v [3]uint64
	for j := range v {
		x, k := binary.Uvarint(it.b)
		if k <= 0 || x > math.MaxUint32 {
			it.b = nil
			return false
		}
		v[j] = x
		it.b = it.b[k:]
	}
	doc := uint64(it.doc) + v[0]
	if it.i == 0 {
		doc = v[0]
	} else if v[0] == 0 {
		it.b = nil
		return false
	}
	if doc >= uint64(it.n) {
		it.b = nil
		return false
	}
	it.doc = uint32(doc)
	it.tf[0], it.tf[1] = uint32(v[1]), uint32(v[2])
	it.i++
	return true
}

// listBuilder accumulates one posting list in the file's encoding, without
// the df header.
type listBuilder struct {
	buf  []byte
	last uint32
	df   uint32
}

func (l *listBuilder) add(doc, tf1, tf2 uint32) {
	delta := doc - l.last
	if l.df == 0 {
		delta = doc
	}
	l.buf = binary.AppendUvarint(l.buf, uint64(delta))
	l.buf = binary.AppendUvarint(l.buf, uint64(tf1))
	l.buf = binary.AppendUvarint(l.buf, uint64(tf2))
	l.last = doc
	l.df++
}

// dictWriter writes a dictionary section term by term, in sorted order.
type dictWriter struct {
	strOff, postOff []byte
	strs, posts     []byte
	n               uint32
}

// newDictWriter returns a writer with room for about n terms, strs bytes of
// terms and posts bytes of postings.
func newDictWriter(n, strs, posts int) *dictWriter {
	w := &dictWriter{
		strOff:  make([]byte, 0, 4*(n+1)),
		postOff: make([]byte, 0, 4*(n+1)),
		strs:    make([]byte, 0, strs),
		posts:   make([]byte, 0, posts),
	}
	w.strOff = binary.LittleEndian.AppendUint32(w.strOff, 0)
	w.postOff = binary.LittleEndian.AppendUint32(w.postOff, 0)
	return w
}

func (w *dictWriter) add(term string, df uint32, entries []byte) {
	w.strs = append(w.strs, term...)
	w.posts = binary.AppendUvarint(w.posts, uint64(df))
	w.posts = append(w.posts, entries...)
	w.strOff = binary.LittleEndian.AppendUint32(w.strOff, uint32(len(w.strs)))
	w.postOff = binary.LittleEndian.AppendUint32(w.postOff, uint32(len(w.posts)))
	w.n++
}

// addRawRun adds terms i to k-1 of d with their posting lists as they
// are. d's offsets must be well formed for that range (its lists are
// otherwise added one by one, as addRaw would, checking each).
func (w *dictWriter) addRawRun(d *dict, i, k int) {
	if i >= k {
		return
	}
	s0, s1 := d.off(d.strOff, i), d.off(d.strOff, k)
	p0, p1 := d.off(d.postOff, i), d.off(d.postOff, k)
	if s0 > s1 || s1 > len(d.strs) || p0 > p1 || p1 > len(d.posts) || !monotone(d.strOff, i, k) || !monotone(d.postOff, i, k) {
		for ; i < k; i++ {
			w.addRaw(d.termBytes(i), d.postings(i))
		}
		return
	}
	ds, dp := uint32(len(w.strs)-s0), uint32(len(w.posts)-p0)
	for x := i + 1; x <= k; x++ {
		w.strOff = binary.LittleEndian.AppendUint32(w.strOff, uint32(d.off(d.strOff, x))+ds)
		w.postOff = binary.LittleEndian.AppendUint32(w.postOff, uint32(d.off(d.postOff, x))+dp)
	}
	w.strs = append(w.strs, d.strs[s0:s1]...)
	w.posts = append(w.posts, d.posts[p0:p1]...)
	w.n += uint32(k - i)
}

// monotone reports whether offsets i to k of tab never decrease.
func monotone(tab []byte, i, k int) bool {
	prev := binary.LittleEndian.Uint32(tab[4*i:])
	for x := i + 1; x <= k; x++ {
		v := binary.LittleEndian.Uint32(tab[4*x:])
		if v < prev {
			return false
		}
		prev = v
	}
	return true
}

// addRaw adds a posting list already in file encoding (df header included).
func (w *dictWriter) addRaw(term []byte, list []byte) {
	w.strs = append(w.strs, term...)
	w.posts = append(w.posts, list...)
	w.strOff = binary.LittleEndian.AppendUint32(w.strOff, uint32(len(w.strs)))
	w.postOff = binary.LittleEndian.AppendUint32(w.postOff, uint32(len(w.posts)))
	w.n++
}

func (w *dictWriter) appendTo(b []byte) []byte {
	b = slices.Grow(b, 4+len(w.strOff)+len(w.postOff)+len(w.strs)+len(w.posts))
	b = binary.LittleEndian.AppendUint32(b, w.n)
	b = append(b, w.strOff...)
	b = append(b, w.postOff...)
	b = append(b, w.strs...)
	return append(b, w.posts...)
}

// rawDict re-emits an existing dictionary section unchanged.
func rawDict(d *dict, b []byte) []byte {
	if len(d.strOff) == 0 { // the zero dict (of a state with no index behind it)
		return append(b, freshSection(nil)...)
	}
	b = slices.Grow(b, 4+len(d.strOff)+len(d.postOff)+len(d.strs)+len(d.posts))
	b = binary.LittleEndian.AppendUint32(b, uint32(d.n))
	b = append(b, d.strOff...)
	b = append(b, d.postOff...)
	b = append(b, d.strs...)
	return append(b, d.posts...)
}

// encode assembles an index file from its documents and two dictionary
// sections (each already in section encoding). It returns the file as
// parts, written in order, so that the sections are not copied again.
func encode(docs []docInfo, text, path []byte, filter uint32) ([][]byte, error) {
	if uint64(len(text)) > math.MaxUint32 || uint64(len(path)) > math.MaxUint32 {
		return nil, errors.New("index too large")
	}
	b := encodeDocs(docs)
	crc := crc32.Update(0, crc32.MakeTable(crc32.Castagnoli), b[headerSize:])
	crc = crc32.Update(crc, crc32.MakeTable(crc32.Castagnoli), text)
	crc = crc32.Update(crc, crc32.MakeTable(crc32.Castagnoli), path)
	finishHeader(b, int64(len(b)-headerSize+len(text)+len(path)), crc, filter)
	return [][]byte{b, text, path}, nil
}

// encodeDocs returns the start of an index file: its header, to be
// completed by finishHeader, and its documents.
func encodeDocs(docs []docInfo) []byte {
	b := make([]byte, headerSize, headerSize+len(docs)*40)
	copy(b, magic)
	binary.LittleEndian.PutUint32(b[8:], formatVersion)
	b = binary.AppendUvarint(b, uint64(len(docs)))
	prev := ""
	for _, d := range docs {
		shared := 0
		for shared < len(prev) && shared < len(d.rel) && prev[shared] == d.rel[shared] {
			shared++
		}
		b = binary.AppendUvarint(b, uint64(shared))
		b = binary.AppendUvarint(b, uint64(len(d.rel)-shared))
		b = append(b, d.rel[shared:]...)
		b = binary.AppendUvarint(b, uint64(d.size))
		b = binary.AppendVarint(b, d.mtime)
		b = append(b, d.hash[:]...)
		b = append(b, d.flags)
		for _, l := range d.lens {
			b = binary.AppendUvarint(b, uint64(l))
		}
		prev = d.rel
	}
	return b
}

// finishHeader completes the header at the start of b with the length of
// the body, its CRC-32C and the source's filter.
func finishHeader(b []byte, body int64, crc, filter uint32) {
	binary.LittleEndian.PutUint64(b[16:], uint64(body))
	binary.LittleEndian.PutUint32(b[24:], crc)
	binary.LittleEndian.PutUint32(b[28:], filter)
}

// section reads one dictionary section that fills b.
func section(b []byte) (dict, error) {
	r := reader{b: b}
	d, err := r.dict()
	if err == nil && len(r.b) != 0 {
		err = corrupt("%d trailing bytes after a dictionary", len(r.b))
	}
	return d, err
}
