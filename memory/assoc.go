package memory

import (
	"bytes"
	"slices"
	"strings"
)

// Associations learned from the code. A doc comment says in words what
// the name under it does: "// Balance spreads requests over backends."
// ties "spread" and "request" to "balance". The index records, for each
// definition with a comment just above it, the pairs of a word of the
// comment's first line and a part of the defined name, as terms of the
// text dictionary spelled assocPrefix + word + " " + part, with their
// count in the identifier frequency and none in the field lengths (as the
// definitions are: defs.go). So they come and go with their file's
// postings, and an incremental refresh keeps them as it keeps the rest.
//
// A short request's term then also matches the parts most often
// documented by it in the project (at most assocPartners, each in at
// least assocMinFiles files and in assocMinShare of the files that have
// the word, so that a word as common as "add" or "test" ties itself to
// nothing), at assocWeight of a match of the term itself, inside the same
// BM25F saturation; `--explain` labels such a match "doc: term→part".
// A long text is not expanded, as with the concepts (synonyms.go).

const (
	assocPrefix   = "%"
	assocWords    = 6 // words of a comment's first line paired, the first
	assocParts    = 2 // parts of a name paired, the first
	assocLines    = 6 // comment lines above a definition looked through for its first
	assocPartners = 3
	assocMinFiles = 2
	assocMinShare = 0.1 // of the files with the word, that document the part
	assocWeight   = 0.25
)

// assocTerms calls emit with the association terms of text, the content
// of a file in lang. A term is valid only during the call to emit.
func (a *analyzer) assocTerms(lang *defLang, text []byte, emit func(term string)) {
	var starts []int
	for i := 0; i < len(text); {
		starts = append(starts, i)
		j := bytes.IndexByte(text[i:], '\n')
		if j < 0 {
			break
		}
		i += j + 1
	}
	var words, parts []string
	var buf []byte
	definitionLines(lang, text, func(line int, _, name string) {
		first := docFirstLine(lang, text, starts, line)
		if first == nil {
			first = docstringFirstLine(text, starts, line)
		}
		if first == nil {
			return
		}
		parts = parts[:0]
		a.identifier(name, func(t string, whole bool) {
			if !whole && len(parts) < assocParts && !slices.Contains(parts, t) {
				parts = append(parts, t)
			}
		})
		words = words[:0]
		a.words(string(first), func(w string) {
			a.identifier(w, func(t string, whole bool) {
				if !whole && len(words) < assocWords && !slices.Contains(words, t) && !slices.Contains(parts, t) {
					words = append(words, t)
				}
			})
		})
		for _, w := range words {
			for _, p := range parts {
				buf = append(append(append(append(buf[:0], assocPrefix...), w...), ' '), p...)
				if len(buf) <= 2*maxTermLen {
					emit(bstr(buf))
				}
			}
		}
	})
}

// docFirstLine returns the first line of the comment just above line
// (annotations and attributes between them skipped), nil when there is
// none.
func docFirstLine(lang *defLang, text []byte, starts []int, line int) []byte {
	var first []byte
	for l := line - 1; l >= 0 && l >= line-assocLines; l-- {
		_, rest := indentOf(lineAt(text, starts, l))
		if len(rest) == 0 || !lang.comment(rest) {
			break
		}
		if rest[0] == '@' || bytes.HasPrefix(rest, []byte("#[")) {
			if first != nil {
				break
			}
			continue
		}
		if len(bytes.Trim(rest, "/*#! \t")) > 0 {
			first = rest
		}
	}
	return first
}

// docstringFirstLine returns the first line of a Python docstring just
// below line (a def or class), nil when there is none.
func docstringFirstLine(text []byte, starts []int, line int) []byte {
	for l := line + 1; l < len(starts) && l <= line+2; l++ {
		_, rest := indentOf(lineAt(text, starts, l))
		if len(rest) == 0 {
			continue
		}
		for _, q := range []string{`"""`, "'''", `r"""`} {
			if s, ok := bytes.CutPrefix(rest, []byte(q)); ok {
				if len(bytes.TrimSpace(s)) == 0 && l+1 < len(starts) {
					_, s = indentOf(lineAt(text, starts, l+1))
				}
				return s
			}
		}
		return nil
	}
	return nil
}

// A partnerCount is a part that a term documents, and in how many files.
type partnerCount struct {
	part  string
	files int
}

// assocPartnersOf returns the parts the doc comments of the index tie to
// term t, the most files first, at most assocPartners.
func (st *state) assocPartnersOf(t string) []partnerCount {
	prefix := assocPrefix + t + " "
	var out []partnerCount
	for i := st.text.search(prefix); i < st.text.n; i++ {
		term := st.text.termBytes(i)
		if !bytes.HasPrefix(term, []byte(prefix)) {
			break
		}
		if n := int(listDF(st.text.postings(i))); n >= assocMinFiles {
			out = append(out, partnerCount{string(term[len(prefix):]), n})
		}
	}
	if own := float64(listDF(st.text.find(t))); own > 0 {
		// a part that few of the word's files document with it is chance
		// (and a word as common as "add" is tied to nothing)
		kept := out[:0]
		for _, pc := range out {
			if float64(pc.files) >= assocMinShare*own {
				kept = append(kept, pc)
			}
		}
		out = kept
	}
	slices.SortStableFunc(out, func(x, y partnerCount) int {
		if x.files != y.files {
			return y.files - x.files
		}
		return strings.Compare(x.part, y.part)
	})
	return out[:min(len(out), assocPartners)]
}
