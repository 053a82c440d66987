package memory

import "strings"

// Prefixed words the index lacks. A request may say a verb with a prefix
// that the code never writes whole ("rewrap lines when the window gets
// narrower": the code wraps, and resize.rs says "wrap" 44 times, "rewrap"
// never; "prefill", "unpack"). Such a word would count for nothing; it
// matches its base instead, as an abbreviation matches its word
// (altWeight). Only a word no file has is read so: "report", "remove" or
// "return" are words of every tree, and their "bases" are other words.

// wordPrefixes are the prefixes a word is read without when the index
// lacks it: repetition, precedence, reversal, negation.
var wordPrefixes = []string{"re", "pre", "un", "de", "dis", "mis"}

// notPrefixed are words of general English that begin with one of
// wordPrefixes but do not say their rest again, undone or before: their
// "base" is another word, and one a tree often has (redirect: direct, the
// stem of "direction"; unless: less; display: play; determine: termin, the
// stem of "terminal"). Found trying the rule on real trees (alacritty's
// "redirect stderr to the log file" ranked its search's direction code
// above its logger), the rest written from the language, not from any
// set's items; a tree that has the word never reads it without its prefix
// anyway, so this matters in small trees.
var notPrefixed = func() map[string]bool {
	const words = `recall record recover redirect refine reform release remain remark remind remove
repair replace report represent request research reserve reside resign resolve resort resource
restore restrict result retail retreat return review
predict present preserve preside pretend prevent
unless
default delight denote depart deposit describe description design detail determine deserve
discard disclose discount discover dismiss dispatch display`
	m := make(map[string]bool)
	for _, w := range strings.Fields(words) {
		m[normalise(w)] = true // every inflection: "redirected", "displays"
	}
	return m
}()

// minPrefixBase is the shortest base a prefixed word is read as: "retry"
// is no "try", "unset" no "set".
const minPrefixBase = 4

// prefixBase returns the term of w (a request's word, lower-case) without
// its prefix, "" if it has none of wordPrefixes, only looks prefixed
// (notPrefixed) or what is left is too short.
func prefixBase(w string) string {
	if !simpleWord(w) || notPrefixed[normalise(w)] {
		return ""
	}
	for _, p := range wordPrefixes {
		if rest, ok := strings.CutPrefix(w, p); ok && len(rest) >= minPrefixBase {
			return normalise(rest)
		}
	}
	return ""
}

// addPrefixBase adds to q, the term of a short request's word w that no
// file has, the term of w's base as a partner, and returns the base's
// document frequency (0 when the index lacks it too).
func (st *state) addPrefixBase(q *qterm, w string) float64 {
	base := prefixBase(w)
	if base == "" || base == q.term {
		return 0
	}
	at, ap := st.text.find(base), st.path.find(base)
	if at == nil && ap == nil {
		return 0
	}
	q.addAlt(at, ap, base, altWeight, sepAbbrev)
	return float64(max(listDF(at), listDF(ap)))
}
