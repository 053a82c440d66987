package memory

import (
	"encoding/binary"
	"math"
	"path"
	"runtime"
	"slices"
	"sort"
	"strings"
)

// mergeText writes the content/ident dictionary: the old postings with
// document IDs mapped through keep (dropping -1), followed by the fresh
// postings, whose IDs are offset by nOld.
func mergeText(old *dict, nOldDocs int, keep []int, nOld int, fl *freshLists) []byte {
	terms := fl.sorted()
	if old.n == 0 && nOld == 0 {
		return freshSection(terms)
	}
	postBytes := 0
	for _, t := range terms {
		postBytes += len(t.l.buf) + 4
	}
	w := newDictWriter(old.n+len(terms), len(old.strs)+len(terms)*8, len(old.posts)+postBytes)
	var scratch listBuilder
	same := sortedIdentity(keep) && len(keep) == nOldDocs
	i, j := 0, 0
	for i < old.n || j < len(terms) {
		if j < len(terms) && nOld == 0 && (i >= old.n || string(old.termBytes(i)) > terms[j].t) {
			// a term only fresh documents have, and their IDs need no offset
			w.add(terms[j].t, terms[j].l.df, terms[j].l.buf)
			j++
			continue
		}
		var term []byte
		fromOld, fromNew := false, false
		switch {
		case j >= len(terms):
			term, fromOld = old.termBytes(i), true
		case i >= old.n:
			term, fromNew = []byte(terms[j].t), true
		default:
			ob := old.termBytes(i)
			c := strings.Compare(string(ob), terms[j].t)
			switch {
			case c < 0:
				term, fromOld = ob, true
			case c > 0:
				term, fromNew = []byte(terms[j].t), true
			default:
				term, fromOld, fromNew = ob, true, true
			}
		}
		if fromOld && !fromNew && same {
			// copy the run of old terms up to the next fresh one at once
			k := old.n
			if j < len(terms) {
				t := terms[j].t
				k = i + sort.Search(old.n-i, func(x int) bool { return string(old.termBytes(i+x)) >= t })
			}
			w.addRawRun(old, i, k)
			i = k
			continue
		}
		scratch.buf, scratch.df, scratch.last = scratch.buf[:0], 0, 0
		if fromOld && same && scanList(old.postings(i), nOldDocs, &scratch) {
			// every entry kept with its ID: the list as it is
			i++
		} else if fromOld {
			it := newIter(old.postings(i), nOldDocs)
			for it.next() {
				if nd := keep[it.doc]; nd >= 0 {
					scratch.add(uint32(nd), it.tf[0], it.tf[1])
				}
			}
			i++
		}
		if fromNew {
			appendList(&scratch, terms[j].l, uint32(nOld))
			j++
		}
		if scratch.df > 0 {
			w.add(string(term), scratch.df, scratch.buf)
		}
	}
	return w.appendTo(nil)
}

// freshSection is mergeText's section when every document is fresh (a
// cold build): the terms' lists as they are, laid out straight into the
// section at offsets known beforehand, on two goroutines when there are
// many terms. It writes what a dictWriter adding each term would.
func freshSection(terms []termList) []byte {
	n := len(terms)
	mid := n
	if n >= 1<<14 && runtime.GOMAXPROCS(0) >= 2 {
		mid = n / 2
	}
	// the bytes of terms and lists before mid and in all
	var strs, posts, strsMid, postsMid int
	for i, t := range terms {
		if i == mid {
			strsMid, postsMid = strs, posts
		}
		strs += len(t.t)
		posts += uvarintLen(uint64(t.l.df)) + len(t.l.buf)
	}
	if mid == n {
		strsMid, postsMid = strs, posts
	}
	tabs := 4 + 8*(n+1)
	b := make([]byte, tabs+strs+posts)
	binary.LittleEndian.PutUint32(b, uint32(n))
	strOff, postOff := b[4:4+4*(n+1)], b[4+4*(n+1):tabs]
	strArea, postArea := b[tabs:tabs+strs], b[tabs+strs:]
	fill := func(lo, hi, s, p int) {
		for i := lo; i < hi; i++ {
			t := terms[i]
			s += copy(strArea[s:], t.t)
			p += binary.PutUvarint(postArea[p:], uint64(t.l.df))
			p += copy(postArea[p:], t.l.buf)
			binary.LittleEndian.PutUint32(strOff[4*(i+1):], uint32(s))
			binary.LittleEndian.PutUint32(postOff[4*(i+1):], uint32(p))
		}
	}
	if mid == n {
		fill(0, n, 0, 0)
		return b
	}
	done := make(chan struct{})
	go func() {
		fill(mid, n, strsMid, postsMid)
		close(done)
	}()
	fill(0, mid, 0, 0)
	<-done
	return b
}

// scanList sets l to list (a posting list in file encoding) if it is well
// formed: the df entries an iter would give, in canonical encoding, and
// nothing after them, so that l holds what adding each entry would have
// built. It reports whether it did.
func scanList(list []byte, n int, l *listBuilder) bool {
	df, k := binary.Uvarint(list)
	if k <= 0 || k != uvarintLen(df) || df > uint64(len(list)) {
		return false
	}
	body := list[k:]
	b := body
	var doc uint64
	for e := uint64(0); e < df; e++ {
		for j := range 3 {
			v, m := binary.Uvarint(b)
			if m <= 0 || m != uvarintLen(v) || v > math.MaxUint32 {
				return false
			}
			b = b[m:]
			if j == 0 {
				if e == 0 {
					doc = v
				} else if v == 0 {
					return false
				} else {
					doc += v
				}
				if doc >= uint64(n) {
					return false
				}
			}
		}
	}
	if len(b) != 0 {
		return false
	}
	l.buf = append(l.buf[:0], body...)
	l.df = uint32(df)
	l.last = uint32(doc)
	return true
}

func uvarintLen(v uint64) int {
	n := 1
	for v >= 0x80 {
		v >>= 7
		n++
	}
	return n
}

func sortedIdentity(keep []int) bool {
	for i, k := range keep {
		if k != i {
			return false
		}
	}
	return true
}

// appendList appends src, with its IDs offset by off (all exceeding dst's),
// to dst.
func appendList(dst, src *listBuilder, off uint32) {
	if src.df == 0 {
		return
	}
	first, k := binary.Uvarint(src.buf)
	first += uint64(off)
	if dst.df == 0 {
		dst.buf = binary.AppendUvarint(dst.buf, first)
	} else {
		dst.buf = binary.AppendUvarint(dst.buf, first-uint64(dst.last))
	}
	dst.buf = append(dst.buf, src.buf[k:]...)
	dst.df += src.df
	dst.last = src.last + off
}

// buildPaths writes the path/name dictionary and sets each document's path
// and name field lengths.
func buildPaths(docs []docInfo) []byte {
	a := newAnalyzer()
	a.stems = make(map[string]string, len(docs))
	// the terms so far, numbered in order of appearance, and their lists
	ids := make(map[string]int32, len(docs))
	var names []string
	var lists []listBuilder
	// seen[i] is where term i is in the document's counts, valid while
	// seenIn[i] is the document's ID + 1
	var seen, seenIn []int32
	type count struct {
		term int32
		tf   [2]uint32 // in the path, in the name
	}
	var counts []count
	termID := func(t string) int32 {
		i, ok := ids[t]
		if !ok {
			i = int32(len(names))
			ids[t] = i
			names = append(names, t)
			lists = append(lists, listBuilder{})
			seen, seenIn = append(seen, 0), append(seenIn, 0)
		}
		return i
	}
	// Files share directories: a directory is analysed once.
	dirs := make(map[string][]int32, len(docs)/4)
	for id := range docs {
		d := &docs[id]
		d.lens[fPath], d.lens[fName] = 0, 0
		if d.flags != 0 {
			continue
		}
		counts = counts[:0]
		add := func(i int32, field int) {
			if seenIn[i] != int32(id)+1 {
				seenIn[i], seen[i] = int32(id)+1, int32(len(counts))
				counts = append(counts, count{term: i})
			}
			counts[seen[i]].tf[field-fPath]++
			d.lens[field]++
		}
		dir, base := path.Split(d.rel)
		terms, ok := dirs[dir]
		if !ok {
			terms = []int32{}
			a.dirTerms(dir, func(t string) { terms = append(terms, termID(t)) })
			dirs[dir] = terms
		}
		for _, i := range terms {
			add(i, fPath)
		}
		a.nameTerms(base, func(t string) { add(termID(t), fName) })
		for _, c := range counts {
			lists[c.term].add(uint32(id), c.tf[0], c.tf[1])
		}
	}
	order := make([]int32, len(names))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(x, y int32) int { return strings.Compare(names[x], names[y]) })
	w := newDictWriter(len(names), len(names)*8, len(docs)*16)
	for _, i := range order {
		w.add(names[i], lists[i].df, lists[i].buf)
	}
	return w.appendTo(nil)
}
