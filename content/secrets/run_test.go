package secrets

import (
	"math/rand"
	"slices"
	"testing"

	"github.com/taskctl/taskctl/internal/lazyregexp"
)

// TestRunMatchesOneWalk checks that the side-by-side walks of run report
// exactly what one walk over the whole data does, in the same order, on
// data of every length that is dense with keywords, parts of keywords and
// keywords cut by the walks' boundaries.
func TestRunMatchesOneWalk(t *testing.T) {
	m := loadMatcher()
	r := rand.New(rand.NewSource(1))
	for n := 0; n < 20000; n++ {
		var data []byte
		for size := r.Intn(2000); len(data) < size; {
			if r.Intn(5) > 0 {
				data = append(data, "aAsS_ -x\n"[r.Intn(9)])
				continue
			}
			kw := m.keywords[r.Intn(len(m.keywords))].text
			k := r.Intn(len(kw) + 1)
			data = append(data, kw[:k]...)
			if r.Intn(2) == 0 {
				data = append(data, kw[k:]...)
			}
		}
		var got, want []int
		m.run(data, func(kw, end int) { got = append(got, kw, end) })
		m.walk(data, 0, 0, func(kw, end int) { want = append(want, kw, end) })
		if !slices.Equal(got, want) {
			t.Fatalf("%d bytes %q:\nrun reported  %v (keyword, end pairs)\none walk gave %v", len(data), data, got, want)
		}
	}
}

// TestMayAssignKeepsEveryMatch checks that mayAssign, which spares the line
// rules' expressions, never turns away a window they match: on lines of a
// key name around a keyword (with folded and non-ASCII letters), then
// quotes, white space, "string" in any case or folding, operators and
// values, each window a line rule's expression matches must be one
// mayAssign lets through. It also checks that the test is not vacuous:
// that some windows match and that mayAssign turns some away.
func TestMayAssignKeepsEveryMatch(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	keywords := []string{"password", "Secret", "TOKEN", "api_key", "aws_secret_access_key", "AWS_SECRET_KEY", "private-key"}
	name := []string{"a", "Z", "9", "_", ".", "-", "ſ", "K", "é"}
	after := []string{`"`, "'", "`", " ", "\t", "\v", "\f", "\r", " string", " STRING", " ſtring", "string",
		":=", "=>", "?=", "+=", "=", ":", "::", "(", ".", ")", ",", "ſ", "x",
		"wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "s3cr3tV4lu3xyz", `"Zx9yQw8vLp7mNk6j"`, "'abc123def456ghi'"}
	matched, refused := 0, 0
	for n := 0; n < 200000; n++ {
		var b []byte
		for range r.Intn(3) {
			b = append(b, name[r.Intn(len(name))]...)
		}
		b = append(b, keywords[r.Intn(len(keywords))]...)
		from := len(b)
		for range r.Intn(3) {
			b = append(b, name[r.Intn(len(name))]...)
		}
		for range r.Intn(6) {
			b = append(b, after[r.Intn(len(after))]...)
		}
		may := mayAssign(b, from)
		if !may {
			refused++
		}
		for _, re := range []*lazyregexp.Regexp{genericRe, awsSecretRe} {
			if re.Re().Match(b) {
				matched++
				if !may {
					t.Fatalf("%q (keyword ending at %d): the expression %v matches, mayAssign says it cannot", b, from, re.Re())
				}
			}
		}
	}
	if matched < 1000 || refused < 1000 {
		t.Fatalf("%d windows matched, %d refused: the lines do not test mayAssign", matched, refused)
	}
}

// TestWalkFindsEveryKeyword checks the automaton against the plain search
// it stands for: every occurrence of every keyword, ASCII case folded, and
// nothing else, on data of keywords in random case cut by bytes inside and
// outside the keywords' classes (control bytes, UTF-8, punctuation).
func TestWalkFindsEveryKeyword(t *testing.T) {
	m := loadMatcher()
	r := rand.New(rand.NewSource(3))
	filler := []byte("aAzZ09_- .:=\"'\n\t\x00\xff\xc3\xa9{}/+")
	for n := 0; n < 5000; n++ {
		var data []byte
		for size := r.Intn(400); len(data) < size; {
			if r.Intn(3) > 0 {
				data = append(data, filler[r.Intn(len(filler))])
				continue
			}
			for _, c := range m.keywords[r.Intn(len(m.keywords))].text {
				if r.Intn(2) == 0 {
					c = lower(c)
				} else if 'a' <= c && c <= 'z' {
					c -= 'a' - 'A'
				}
				data = append(data, c)
			}
		}
		var got, want [][2]int
		m.walk(data, 0, 0, func(kw, end int) { got = append(got, [2]int{kw, end}) })
		for kw, k := range m.keywords {
			for end := len(k.text); end <= len(data); end++ {
				if foldEqual(data[end-len(k.text):end], k.text) {
					want = append(want, [2]int{kw, end})
				}
			}
		}
		order := func(a, b [2]int) int {
			if a[1] != b[1] {
				return a[1] - b[1]
			}
			return a[0] - b[0]
		}
		if HasKeyword(string(data)) != (len(want) > 0) {
			t.Fatalf("%q: HasKeyword says %v, the search found %d keywords", data, !(len(want) > 0), len(want))
		}
		slices.SortFunc(got, order)
		slices.SortFunc(want, order)
		if !slices.Equal(got, want) {
			t.Fatalf("%q:\nautomaton found %v (keyword, end)\nsearch found    %v", data, got, want)
		}
	}
}

func foldEqual(a, b []byte) bool {
	for i := range a {
		if lower(a[i]) != lower(b[i]) {
			return false
		}
	}
	return len(a) == len(b)
}
