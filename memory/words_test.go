package memory

import (
	"math/rand"
	"strings"
	"sync"
	"testing"
	"unicode"
)

// fnvCollisions returns 2^stages distinct camel-case words of the same
// FNV-1a hash (32 bits), the hash the word table used to be keyed by: for
// each stage, two six-letter blocks that take the hash from the state so
// far to the same state (found by the birthday bound, about 2^16 tries);
// every choice of one block per stage gives the same final hash.
func fnvCollisions(t *testing.T, stages int) []string {
	t.Helper()
	const basis, prime = 2166136261, 16777619
	fnv := func(h uint32, s string) uint32 {
		for i := 0; i < len(s); i++ {
			h = (h ^ uint32(s[i])) * prime
		}
		return h
	}
	rng := rand.New(rand.NewSource(1))
	block := func() string {
		b := make([]byte, 6)
		for i := range b {
			b[i] = byte('a' + rng.Intn(26))
		}
		b[0] -= 'a' - 'A' // a part of its own (camelCase), with a term
		return string(b)
	}
	h := uint32(basis)
	pairs := make([][2]string, 0, stages)
	for range stages {
		seen := map[uint32]string{}
		for tries := 0; ; tries++ {
			if tries > 1<<22 {
				t.Fatal("no FNV-1a collision found")
			}
			b := block()
			g := fnv(h, b)
			if other, ok := seen[g]; ok && other != b {
				pairs = append(pairs, [2]string{other, b})
				h = g
				break
			}
			seen[g] = b
		}
	}
	words := []string{""}
	for _, p := range pairs {
		next := make([]string, 0, 2*len(words))
		for _, w := range words {
			next = append(next, w+p[0], w+p[1])
		}
		words = next
	}
	for _, w := range words {
		if fnv(basis, w) != h {
			t.Fatalf("%q does not collide", w)
		}
	}
	return words
}

// TestWordTableCraftedCollisions is an attack on the analyser's word table:
// a file of 8,192 distinct words crafted to share a hash. Keyed by that
// hash, a table holds them in one run of slots that each new word walks:
// analysing the file (or a few such files) takes quadratic time, and a
// table keyed by the hash alone takes them all for one word. The table's
// hash is seeded for each process, so no file can be crafted to collide in
// it.
func TestWordTableCraftedCollisions(t *testing.T) {
	words := fnvCollisions(t, 13)
	text := strings.Join(words, " ")
	// The words land in slots of a table of 16,384 as random keys do:
	// in about 16384·(1-e^-0.5) = 6,447 distinct ones.
	const mask = 1<<14 - 1
	home := map[uint64]bool{}
	data := []byte(text)
	marks, _, _ := markWords(data, nil, nil, nil)
	for i := 0; ; {
		start, end := nextRun(marks, i)
		if start == end {
			break
		}
		i = end
		home[hashWord(data, start, end-start)&mask] = true
	}
	if len(home) < 6000 {
		t.Fatalf("the %d crafted words fall in %d slots of %d", len(words), len(home), mask+1)
	}
	// and the analysis is the plain one
	checkDocument(t, newAnalyzer(), newRef(), text)
}

// TestSharedTables analyses the same documents on four analysers at once,
// sharing their word and term tables, as a Refresh's workers do: each
// must get the plain analysis (run with -race, it also checks that the
// tables are read and written safely).
func TestSharedTables(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	pieces := []string{"foo", "Bar", "HTTPServer", "utf8", "-", "_", "func", "class", " ", "\n", "é", "readConfigs", "k8s", "the", "running", "x-y", "2024"}
	docs := make([]string, 64)
	for i := range docs {
		var b strings.Builder
		for range 200 {
			b.WriteString(pieces[rng.Intn(len(pieces))])
			if rng.Intn(3) == 0 {
				for range 3 {
					b.WriteByte(byte('a' + rng.Intn(26)))
				}
				b.WriteByte(' ')
			}
		}
		docs[i] = b.String()
	}
	fl := newFreshLists(0, 0) // small tables: some words find them full
	type result struct {
		tf   map[uint32][2]uint32
		lens [2]uint32
	}
	const workers = 4
	got := make([][]result, workers)
	var wg sync.WaitGroup
	for k := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			a := fl.analyzer()
			for i := range docs {
				d := docs[(i+k*16)%len(docs)]
				dt := a.document([]byte(d))
				r := result{tf: map[uint32][2]uint32{}, lens: dt.lens}
				for j, id := range dt.ids {
					r.tf[id] = dt.tfs[j]
				}
				got[k] = append(got[k], r)
			}
		}()
	}
	wg.Wait()
	if fl.words.room.Load() > 0 || !fl.table.terms.full.Load() {
		t.Fatal("the tables did not fill: the test no longer covers their fallbacks")
	}
	for k := range workers {
		for i, r := range got[k] {
			d := docs[(i+k*16)%len(docs)]
			want, lens := newRef().document(d)
			if r.lens != lens || len(r.tf) != len(want) {
				t.Fatalf("worker %d, document %d: lens %v, %d terms; want %v, %d", k, i, r.lens, len(r.tf), lens, len(want))
			}
			for id, tf := range r.tf {
				if term := fl.table.names[id]; want[term] != tf {
					t.Fatalf("worker %d, document %d: %q tf %v, want %v", k, i, term, tf, want[term])
				}
			}
		}
	}
}

// TestCharClass checks charClass, whose ASCII answers are written out,
// against the unicode tables for every rune up to U+2FFF.
func TestCharClass(t *testing.T) {
	for r := rune(0); r < 0x3000; r++ {
		want := 0
		switch {
		case unicode.IsUpper(r):
			want = 1
		case unicode.IsDigit(r):
			want = 3
		case unicode.IsLetter(r):
			want = 2
		}
		if got := charClass(r); got != want {
			t.Fatalf("charClass(%q) = %d, the unicode tables say %d", r, got, want)
		}
	}
}
