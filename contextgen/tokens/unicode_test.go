package tokens

import (
	"testing"
	"unicode"
)

// classFromPackage is classOf computed from package unicode's tables, as the
// split computed it before unicode.go: the library (through regexp2) sees
// runes this way.
func classFromPackage(r rune) uint8 {
	var k uint8
	switch {
	case r == '\t' || r == '\n' || r == '\v' || r == '\f' || r == '\r' || r == ' ' || r == 0x85 || unicode.Is(unicode.Z, r):
		k |= cSpace
	case unicode.IsLetter(r):
		k |= cLetter
	case unicode.IsNumber(r):
		k |= cNumber
	}
	if unicode.In(r, unicode.Lu, unicode.Lt, unicode.Lm, unicode.Lo, unicode.M) {
		k |= cUpper
	}
	if unicode.In(r, unicode.Ll, unicode.Lm, unicode.Lo, unicode.M) {
		k |= cLower
	}
	if k&(cSpace|cLetter|cNumber) == 0 {
		k |= cPunct
	}
	if k&(cLetter|cNumber) == 0 && r != '\r' && r != '\n' {
		k |= cPrefix
	}
	if r == '\r' || r == '\n' {
		k |= cNewline
	}
	return k
}

// newerThanPackage reports whether s holds a rune whose classes differ
// from package unicode's (one assigned since its Unicode version).
func newerThanPackage(s string) bool {
	for _, r := range s {
		if classOf(r) != classFromPackage(r) {
			return true
		}
	}
	return false
}

// TestClassTable checks unicode.go against package unicode for every code
// point: they agree except on code points package unicode's version has not
// assigned (which it classes as punctuation), and the table knows letters,
// numbers and marks of Unicode 16.
func TestClassTable(t *testing.T) {
	newer := 0
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if r >= 0xD800 && r <= 0xDFFF {
			continue // not in valid UTF-8
		}
		got, old := classOf(r), classFromPackage(r)
		if got == old {
			continue
		}
		if old != cPunct|cPrefix {
			t.Errorf("U+%04X: classes %08b, package unicode %08b", r, got, old)
		}
		newer++
	}
	t.Logf("%d code points newer than package unicode's Unicode %s", newer, unicode.Version)
	for _, tc := range []struct {
		r    rune
		want uint8
	}{
		{0xA7DC, cLetter | cUpper},                    // LATIN CAPITAL LETTER LAMBDA WITH STROKE (16.0)
		{0xA7CD, cLetter | cLower},                    // LATIN SMALL LETTER S WITH DIAGONAL STROKE (16.0)
		{0x2EBF0, cLetter | cUpper | cLower},          // CJK Extension I (15.1): Lo
		{0x116D0, cNumber},                            // MYANMAR PAO DIGIT ZERO (16.0)
		{0x10D69, cUpper | cLower | cPunct | cPrefix}, // GARAY VOWEL SIGN E (16.0): Mn
	} {
		if got := classOf(tc.r); got != tc.want {
			t.Errorf("classOf(U+%04X) = %08b, want %08b", tc.r, got, tc.want)
		}
	}
}

// TestCountNewerUnicode compares counts of text with letters, numbers and
// marks that package unicode does not know with tiktoken's (npm
// tiktoken@1.0.22, recorded); with package unicode's classes the first
// three are one token more.
func TestCountNewerUnicode(t *testing.T) {
	for _, tc := range []struct {
		text          string
		o200k, cl100k int
	}{
		{"\U0000A7DC\\x", 4, 4},
		{"b\U0000A7DC\U0000A7DC\\x1", 9, 9},
		{"x\U0000A7CB\U0000A7CB\\n", 8, 8},
		{"abc\U0000A7DCdef \U0000A7DC\U0000A7DC\U0000A7DC", 14, 14},
		{"\U0002EBF0\U0002EBF1 漢字", 11, 12},
		{"a\U00010D40\U00010D41b 12\U000116D03", 17, 17},
	} {
		if !newerThanPackage(tc.text) {
			t.Errorf("%q: nothing newer than package unicode in it", tc.text)
		}
		for enc, want := range map[string]int{O200kBase: tc.o200k, Cl100kBase: tc.cl100k} {
			if got := fast(enc, tc.text); got != want {
				t.Errorf("%s: count(%q) = %d, tiktoken %d", enc, tc.text, got, want)
			}
		}
	}
}
