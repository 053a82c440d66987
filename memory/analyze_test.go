package memory

import (
	"bytes"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unsafe"
)

type refTerm struct {
	term  string
	whole bool
}

// refAnalyzer is the straightforward analysis document must match: words,
// then identifier on each (once per distinct word, as the analyser caches
// words), with the definer rule.
type refAnalyzer struct {
	a     *analyzer
	cache map[string][]refTerm
}

func newRef() *refAnalyzer { return &refAnalyzer{newAnalyzer(), map[string][]refTerm{}} }

func (r *refAnalyzer) document(text string) (map[string][2]uint32, [2]uint32) {
	a := r.a
	tf := map[string][2]uint32{}
	var lens [2]uint32
	bump := func(t string, f int) {
		c := tf[t]
		c[f]++
		tf[t] = c
		lens[f]++
	}
	defining := false
	a.words(text, func(w string) {
		def := defining
		defining = isDefiner([]byte(w))
		ts, ok := r.cache[w]
		if !ok {
			a.identifier(w, func(term string, whole bool) { ts = append(ts, refTerm{term, whole}) })
			r.cache[w] = ts
		}
		for _, t := range ts {
			if t.whole {
				bump(t.term, fIdent)
				continue
			}
			bump(t.term, fContent)
			if def {
				bump(t.term, fIdent)
			}
		}
	})
	return tf, lens
}

func checkDocument(t *testing.T, a *analyzer, ref *refAnalyzer, text string) {
	t.Helper()
	dt := a.document([]byte(text))
	got := map[string][2]uint32{}
	for i, id := range dt.ids {
		got[a.table.names[id]] = dt.tfs[i]
	}
	want, lens := ref.document(text)
	if dt.lens != lens || len(got) != len(want) {
		t.Fatalf("%q: lens %v, %d terms; want %v, %d terms", trunc(text), dt.lens, len(got), lens, len(want))
	}
	for k, v := range want {
		if got[k] != v {
			t.Fatalf("%q: term %q tf %v, want %v", trunc(text), k, got[k], v)
		}
	}
}

func trunc(s string) string {
	if len(s) > 200 {
		return s[:200] + "…"
	}
	return s
}

// TestDocumentMatchesWords checks that the byte tokeniser of document
// splits and analyses text exactly as words and identifier do.
func TestDocumentMatchesWords(t *testing.T) {
	a, ref := newAnalyzer(), newRef()
	pieces := []string{"foo", "Bar", "HTTPServer", "utf8", "-", "--", "_", "__x", "func", "class", " ", "\n", "é", "日本", "\xff", "\xe2\x82",
		"ÉCOLE", "ǅ", "x-y", "a1b2", "123456", "the", "running", "ß", "İ", "٣", "parseHTTPRequest", "parsehttprequest", "foobar", "readconfigs", "readConfigs", "k8s", "-flag", "a-", strings.Repeat("z", 170),
		"0x", "0xff", "0xdead", "0XBEEF", "0x8g00", "a1b2c3d", "a1b2c3d4", "42", "7", "2024"}
	rng := rand.New(rand.NewSource(1))
	for range 3000 {
		var b strings.Builder
		for range rng.Intn(30) {
			b.WriteString(pieces[rng.Intn(len(pieces))])
		}
		checkDocument(t, a, ref, b.String())
	}
	for range 300 { // long: runs and runes across 64-byte blocks
		var b strings.Builder
		for range 100 + rng.Intn(300) {
			b.WriteString(pieces[rng.Intn(len(pieces))])
		}
		checkDocument(t, a, ref, b.String())
	}
	for range 300 {
		buf := make([]byte, rng.Intn(64))
		for i := range buf {
			buf[i] = byte(rng.Intn(256))
		}
		checkDocument(t, a, ref, string(buf))
	}
	// this package's own sources
	own, _ := filepath.Glob("*.go")
	for _, f := range own {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		checkDocument(t, a, ref, string(data))
		checkDocument(t, newAnalyzer(), newRef(), string(data))
	}
}

// TestMarkWords checks the word runs of markWords against the words of
// words, byte for byte, on texts of every length around a few blocks of
// 64 bytes, mixing ASCII, runes of two to four bytes (letters and not),
// broken runes and hyphens, so that every kind of byte falls on every
// place of a block.
func TestMarkWords(t *testing.T) {
	a := newAnalyzer()
	pieces := []string{"a", "Z9", "_", "-", "--", " ", ".", "é", "€", "日本", "𝔘", "😀", "\xff", "\xe2\x82", "\xf0\x9f", "x-y", "-z", "q-"}
	rng := rand.New(rand.NewSource(7))
	var m, w, h []uint64
	for n := range 4000 {
		var b strings.Builder
		for b.Len() < n%260 {
			b.WriteString(pieces[rng.Intn(len(pieces))])
		}
		text := b.String()
		var want [][2]int
		a.words(text, func(word string) {
			start := int(uintptr(unsafe.Pointer(unsafe.StringData(word))) - uintptr(unsafe.Pointer(unsafe.StringData(text))))
			want = append(want, [2]int{start, start + len(word)})
		})
		m, w, h = markWords([]byte(text), m, w, h)
		var got [][2]int
		for i := 0; ; {
			start, end := nextRun(m, i)
			if start == end {
				break
			}
			got = append(got, [2]int{start, end})
			i = end
		}
		if !slices.Equal(got, want) {
			t.Fatalf("%q: runs %v, words at %v", text, got, want)
		}
	}
}

// randomFreshLists draws 40,000 random terms of up to 12 letters from
// a-h (some 30,000 distinct), numbering them in a fresh table, and lets
// post add to each drawn term's list.
func randomFreshLists(seed int64, post func(rng *rand.Rand, l *listBuilder)) *freshLists {
	fl := newFreshLists(0, 0)
	rng := rand.New(rand.NewSource(seed))
	for range 40000 {
		b := make([]byte, 1+rng.Intn(12))
		for i := range b {
			b[i] = "abcdefgh"[rng.Intn(8)]
		}
		id := fl.table.termID(string(b))
		for int(id) >= len(fl.lists) {
			fl.lists = append(fl.lists, listBuilder{})
		}
		post(rng, &fl.lists[id])
	}
	return fl
}

// TestFreshListsSorted checks the order of fresh terms, which the text
// section's binary search relies on: radix-sorted by their first eight
// bytes, then by the next eight and by the whole term where those are the
// same.
func TestFreshListsSorted(t *testing.T) {
	fl := randomFreshLists(4, func(_ *rand.Rand, l *listBuilder) {
		if l.df == 0 {
			l.add(0, 1, 0)
		}
	})
	// terms that share their first eight bytes, or sixteen, in reverse
	// order, and runs of equal keys longer than insertion sorts
	for i := 2000; i > 0; i-- {
		id := fl.table.termID(fmt.Sprintf("prefixed%c%d", 'a'+i%26, i))
		for int(id) >= len(fl.lists) {
			fl.lists = append(fl.lists, listBuilder{})
		}
		fl.lists[id].add(0, 1, 0)
		id = fl.table.termID(fmt.Sprintf("sixteen-bytes-to%c%d", 'a'+i%3, i%40))
		for int(id) >= len(fl.lists) {
			fl.lists = append(fl.lists, listBuilder{})
		}
		fl.lists[id].add(0, 1, 0)
		id = fl.table.termID(fmt.Sprintf("eightbyt%c", 'z'-i%20))
		for int(id) >= len(fl.lists) {
			fl.lists = append(fl.lists, listBuilder{})
		}
		fl.lists[id].add(0, 1, 0)
	}
	// terms without postings, in both halves of the order, are left out
	for _, n := range []string{"a0none", "a1none", "hhnone"} {
		id := fl.table.termID(n)
		for int(id) >= len(fl.lists) {
			fl.lists = append(fl.lists, listBuilder{})
		}
	}
	terms := fl.sorted()
	if len(terms) != len(fl.table.names)-3 {
		t.Fatalf("%d sorted terms, %d with postings", len(terms), len(fl.table.names)-3)
	}
	for i := 1; i < len(terms); i++ {
		if terms[i-1].t >= terms[i].t {
			t.Fatalf("terms %d and %d out of order: %q, %q", i-1, i, terms[i-1].t, terms[i].t)
		}
	}
	for _, tl := range terms {
		if tl.l.df == 0 {
			t.Fatalf("%q has no postings", tl.t)
		}
	}
}

// TestFreshSection checks the cold build's section, laid out on two
// goroutines for this many terms, against a dictWriter adding each term.
func TestFreshSection(t *testing.T) {
	fl := randomFreshLists(5, func(rng *rand.Rand, l *listBuilder) {
		doc := l.last + uint32(rng.Intn(300))
		if l.df == 0 || doc != l.last {
			l.add(doc, uint32(1+rng.Intn(200)), uint32(rng.Intn(3)))
		}
	})
	terms := fl.sorted()
	if len(terms) < 1<<14 {
		t.Fatalf("only %d terms: the section is laid out on one goroutine", len(terms))
	}
	w := newDictWriter(len(terms), 0, 0)
	for _, tl := range terms {
		w.add(tl.t, tl.l.df, tl.l.buf)
	}
	want := w.appendTo(nil)
	if got := freshSection(terms); !bytes.Equal(got, want) {
		t.Fatalf("freshSection differs from dictWriter's section (%d and %d bytes)", len(got), len(want))
	}
	d, err := section(freshSection(terms[:3]))
	if err != nil || d.n != 3 || string(d.termBytes(2)) != terms[2].t {
		t.Fatalf("a small section: %v, %d terms", err, d.n)
	}
}

// TestSortTermIDs checks sortTermIDs against a sort of the terms
// themselves, on a few terms (the comparison sort) and on many (the radix
// sort), both with long and short runs of terms sharing their first eight
// bytes.
func TestSortTermIDs(t *testing.T) {
	rng := rand.New(rand.NewSource(9))
	for _, n := range []int{0, 1, 40, 900, 5000} {
		names := make([]string, 0, n)
		seen := map[string]bool{}
		for len(names) < n {
			var w string
			switch rng.Intn(3) {
			case 0: // runs longer than an insertion sort's
				w = fmt.Sprintf("sharedpr%c%d", 'a'+rng.Intn(3), rng.Intn(1000))
			case 1: // runs of a few
				w = fmt.Sprintf("grp%05d%c", rng.Intn(n/3+1), 'z'-rng.Intn(4))
			default:
				w = fmt.Sprintf("%c%c%d", 'a'+rng.Intn(26), 'a'+rng.Intn(26), rng.Intn(100))
			}
			if !seen[w] {
				seen[w] = true
				names = append(names, w)
			}
		}
		keys := make([]uint64, n)
		for i, w := range names {
			keys[i] = termKey(w)
		}
		want := slices.Clone(names)
		slices.Sort(want)
		var got []string
		for _, id := range sortTermIDs(keys, names) {
			got = append(got, names[id])
		}
		if !slices.Equal(got, want) {
			t.Fatalf("%d terms: sorted as %q…", n, got[:min(len(got), 8)])
		}
	}
}
