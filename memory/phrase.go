package memory

import (
	"math/bits"
	"path"
	"slices"
	"strings"
)

// A long text names a class by saying its name's words as prose: "type
// annotations on intersection cast types" for IntersectionCastTypeReference,
// "the Import plugins wizard" for PluginImportWizardFirstPage, "the API
// errors and warnings pref page" for ApiErrorsWarningsConfigurationBlock. A
// report is written in its users' words, and a user reads a UI label or a
// language's construct where the code writes a class named after it. Such a
// file's words are scattered over the text like any file's, so the words'
// score does not see them together; a run of the text that says three of
// the name's words or more, close together, does.

// prosePhrases returns the plain words of a long text, each as its term,
// by their place in the text's runs of prose: a field that is not a plain
// word (a dotted name, a path, an identifier in CamelCase or snake_case, a
// number, code's punctuation) ends a run, and English's function words
// are left out without ending it. A package's path in a stack frame
// (org.eclipse.pde.internal.ui.wizards) is a name, not prose.
func prosePhrases(q string) map[string][]int {
	m := map[string][]int{}
	pos := 0
	for _, f := range strings.Fields(q) {
		w := strings.Trim(f, `"'(),.:;!?[]{}<>*`+"`")
		if !plainWord(w) {
			pos += 2 // a gap: a word either side is not close to the other
			continue
		}
		if t := phraseTerm(w); t != "" {
			m[t] = append(m[t], pos)
			if len(t) >= 2 && m[phraseHead(t)] == nil {
				m[phraseHead(t)] = []int{} // a word begins so (phraseSubject)
			}
			pos++
		}
	}
	return m
}

// phraseTerm is a word of prose or of a name as a phrase compares it:
// lower-case and stemmed; "" for English's function words, which are left
// out. The code's keywords are words here: a name says them
// (ImportDeclaration, LambdaExpression) as a report does.
func phraseTerm(w string) string {
	lower := strings.ToLower(w)
	if len(lower) < 2 || len(lower) > maxTermLen || proseStop[lower] {
		return ""
	}
	return stem(lower)
}

// phraseHead is the key under which prosePhrases notes that a word begins
// with w's first two letters: "\x00" and those, lower-case, which no term
// spells.
func phraseHead(w string) string {
	return string([]byte{0, w[0] | 0x20, w[1] | 0x20})
}

// plainWord reports whether w is a word of prose: letters only, lower-case
// but for its first letter, or all capitals ("API"); a word of two letters
// at least.
func plainWord(w string) bool {
	if len(w) < 2 {
		return false
	}
	upper := 0
	for i := 0; i < len(w); i++ {
		c := w[i]
		switch {
		case c >= 'A' && c <= 'Z':
			upper++
		case c >= 'a' && c <= 'z':
		default:
			return false
		}
	}
	return upper == 0 || upper == len(w) || upper == 1 && w[0] <= 'Z'
}

// minPhraseParts is how many of a name's words a run of the text must say
// for the file to be named after it: two words close together are chance
// in a long text ("content assist", "type name"), three rarely are.
const minPhraseParts = 3

// maxNameParts bounds the words of a name read (a bit each).
const maxNameParts = 16

// phraseSubject returns the words of the code file rel's name that a run of
// the long text says, joined by spaces, or "": three of them at least and
// half of the name's words, within a stretch of the text's plain words one
// longer than the name has words (a word may come between: "API errors and
// warnings" for ApiErrorsWarningsConfigurationBlock, whose five words allow
// six). Order does not matter ("Import plugins wizard",
// PluginImportWizardFirstPage).
func (p *parsed) phraseSubject(rel string) string {
	if len(p.phrases) == 0 || defLangOf(rel) == nil {
		return ""
	}
	stem := path.Base(rel)
	if i := strings.IndexByte(stem, '.'); i > 0 {
		stem = stem[:i]
	}
	// every candidate's name is asked about: first whether three of its
	// words begin as a word of the text does, which most names do not
	heads := 0
	for part := range nameParts(stem) {
		if len(part) >= 2 && p.phrases[phraseHead(part)] != nil {
			heads++
		}
	}
	if heads < minPhraseParts {
		return ""
	}
	var terms, norms []string // the name's words, as spelled (lower-case) and as terms
	type at struct{ pos, part int }
	var ats []at
	for part := range nameParts(stem) {
		t := phraseTerm(part)
		if t == "" || slices.Contains(norms, t) || len(terms) == maxNameParts {
			continue
		}
		for _, pos := range p.phrases[t] {
			ats = append(ats, at{pos, len(terms)})
		}
		terms = append(terms, strings.ToLower(part))
		norms = append(norms, t)
	}
	if len(terms) < minPhraseParts || len(ats) < minPhraseParts {
		return ""
	}
	slices.SortFunc(ats, func(x, y at) int { return x.pos - y.pos })
	best := 0 // the parts said in the best stretch, as bits
	for i, a := range ats {
		seen := 0
		for _, b := range ats[i:] {
			if b.pos > a.pos+len(terms) {
				break
			}
			seen |= 1 << b.part
		}
		if bits.OnesCount(uint(seen)) > bits.OnesCount(uint(best)) {
			best = seen
		}
	}
	if n := bits.OnesCount(uint(best)); n < minPhraseParts || 2*n < len(terms) {
		return ""
	}
	var said []string
	for i, t := range terms {
		if best&(1<<i) != 0 {
			said = append(said, t)
		}
	}
	return strings.Join(said, " ")
}

// boostPhraseLong lifts a code file a long text names by its name's words
// (phraseSubject): more than a rare word of the text that is a file's name
// (boostSubjectLong), as three of its words together are surer than one.
const boostPhraseLong = 1.6
