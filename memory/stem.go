package memory

import (
	"bytes"
	"unicode/utf8"

	"github.com/kljensen/snowball/english"
)

// stem returns english.Stem(w, true) for a lower-cased word w. Words of
// ASCII bytes other than upper-case letters, white space and apostrophes
// (the bytes the library treats specially before it stems) go through
// stemASCII, which gives the same result without the library's
// allocations; other words go through the library.
func stem(w string) string {
	for i := 0; i < len(w); i++ {
		if c := w[i]; c >= utf8.RuneSelf || c <= ' ' || c == '\'' || 'A' <= c && c <= 'Z' {
			return english.Stem(w, true)
		}
	}
	return stemASCII(w)
}

// stemASCII is the Snowball English (Porter2) stemmer of
// github.com/kljensen/snowball/english at v0.10.0, working on bytes: for w as
// stem passes it (ASCII, no upper-case letters, white space or
// apostrophes), stemASCII(w) == english.Stem(w, true), down to the
// library's own bookkeeping of R1 and R2 as the word shrinks (after step
// 1b in particular). The differential tests and fuzz target in
// stem_test.go hold it to that.
//
// The result is w itself, or a prefix of it, when stemming only removed a
// suffix (most words); like strings.TrimSuffix, it then shares w's memory.
// Otherwise it is a new string, the only allocation (words of up to 64
// bytes are stemmed in a buffer on the stack).
func stemASCII(w string) string {
	if len(w) <= 2 {
		return w
	}
	if s := specialStem(w); s != "" {
		return s
	}
	var buf [64]byte
	var p porter
	if len(w) <= len(buf) {
		p.b = buf[:len(w)]
	} else {
		p.b = make([]byte, len(w))
	}
	copy(p.b, w)
	p.prepare()
	p.step1a()
	p.step1b()
	p.step1c()
	p.step2()
	p.step3()
	p.step4()
	p.step5()

	// Undo the marking of consonant y's (a 'Y' always stands where w
	// had a 'y'), and return a prefix of w if nothing else changed.
	b := p.b
	same := true
	for i, c := range b {
		if c == 'Y' {
			c = 'y'
			b[i] = c
		}
		if c != w[i] {
			same = false
		}
	}
	if same {
		return w[:len(b)]
	}
	return string(b)
}

// porter is a word being stemmed: its bytes, with the y's that act as
// consonants written 'Y', and the starts of its regions R1 and R2, never
// beyond its end. The word never grows beyond its original length, so b
// keeps its backing array (no append, which would move it to the heap).
type porter struct {
	b      []byte
	r1, r2 int
}

// vowels has bit c-'a' set for every vowel c; 'y' counts as one (a
// consonant y is 'Y', outside the mask).
const vowels = 1 | 1<<('e'-'a') | 1<<('i'-'a') | 1<<('o'-'a') | 1<<('u'-'a') | 1<<('y'-'a')

func isVowel(c byte) bool {
	return c-'a' < 26 && vowels>>(c-'a')&1 != 0
}

func hasSuffix(b []byte, s string) bool {
	return len(b) >= len(s) && string(b[len(b)-len(s):]) == s
}

// truncate cuts the word to n bytes, pulling R1 and R2 back within it.
func (p *porter) truncate(n int) {
	p.b = p.b[:n]
	p.r1 = min(p.r1, n)
	p.r2 = min(p.r2, n)
}

// replace replaces the last k bytes of the word by s, which is not longer
// than k bytes or follows a removal that made room for it.
func (p *porter) replace(k int, s string) {
	n := len(p.b) - k
	p.b = p.b[:n+len(s)]
	copy(p.b[n:], s)
	p.r1 = min(p.r1, len(p.b))
	p.r2 = min(p.r2, len(p.b))
}

// appendE appends an 'e' to the word, in the room a removal made for it.
func (p *porter) appendE() {
	n := len(p.b)
	p.b = p.b[:n+1]
	p.b[n] = 'e'
}

// prepare marks consonant y's and finds R1 and R2.
func (p *porter) prepare() {
	b := p.b
	if i := bytes.IndexByte(b, 'y'); i >= 0 {
		for ; i < len(b); i++ {
			if b[i] == 'y' && (i == 0 || isVowel(b[i-1])) {
				b[i] = 'Y'
			}
		}
	}
	switch {
	case len(b) >= 5 && string(b[:5]) == "gener":
		p.r1 = 5
	case len(b) >= 6 && string(b[:6]) == "commun":
		p.r1 = 6
	case len(b) >= 5 && string(b[:5]) == "arsen":
		p.r1 = 5
	default:
		p.r1 = afterVowelConsonant(b, 0)
	}
	p.r2 = afterVowelConsonant(b, p.r1)
}

// afterVowelConsonant returns the index after the first non-vowel that
// follows a vowel in b[start:], or len(b) if there is none.
func afterVowelConsonant(b []byte, start int) int {
	for j := start + 1; j < len(b); j++ {
		if isVowel(b[j-1]) && !isVowel(b[j]) {
			return j + 1
		}
	}
	return len(b)
}

// endsShortSyllable reports whether b[:i] ends in a short syllable.
func endsShortSyllable(b []byte, i int) bool {
	switch {
	case i == 2:
		return isVowel(b[0]) && !isVowel(b[1])
	case i >= 3:
		c := b[i-1]
		return !isVowel(c) && c != 'w' && c != 'x' && c != 'Y' && isVowel(b[i-2]) && !isVowel(b[i-3])
	}
	return false
}

// hasVowel reports whether b holds a vowel.
func hasVowel(b []byte) bool {
	for _, c := range b {
		if isVowel(c) {
			return true
		}
	}
	return false
}

// step1a: "sses" → "ss", "ied"/"ies" → "i" or "ie", "us" and "ss" stay,
// "s" goes after a vowel not just before it.
func (p *porter) step1a() {
	b := p.b
	n := len(b)
	switch {
	case hasSuffix(b, "sses"):
		p.truncate(n - 2)
	case hasSuffix(b, "ied"), hasSuffix(b, "ies"):
		if n > 4 {
			p.truncate(n - 2)
		} else {
			p.truncate(n - 1)
		}
	case hasSuffix(b, "us"), hasSuffix(b, "ss"):
	case b[n-1] == 's':
		if hasVowel(b[:n-2]) {
			p.truncate(n - 1)
		}
	}
}

// step1b: "eed", "eedly" → "ee" in R1; "ed", "edly", "ing", "ingly" go
// after a vowel, then the stem is tidied ("at" → "ate", doubles undone,
// short words get an "e").
func (p *porter) step1b() {
	b := p.b
	n := len(b)
	k, eed := 0, false
	switch b[n-1] {
	case 'y':
		switch {
		case hasSuffix(b, "eedly"):
			k, eed = 5, true
		case hasSuffix(b, "ingly"):
			k = 5
		case hasSuffix(b, "edly"):
			k = 4
		}
	case 'g':
		if hasSuffix(b, "ing") {
			k = 3
		}
	case 'd':
		switch {
		case hasSuffix(b, "eed"):
			k, eed = 3, true
		case hasSuffix(b, "ed"):
			k = 2
		}
	}
	if k == 0 {
		return
	}
	if eed {
		if k <= n-p.r1 {
			p.replace(k, "ee")
		}
		return
	}
	if !hasVowel(b[:n-k]) {
		return
	}
	r1, r2 := p.r1, p.r2
	p.truncate(n - k)
	b = p.b
	m := len(b)
	switch {
	case hasSuffix(b, "at"), hasSuffix(b, "bl"), hasSuffix(b, "iz"):
		p.appendE()
	case m >= 2 && b[m-1] == b[m-2] && isDouble(b[m-1]):
		p.truncate(m - 1)
	case p.r1 >= m && endsShortSyllable(b, m): // a short word
		p.appendE()
		p.r1, p.r2 = m+1, m+1
		return
	}
	// The library restores R1 and R2 as they were before the removal,
	// within the word's new length.
	p.r1 = min(r1, len(p.b))
	p.r2 = min(r2, len(p.b))
}

// isDouble reports whether a doubled c is undone in step 1b.
func isDouble(c byte) bool {
	switch c {
	case 'b', 'd', 'f', 'g', 'm', 'n', 'p', 'r', 't':
		return true
	}
	return false
}

// step1c: a final y after a consonant other than the first letter → i.
func (p *porter) step1c() {
	b := p.b
	n := len(b)
	if n > 2 && (b[n-1] == 'y' || b[n-1] == 'Y') && !isVowel(b[n-2]) {
		b[n-1] = 'i'
	}
}

// A suffixRule replaces suffix by repl.
type suffixRule struct{ suffix, repl string }

// suffixRules are a step's rules grouped by their suffix's last letter,
// each group in the library's order (the first suffix that matches
// decides, even when it is not in its region).
type suffixRules [256][]suffixRule

func byLastLetter(rules ...suffixRule) *suffixRules {
	t := new(suffixRules)
	for _, r := range rules {
		c := r.suffix[len(r.suffix)-1]
		t[c] = append(t[c], r)
	}
	return t
}

// rule returns the first of rules whose suffix p's word ends with.
func (p *porter) rule(rules *suffixRules) (suffixRule, bool) {
	if len(p.b) == 0 {
		return suffixRule{}, false
	}
	for _, r := range rules[p.b[len(p.b)-1]] {
		if hasSuffix(p.b, r.suffix) {
			return r, true
		}
	}
	return suffixRule{}, false
}

// The rules of steps 2, 3 and 4, in the library's order.
var (
	step2Rules = byLastLetter(
		suffixRule{"ational", "ate"}, suffixRule{"tional", "tion"},
		suffixRule{"fulness", "ful"}, suffixRule{"iveness", "ive"}, suffixRule{"ousness", "ous"},
		suffixRule{"ization", "ize"}, suffixRule{"ation", "ate"},
		suffixRule{"biliti", "ble"}, suffixRule{"lessli", "less"}, suffixRule{"aliti", "al"}, suffixRule{"entli", "ent"},
		suffixRule{"fulli", "ful"}, suffixRule{"iviti", "ive"}, suffixRule{"ousli", "ous"}, suffixRule{"anci", "ance"},
		suffixRule{"abli", "able"}, suffixRule{"alli", "al"}, suffixRule{"enci", "ence"}, suffixRule{"bli", "ble"},
		suffixRule{"ogi", "og"}, suffixRule{"li", ""},
		suffixRule{"alism", "al"},
		suffixRule{"ator", "ate"}, suffixRule{"izer", "ize"},
	)
	step3Rules = byLastLetter(
		suffixRule{"ational", "ate"}, suffixRule{"tional", "tion"}, suffixRule{"ical", "ic"}, suffixRule{"ful", ""},
		suffixRule{"alize", "al"}, suffixRule{"icate", "ic"}, suffixRule{"ative", ""},
		suffixRule{"iciti", "ic"},
		suffixRule{"ness", ""},
	)
	step4Rules = byLastLetter(
		suffixRule{"ement", ""}, suffixRule{"ment", ""}, suffixRule{"ent", ""}, suffixRule{"ant", ""},
		suffixRule{"ance", ""}, suffixRule{"ence", ""}, suffixRule{"able", ""}, suffixRule{"ible", ""},
		suffixRule{"ate", ""}, suffixRule{"ive", ""}, suffixRule{"ize", ""},
		suffixRule{"ism", ""}, suffixRule{"iti", ""}, suffixRule{"ous", ""}, suffixRule{"ion", ""},
		suffixRule{"al", ""}, suffixRule{"er", ""}, suffixRule{"ic", ""},
	)
)

// step2 replaces the suffixes of step 2 found in R1.
func (p *porter) step2() {
	b := p.b
	n := len(b)
	r, ok := p.rule(step2Rules)
	if !ok || len(r.suffix) > n-p.r1 {
		return
	}
	switch r.suffix {
	case "li": // deleted after a valid li-ending
		if n >= 3 {
			switch b[n-3] {
			case 'c', 'd', 'e', 'g', 'h', 'k', 'm', 'n', 'r', 't':
				p.truncate(n - 2)
			}
		}
	case "ogi": // → "og" after an l
		if n >= 4 && b[n-4] == 'l' {
			p.truncate(n - 1)
		}
	default:
		p.replace(len(r.suffix), r.repl)
	}
}

// step3 replaces the suffixes of step 3 found in R1 ("ative" in R2).
func (p *porter) step3() {
	n := len(p.b)
	r, ok := p.rule(step3Rules)
	if !ok || len(r.suffix) > n-p.r1 {
		return
	}
	if r.suffix == "ative" {
		if n-p.r2 >= 5 {
			p.truncate(n - 5)
		}
		return
	}
	p.replace(len(r.suffix), r.repl)
}

// step4 deletes the suffixes of step 4 found in R2 ("ion" after s or t).
func (p *porter) step4() {
	b := p.b
	n := len(b)
	r, ok := p.rule(step4Rules)
	if !ok || len(r.suffix) > n-p.r2 {
		return
	}
	if r.suffix == "ion" && (n < 4 || b[n-4] != 's' && b[n-4] != 't') {
		return
	}
	p.truncate(n - len(r.suffix))
}

// step5 deletes a final e in R2, or in R1 after no short syllable, and the
// second l of a final "ll" in R2.
func (p *porter) step5() {
	b := p.b
	last := len(b) - 1
	if p.r1 > last {
		return
	}
	switch {
	case b[last] == 'e':
		if p.r2 <= last || !endsShortSyllable(b, last) {
			p.truncate(last)
		}
	case p.r2 <= last && b[last] == 'l' && last >= 1 && b[last-1] == 'l':
		p.truncate(last)
	}
}

// specialStem returns the library's stem of one of the words it treats
// as exceptions, or "". It switches on the first letter first: one switch
// over all the words compiles to a binary search calling the runtime's
// string comparison at every step.
func specialStem(w string) string {
	switch w[0] {
	case 'a':
		switch w {
		case "atlas", "andes":
			return w
		}
	case 'b':
		if w == "bias" {
			return w
		}
	case 'c':
		switch w {
		case "cosmos", "canning":
			return w
		case "cannings":
			return "canning"
		}
	case 'd':
		if w == "dying" {
			return "die"
		}
	case 'e':
		switch w {
		case "early":
			return "earli"
		case "earring", "exceed":
			return w
		case "earrings":
			return "earring"
		case "exceeds", "exceeded", "exceeding":
			return "exceed"
		}
	case 'g':
		if w == "gently" {
			return "gentl"
		}
	case 'h':
		switch w {
		case "howe", "herring":
			return w
		case "herrings":
			return "herring"
		}
	case 'i':
		switch w {
		case "idly":
			return "idl"
		case "inning":
			return w
		case "innings":
			return "inning"
		}
	case 'l':
		if w == "lying" {
			return "lie"
		}
	case 'n':
		if w == "news" {
			return w
		}
	case 'o':
		switch w {
		case "only":
			return "onli"
		case "outing":
			return w
		case "outings":
			return "outing"
		}
	case 'p':
		switch w {
		case "proceed":
			return w
		case "proceeds", "proceeded", "proceeding":
			return "proceed"
		}
	case 's':
		switch w {
		case "skis":
			return "ski"
		case "skies", "sky":
			return "sky"
		case "singly":
			return "singl"
		case "succeed":
			return w
		case "succeeds", "succeeded", "succeeding":
			return "succeed"
		}
	case 't':
		if w == "tying" {
			return "tie"
		}
	case 'u':
		if w == "ugly" {
			return "ugli"
		}
	}
	return ""
}
