package memory

import (
	"slices"
	"strings"
)

// Documented code. A project that documents its features a page each names
// the page as it names the code: goreleaser's
// www/content/customization/builds/universalbinaries.md and its
// internal/pipe/universalbinary/, celery's docs/userguide/canvas.rst and
// celery/canvas.py. The page says what the feature does in its users'
// words ("combine the Intel and Apple Silicon executables into one"), which
// the code, in its own (lipo, fat binary), never does; a short request is
// worded as the page is. So in a short request the code named as one of the
// best pages scores, before boosts, at least what the page scores (the
// page, documentation, is demoted below the code as before): the page
// stands in for the code it documents. A page's name is its stem, compared
// with a code file's and with its directory's, lower-case, without
// separators and stemmed (universalbinaries and universalbinary agree). A
// name that more than docTwinsMax code files have (index, utils) names no
// feature.
const (
	docPages    = 3 // the best documentation pages whose code is lifted
	docTwinsMax = 2 // code files a page's name may name, at most
)

// documentedCode raises to the score of each of the docPages best
// documentation pages of a short request (p) the score of the code files
// named as the page, and returns the documents it raised, each with its
// page's path (the reason: "documented in …"). A page the request is
// named after ("login" and docs/login.md) adds nothing: its code is named
// after the request too, and ranks by its name (boostSubject). A page that
// the globs of opt leave out is not read: the search was scoped away from it.
func (st *state) documentedCode(scores []float64, p parsed, opt SearchOptions) map[int]string {
	if p.long {
		return nil
	}
	var pages []int
	for d, s := range scores {
		rel := st.docs[d].rel
		if s > 0 && !st.dead[d] && isPage(rel) && globsAllow(rel, opt.Include, opt.Exclude) && p.subjectOf(rel) == "" {
			pages = append(pages, d)
		}
	}
	slices.SortFunc(pages, func(x, y int) int { return cmpFloat(scores[y], scores[x]) })
	pages = pages[:min(len(pages), docPages)]
	if len(pages) == 0 {
		return nil
	}
	raised := map[int]string{}
	for _, pg := range pages {
		code := st.codeNamed(nameKey(baseName(st.docs[pg].rel)))
		if len(code) == 0 || len(code) > docTwinsMax {
			continue
		}
		for _, c := range code {
			if scores[c] < scores[pg] {
				scores[c] = scores[pg]
				raised[int(c)] = st.docs[pg].rel
			}
		}
	}
	return raised
}

// isPage reports whether rel is a page of documentation: prose (a markup
// format of documentation, not code), neither a change log nor a file
// named for its role in a repository (README, LICENSE, CONTRIBUTING).
func isPage(rel string) bool {
	switch strings.ToLower(extOf(rel)) {
	case ".md", ".markdown", ".mdx", ".rst", ".adoc", ".txt":
	default:
		return false
	}
	stem := strings.TrimSuffix(baseName(rel), extOf(rel))
	return !isChangeLog(rel) && !proseNames[strings.ToLower(stem)] && !isReportTemplate(rel)
}

// codeNamed returns the live code files (of a known language, neither
// tests, documentation nor examples) whose name or directory's name has
// the nameKey key: universalbinary/targets.go and universalbinary.go for
// "universalbinari"; at most docTwinsMax+1 of them. The names are compared
// in a pass over the paths, first by their leading letters (nameHead), so
// that a search reads no table built for it.
func (st *state) codeNamed(key string) []uint32 {
	if key == "" {
		return nil
	}
	head := nameHead(key)
	var out []uint32
	for i, d := range st.docs {
		if st.dead[i] {
			continue
		}
		base, dir := baseName(d.rel), ""
		if j := strings.LastIndexByte(d.rel, '/'); j > 0 {
			dir = baseName(d.rel[:j])
		}
		if !leadsWith(base, head) && !leadsWith(dir, head) {
			continue
		}
		if defLangOf(d.rel) == nil || roleOf(d.rel)&(roleTest|roleDoc) != 0 || isExample(d.rel) {
			continue
		}
		if nameKey(base) == key || dir != "" && nameKey(dir) == key {
			out = append(out, uint32(i))
			if len(out) > docTwinsMax {
				break
			}
		}
	}
	return out
}

// nameHead returns the leading letters of every name whose nameKey is
// key: the stem keeps a word's start but for its last letters, and a short
// stem may have changed the last but one ("using" is "use", "pty" "pti").
func nameHead(key string) string {
	return key[:max(2, len(key)-2)]
}

// leadsWith reports whether name, lower-case and without the separators
// wholeName drops, may start with head: false only when its letters and
// digits do not.
func leadsWith(name, head string) bool {
	k := 0
	for i := 0; i < len(name) && k < len(head); i++ {
		c := name[i]
		if c == '-' || c == '_' || c == '.' {
			continue
		}
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
			// a byte nameKey may read otherwise (a space, a letter
			// strings.ToLower changes): nameKey decides
			return true
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != head[k] {
			return false
		}
		k++
	}
	return k == len(head)
}

// nameKey is a file's or a directory's name without its extension,
// lower-case, without separators, stemmed: "universalbinaries.md" and
// "universalbinary" are "universalbinari", "Report-Sizes.md" and
// "reportsizes" one name. "" for a name of fewer than three letters.
func nameKey(name string) string {
	stem := strings.ToLower(strings.TrimSuffix(name, extOf(name)))
	k := normalise(wholeName(stem))
	if len(k) < 3 {
		return ""
	}
	return k
}
