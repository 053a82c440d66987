package tokens

import (
	"math/bits"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The library splits text into pieces with a backtracking regular
// expression and then runs BPE on each piece; the regexp dominates its time.
// For o200k_base, nextO200k below produces exactly the pieces of the
// encoding's split expression
//
//	[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?
//	|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?
//	|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+
//
// by hand (leftmost alternative first, greedy with backtracking, as the
// regexp engine does), and nextCl100k those of cl100k_base's, for any text.
// The counter tries an ASCII-only path first (asciiO200k, asciiCl100k) and
// falls back to them when a non-ASCII rune could change the piece.
// Byte-pair encoding is count.go's. Tests compare the counts with tiktoken's
// (recorded) and the library's, on tricky strings, the Go source tree and
// under fuzzing (diff_test.go).

// Rune classes of the expressions, as bits. \s is .NET's:
// [\f\n\r\t\v\x85\p{Z}].
const (
	cSpace   = 1 << iota // \s
	cLetter              // \p{L}
	cNumber              // \p{N}
	cUpper               // [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]
	cLower               // [\p{Ll}\p{Lm}\p{Lo}\p{M}]
	cPunct               // [^\s\p{L}\p{N}]
	cPrefix              // [^\r\n\p{L}\p{N}]
	cNewline             // \r, \n (and / where an expression allows it)
)

var asciiClass [256]uint8 // 0 for bytes that are not ASCII

func init() {
	for c := range rune(128) {
		asciiClass[c] = classOf(c)
	}
}

// classOf returns the classes of r, from the tables gen_unicode.mjs
// generates from the Unicode Character Database (unicode.go), of the
// version tiktoken's expressions see: package unicode's tables are older,
// and a letter added since (U+A7DC, say) is a letter to the model's
// tokenizer.
func classOf(r rune) uint8 {
	if r < 0 || r > unicode.MaxRune {
		r = utf8.RuneError
	}
	// The last range starting at or before r.
	lo, hi := 0, len(classStarts)
	for hi-lo > 1 {
		m := int(uint(lo+hi) >> 1)
		if classStarts[m] <= uint32(r) {
			lo = m
		} else {
			hi = m
		}
	}
	return classValues[lo]
}

// at returns the rune at i, its size and its classes; size 0 at the end.
func at(s string, i int) (rune, int, uint8) {
	if i >= len(s) {
		return -1, 0, 0
	}
	if c := s[i]; c < utf8.RuneSelf {
		return rune(c), 1, asciiClass[c]
	}
	r, n := utf8.DecodeRuneInString(s[i:])
	return r, n, classOf(r)
}

// run returns the end of the longest run from i of runes in any of the
// classes of mask.
func run(s string, i int, mask uint8) int {
	for i < len(s) {
		if c := s[i]; c < utf8.RuneSelf {
			if asciiClass[c]&mask == 0 {
				break
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if classOf(r)&mask == 0 {
			break
		}
		i += n
	}
	return i
}

// runNL is [\r\n]* (with slash, [\r\n/]*) from i.
func runNL(s string, i int, slash bool) int {
	for i < len(s) && (s[i] == '\r' || s[i] == '\n' || slash && s[i] == '/') {
		i++
	}
	return i
}

// contraction returns the end of (?i:'s|'t|'re|'ve|'m|'ll|'d) at i, or i.
func contraction(s string, i int) int {
	if i >= len(s) || s[i] != '\'' {
		return i
	}
	lower := func(j int) byte {
		if j >= len(s) {
			return 0
		}
		c := s[j]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		return c
	}
	switch lower(i + 1) {
	case 's', 't', 'm', 'd':
		return i + 2
	case 'r', 'v':
		if lower(i+2) == 'e' {
			return i + 3
		}
	case 'l':
		if lower(i+2) == 'l' {
			return i + 3
		}
	}
	return i
}

// caseWord1 matches [\p{Lu}...]*[\p{Ll}...]+ C? from s, or returns -1.
func caseWord1(str string, s int) int {
	u := run(str, s, cUpper)
	if _, n, k := at(str, u); n > 0 && k&cLower != 0 {
		return contraction(str, run(str, u, cLower))
	}
	// Backtrack U*: the last rune of the U run that is also lowercase-ish
	// starts the [..]+ part, which then ends right after it.
	for k := u; k > s; {
		r, n := utf8.DecodeLastRuneInString(str[:k])
		if classOf(r)&cLower != 0 {
			return contraction(str, k)
		}
		k -= n
	}
	return -1
}

// caseWord2 matches [\p{Lu}...]+[\p{Ll}...]* C? from s, or returns -1.
func caseWord2(str string, s int) int {
	u := run(str, s, cUpper)
	if u == s {
		return -1
	}
	return contraction(str, run(str, u, cLower))
}

// nextO200k returns the end of the piece starting at i (i < len(s)).
func nextO200k(s string, i int) int {
	_, n, k := at(s, i)
	// Alternatives 1 and 2, each first with the optional prefix rune
	// consumed, then without it.
	if k&cPrefix != 0 {
		if e := caseWord1(s, i+n); e > 0 {
			return e
		}
	}
	if k&(cUpper|cLower) != 0 {
		if e := caseWord1(s, i); e > 0 {
			return e
		}
	}
	if k&cPrefix != 0 {
		if e := caseWord2(s, i+n); e > 0 {
			return e
		}
	}
	if k&cUpper != 0 {
		if e := caseWord2(s, i); e > 0 {
			return e
		}
	}
	if k&cNumber != 0 {
		return numbers(s, i)
	}
	// ' ?[^\s\p{L}\p{N}]+[\r\n/]*'
	if e := punctRun(s, i, k); e > 0 {
		return runNL(s, e, true)
	}
	return spaceEnd(s, i, n)
}

// numbers is \p{N}{1,3} from i.
func numbers(s string, i int) int {
	e := i
	for range 3 {
		_, n, k := at(s, e)
		if n == 0 || k&cNumber == 0 {
			break
		}
		e += n
	}
	return e
}

// punctRun is ' ?[^\s\p{L}\p{N}]+' from i (whose classes are k), or -1.
func punctRun(s string, i int, k uint8) int {
	if s[i] == ' ' {
		if _, _, k2 := at(s, i+1); k2&cPunct != 0 {
			return run(s, i+1, cPunct)
		}
		return -1
	}
	if k&cPunct != 0 {
		return run(s, i, cPunct)
	}
	return -1
}

// nextCl100k returns the end of the cl100k_base piece starting at i, for
// the expression
//
//	(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}
//	| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+
func nextCl100k(s string, i int) int {
	if e := contraction(s, i); e > i {
		return e
	}
	_, n, k := at(s, i)
	if k&cPrefix != 0 {
		if e := run(s, i+n, cLetter); e > i+n {
			return e
		}
	}
	if k&cLetter != 0 {
		return run(s, i, cLetter)
	}
	if k&cNumber != 0 {
		return numbers(s, i)
	}
	if e := punctRun(s, i, k); e > 0 {
		return runNL(s, e, false)
	}
	return spaceEnd(s, i, n)
}

// spaceEnd ends the whitespace alternatives shared by both expressions,
// \s*[\r\n]+ | \s+(?!\S) | \s+, for the piece starting at i.
func spaceEnd(s string, i, n int) int {
	j := run(s, i, cSpace)
	if j == i {
		// Cannot happen: every rune is a letter, number, space or punct.
		return i + n
	}
	// \s*[\r\n]+ : up to and including the last newline of the run.
	if k := strings.LastIndexAny(s[i:j], "\r\n"); k >= 0 {
		return i + k + 1
	}
	// \s+(?!\S) : the run, less its last rune when a non-space follows.
	if j == len(s) {
		return j
	}
	_, last := utf8.DecodeLastRuneInString(s[i:j])
	if j-last > i {
		return j - last
	}
	// \s+
	return j
}

// The ASCII fast paths: asciiO200k and asciiCl100k return the end of the
// piece starting at i (s[i] is ASCII) when deciding it takes ASCII text
// only, and 0 when the piece depends on a non-ASCII rune, which the general
// code above then handles. They are checked against it piece by piece
// (split_test.go: tricky strings, the Go source tree, a fuzz target) and,
// through the counts, against the library.

// asciiO200k is nextO200k for ASCII. It is the hot loop of counting (one
// call a piece, some four bytes on average in source code), so it is one
// function with its loops written out, not a composition of the helpers.
func asciiO200k(s string, i int) int {
	k := asciiClass[s[i]]
	if k&cLetter == 0 {
		if k&cNumber != 0 {
			return asciiDigits(s, i)
		}
		j := i + 1
		if j >= len(s) {
			return j // one rune of punctuation or space, at the end
		}
		c := s[j]
		if c >= utf8.RuneSelf {
			return 0
		}
		// The optional [^\r\n\p{L}\p{N}] before a word.
		if k&cPrefix == 0 || asciiClass[c]&cLetter == 0 {
			return asciiPunctSpace(s, i, k)
		}
		i = j
	}
	// The two word alternatives from i, an ASCII letter (any prefix
	// already taken). For ASCII, where no letter is both upper- and
	// lowercase, U*L+ is the run of capitals then the run of small letters
	// after it, if there is one, and otherwise U+L* is the run of capitals;
	// either may end in a contraction.
	for i < len(s) && s[i]-'A' < 26 {
		i++
	}
	for {
		if i+8 > len(s) {
			for i < len(s) && s[i]-'a' < 26 {
				i++
			}
			break
		}
		// The run of small letters, eight bytes at a time (a loop over
		// the bytes mispredicts its exit at the end of most words): on
		// each byte's low seven bits y, y+(0x80-'a') sets the top bit
		// from 'a' up and y+(0x7f-'z') from past 'z' up; a byte with its
		// own top bit set is no letter.
		x := load64(s, i)
		y := x & 0x7f7f7f7f7f7f7f7f
		m := (y + (0x80-'a')*0x0101010101010101) &^ (y + (0x7f-'z')*0x0101010101010101) &^ x & 0x8080808080808080
		if m != 0x8080808080808080 {
			i += bits.TrailingZeros64(^m&0x8080808080808080) >> 3
			break
		}
		i += 8
	}
	if i < len(s) {
		switch c := s[i]; {
		case c >= utf8.RuneSelf:
			return 0 // a non-ASCII letter or mark may continue the word
		case c == '\'':
			return contraction(s, i)
		}
	}
	return i
}

// asciiPunctSpace is the end of the piece from i (of classes k) that is
// neither a word nor a number: punctuation, or whitespace.
func asciiPunctSpace(s string, i int, k uint8) int {
	if e := asciiPunct(s, i, k); e != 0 {
		if e < 0 {
			return 0
		}
		for e < len(s) && (s[e] == '\r' || s[e] == '\n' || s[e] == '/') {
			e++
		}
		return e
	}
	return asciiSpace(s, i)
}

// asciiCl100k is nextCl100k for ASCII.
func asciiCl100k(s string, i int) int {
	if e := contraction(s, i); e > i {
		return e
	}
	k := asciiClass[s[i]]
	switch {
	case k&cLetter != 0:
		return asciiLetters(s, i)
	case k&cNumber != 0:
		return asciiDigits(s, i)
	}
	if i+1 < len(s) {
		c := s[i+1]
		if c >= utf8.RuneSelf {
			return 0
		}
		if k&cPrefix != 0 && asciiClass[c]&cLetter != 0 {
			return asciiLetters(s, i+1)
		}
	}
	if e := asciiPunct(s, i, k); e != 0 {
		if e < 0 {
			return 0
		}
		for e < len(s) && (s[e] == '\r' || s[e] == '\n') {
			e++
		}
		return e
	}
	return asciiSpace(s, i)
}

// asciiLetters is \p{L}+ from i, an ASCII letter.
func asciiLetters(s string, i int) int {
	e := i
	for e < len(s) && asciiClass[s[e]]&cLetter != 0 {
		e++
	}
	if e < len(s) && s[e] >= utf8.RuneSelf {
		return 0
	}
	return e
}

// asciiDigits is \p{N}{1,3} from i, an ASCII digit.
func asciiDigits(s string, i int) int {
	e := i + 1
	for e < len(s) && e < i+3 {
		c := s[e]
		if c >= utf8.RuneSelf {
			return 0
		}
		if c < '0' || c > '9' {
			break
		}
		e++
	}
	return e
}

// asciiPunct is ' ?[^\s\p{L}\p{N}]+' from i (of classes k): its end, 0 if
// it does not match, -1 if a non-ASCII rune decides.
func asciiPunct(s string, i int, k uint8) int {
	e := i
	if s[i] == ' ' {
		e++
		if e >= len(s) {
			return 0
		}
		if s[e] >= utf8.RuneSelf {
			return -1
		}
		if asciiClass[s[e]]&cPunct == 0 {
			return 0
		}
	} else if k&cPunct == 0 {
		return 0
	}
	for e < len(s) {
		c := s[e]
		if c >= utf8.RuneSelf {
			return -1
		}
		if asciiClass[c]&cPunct == 0 {
			break
		}
		e++
	}
	return e
}

// asciiSpace is spaceEnd for a run of ASCII whitespace from i.
func asciiSpace(s string, i int) int {
	if s[i] == ' ' {
		// A run of spaces (indentation) ended by a byte that is no space,
		// found eight bytes at a time; anything else takes the loop below.
		e := i + 1
		for e+8 <= len(s) {
			if x := load64(s, e) ^ 0x2020202020202020; x != 0 {
				e += bits.TrailingZeros64(x) >> 3
				goto end
			}
			e += 8
		}
		for e < len(s) && s[e] == ' ' {
			e++
		}
	end:
		switch {
		case e == len(s):
			return e
		case s[e] < utf8.RuneSelf && asciiClass[s[e]]&cSpace == 0:
			if e-1 == i {
				return e
			}
			return e - 1
		}
	}
	e, nl := i, -1
	for e < len(s) {
		c := s[e]
		if c >= utf8.RuneSelf {
			return 0 // a non-ASCII space may continue the run
		}
		if asciiClass[c]&cSpace == 0 {
			break
		}
		if c == '\r' || c == '\n' {
			nl = e
		}
		e++
	}
	switch {
	case e == i:
		return 0 // cannot happen: every ASCII byte is in some class
	case nl >= 0:
		return nl + 1 // \s*[\r\n]+
	case e == len(s) || e-1 == i:
		return e // \s+(?!\S) at the end, or \s+
	}
	return e - 1 // \s+(?!\S): all but the last before a non-space
}
