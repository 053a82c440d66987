package memory

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/kljensen/snowball/english"
)

// stemTests are words chosen to reach every branch of the stemmer: the
// library's exceptions, R1 after gener/commun/arsen, consonant y's, and the
// suffixes of every step in and out of their regions.
var stemTests = strings.Fields(`
a i y s e ab ay ya yy yyy yay aye bye by sky sly say says dye eye yes
gas this kiwis gaps ties tie cries cried lied dies pies spies ponies caresses
generously generously generation generate general generic gener generals
communism community commune communication commun arsenal arsenic arsen arsenals
skis skies dying lying tying idly gently ugly early only singly news howe atlas
cosmos bias andes inning innings outing outings canning cannings herring herrings
earring earrings proceed proceeds proceeded proceeding exceed exceeds exceeded
exceeding succeed succeeds succeeded succeeding
yellow yelling sayings saying enjoying enjoyed toy toys boy boyish annoying
played playing prayer buyer eyed eying youth yearly rhythm syzygy yay yayy
agreed agreedly feed feedly speed speedly bleed reed deed indeed need needly
hoping hopingly sing singing singingly thing things king ring string stringing
falling filling hopped hoping hoped fitted fitting hummed humming bedded robbed
conflated troubled sized luxuriating hissing hissed failed failing filing
rated tanned fanned planned jogged bugged stirred hurried hurry happy sorry
relational conditional rational valency hesitancy digitizer conformabli
radically vietnamization operator feudalism decisiveness hopefulness
callousness formaliti sensitiviti sensibiliti fruitfulli fulli ousli noisli
ousness biliti lessli carelessli alli entli anci enci abli bli ogi logi
analogi geologi astrologi archeologi li cli dli eli gli hli kli mli nli rli tli
ali bli oli pli sli uli vli wli zli quickli neatli thrifli
triplicate formative formalize electriciti electrical hopeful goodness
revival allowance inference airliner gyroscopic adjustable defensible
irritant replacement adjustment dependent adoption extension evaluation
communism activate angulariti homologous effective bowdlerize
probate rate cease controll roll rolled rolling
ational tional alism aliti ation entli fulli iviti ousli ization fulness
iveness ousness alize icate ative iciti ical ful ness ement ance ence able
ible ment ent ant ism ate iti ous ive ize ion al er ic sses ied ies us ss
eed eedly ing ingly edly ed at bl iz bb dd ff gg mm nn pp rr tt ll
biliti bility abiliti ability generalization generalizations
uses used using user users usual usually useful usefully usefulness
x2 utf8 a1 1a 12 123 1234 12345 abc123 v2ing 3ed 4ies 5s 0s s0 z9y y9y
int64 md5sum sha256 x86 arm64 ipv6 h2c http2 go1 amd64p32 ed25519 ring0
aaa aas aes ees eis ois uys ays iis ss sss ssss sess sses ssses
bed bled abed ued aed ied oed ying ing ings aing eing bing
nationally rationally sensationally conventionally traditionally
rolls rollers controller controlled controlling
argument arguments archaeology archaeological hyphenate hyphenation
`)

// goSourceWords returns the distinct lower-case word parts of the Go
// source tree, split as the tokeniser splits identifiers, and the whole
// words lower-cased, sorted. To keep the test fast it reads one .go file
// in every fileStride, across the whole tree.
var goSourceWords = sync.OnceValue(func() []string {
	const fileStride = 8
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return nil
	}
	root := filepath.Join(strings.TrimSpace(string(out)), "src")
	a := newAnalyzer()
	unseparated := strings.NewReplacer("_", "", "-", "")
	seen := make(map[string]bool)
	add := func(w string) {
		w = strings.ToLower(w)
		if simpleASCII(w) && !seen[w] {
			seen[w] = true
		}
	}
	files := 0
	filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
			return nil
		}
		if files++; files%fileStride != 0 {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return nil
		}
		a.words(string(data), func(w string) {
			for _, p := range a.split(w) {
				add(p)
			}
			if len(w) <= maxTermLen {
				add(unseparated.Replace(w))
			}
		})
		return nil
	})
	words := make([]string, 0, len(seen))
	for w := range seen {
		words = append(words, w)
	}
	slices.Sort(words)
	// Lay the words out in one string, in order, as a tokeniser meets
	// them in a text: a benchmark then measures stemming, not cache misses.
	all := strings.Join(words, "")
	for i, w := range words {
		words[i], all = all[:len(w)], all[len(w):]
	}
	return words
})

// simpleASCII reports whether w is in stemASCII's test domain: lower-case
// letters and digits.
func simpleASCII(w string) bool {
	for i := 0; i < len(w); i++ {
		if c := w[i]; (c < 'a' || c > 'z') && (c < '0' || c > '9') {
			return false
		}
	}
	return true
}

func checkStem(t *testing.T, w string) {
	t.Helper()
	want := english.Stem(w, true)
	if got := stemASCII(w); got != want {
		t.Errorf("stemASCII(%q) = %q, want %q", w, got, want)
	}
	if got := stem(w); got != want {
		t.Errorf("stem(%q) = %q, want %q", w, got, want)
	}
}

func TestStemASCIIGoSource(t *testing.T) {
	words := goSourceWords()
	if words == nil {
		t.Skip("no Go source tree (go env GOROOT failed)")
	}
	if len(words) < 10000 {
		t.Fatalf("%d words in the Go source tree, want more than 10000", len(words))
	}
	for _, w := range words {
		checkStem(t, w)
	}
}

func TestStemASCIIWords(t *testing.T) {
	for _, w := range stemTests {
		checkStem(t, w)
	}
}

// TestStemASCIISuffixes stems every short stem followed by one or two
// suffixes of the algorithm's steps, and every word of up to three letters.
func TestStemASCIISuffixes(t *testing.T) {
	suffixes := strings.Fields(`ational tional alism aliti ation entli fulli
iviti ousli ization fulness iveness ousness biliti lessli anci abli alli
ator enci izer bli ogi li alize icate ative iciti ical ful ness ement ance
ence able ible ment ent ant ism ate iti ous ive ize ion al er ic sses ied
ies us ss s eed eedly ing ingly edly ed at bl iz bb dd ff gg mm nn pp rr
tt ll l e y ly`)
	suffixes = append(suffixes, "")
	stems := strings.Fields(`gener commun arsen generat communi arsena
sky dy ly ty ski howe`)
	stems = append(stems, "")
	for _, c := range "abeilnstwxy" {
		stems = append(stems, string(c))
		for _, d := range "abelsy" {
			stems = append(stems, string(c)+string(d))
		}
	}
	for _, s := range stems {
		for _, x := range suffixes {
			for _, y := range suffixes {
				checkStem(t, s+x+y)
			}
		}
	}
	for c := 'a'; c <= 'z'; c++ {
		for d := 'a'; d <= 'z'; d++ {
			for e := 'a'; e <= 'z'; e++ {
				checkStem(t, string([]rune{c, d, e}))
			}
		}
	}
}

// TestStemNonASCII checks that words stemASCII does not take (upper case,
// white space, apostrophes, non-ASCII) reach the library unchanged.
func TestStemNonASCII(t *testing.T) {
	for _, w := range []string{"Running", " running", "running\n", "dog's", "'tis", "‘quoted’", "naïvely", "cafés", "caresses\xff"} {
		if got, want := stem(w), english.Stem(w, true); got != want {
			t.Errorf("stem(%q) = %q, want %q", w, got, want)
		}
	}
}

func TestStemASCIIAllocs(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	for _, w := range []string{"running", "generalizations", "connection", "hopefulness"} {
		if n := testing.AllocsPerRun(100, func() { stemASCII(w) }); n != 0 {
			t.Errorf("stemASCII(%q) allocates %v times, want 0", w, n)
		}
	}
}

// FuzzStemASCII compares stemASCII and stem with the library: on the input
// mapped into lower-case letters and digits, on the input mapped into
// printable ASCII, and on the input itself lower-cased.
func FuzzStemASCII(f *testing.F) {
	for _, w := range stemTests {
		f.Add(w)
	}
	const alnum = "abcdefghijklmnopqrstuvwxyz0123456789"
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 4*maxTermLen {
			return
		}
		b := []byte(s)
		for i, c := range b {
			if (c < 'a' || c > 'z') && (c < '0' || c > '9') {
				b[i] = alnum[int(c)%len(alnum)]
			}
		}
		checkStem(t, string(b))

		b = []byte(s)
		for i, c := range b {
			b[i] = '!' + c%('~'-'!'+1)
		}
		if w := strings.ToLower(string(b)); stem(w) != english.Stem(w, true) {
			t.Errorf("stem(%q) = %q, want %q", w, stem(w), english.Stem(w, true))
		}

		if w := strings.ToLower(s); stem(w) != english.Stem(w, true) {
			t.Errorf("stem(%q) = %q, want %q", w, stem(w), english.Stem(w, true))
		}
	})
}

// BenchmarkStem stems the word parts of the Go source tree with the
// library and with stemASCII.
func BenchmarkStem(b *testing.B) {
	words := goSourceWords()
	for _, bm := range []struct {
		name string
		stem func(string) string
	}{
		{"library", func(w string) string { return english.Stem(w, true) }},
		{"ascii", stemASCII},
	} {
		b.Run(bm.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				for _, w := range words {
					bm.stem(w)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(words)), "ns/word")
		})
	}
}
