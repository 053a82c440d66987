package memory

import (
	"math"
	"path"
	"runtime"
	"slices"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/taskctl/taskctl/internal/lazyregexp"
)

// SearchOptions tune Search.
type SearchOptions struct {
	Limit    int     // maximum matches; 0 means 10, negative means no limit
	MinScore float64 // drop matches scoring below this
	// Include, if any, keeps only files matching one of these doublestar
	// globs on slash paths relative to the project; Exclude drops files
	// matching any. A glob without a slash matches a name at any depth,
	// one with a leading slash only from the root (see globMatch).
	Include []string
	Exclude []string
	Explain bool // fill Reason.Scores with each term's contribution
	// Source, if set, is read for the best-matching line of each match.
	Source Source
}

// maxQueryTerms caps the terms of a long query; the heaviest (rarest, most
// repeated) are kept: the rest of a long report's words are mostly noise.
const maxQueryTerms = 48

// Boosts and demotions, multiplied into the score.
const (
	boostMention       = 2.0  // the query names the file ("tsdb/head.go", "head.go:123")
	boostSubject       = 1.6  // a short query's term is the file's name ("exceptions" for exceptions.py)
	boostSubjectLong   = 1.3  // a long query's rare term is the file's name ("auto-detector" for autodetector.py)
	boostPartner       = 1.3  // a short query's term's partner is the file's name ("spread": balancer.go)
	boostFrame         = 2.0  // the innermost traceback frame that is a file of the project
	boostScope         = 1.3  // a long query says "in cmd/"
	boostLang          = 1.1  // a long query names the file's language
	demoteRole         = 0.75 // a test file when the query does not ask for tests
	demoteDoc          = 0.4  // documentation, for a short request: its prose says every request's words
	demoteDocLong      = 0.4  // documentation, for a long text: a report is about the code
	demoteOtherLong    = 0.8  // a file in no programming language (config, data, templates), for a long text
	demoteOtherShort   = 0.6  // the same, for a short request that asks for no configuration (demotesOther)
	demoteTemplateLong = 0.1  // an issue or pull-request template, for a long text
)

type qterm struct {
	term    string
	surface string
	tf      float64 // how often the query has it
	weight  float64 // query-term weight times IDF
	idf     float64
	text    []byte
	path    []byte
	alts    [][2][]byte // text and path lists of partners: abbreviations, concepts, the compound's whole form
	altTerm []string    // those partners
	altW    []float64   // what a match of each counts for (altWeight, conceptWeight, minedWeightOf, wordnetWeight)
	altSep  []string    // how its label joins it to the term (sepAbbrev, sepConcept, sepMined, sepWordNet)
	acronym bool        // the initials of the query's words (acronymTerms), which the words stand for
	hist    []histDoc   // the files whose commits' messages have the term (history.go)
}

// Search ranks the indexed files against query and returns the best,
// highest score first (ties by path). The score is the share of the
// query's IDF mass the file matches, each term saturated by BM25F, times
// the boosts, capped at 1.
//
// File-type words ("Python files", "tests", "markdown docs", "config") and
// path scopes ("in src/api", "under cmd/", "in the api directory") filter
// when the query is short; in a long text (more than 15 content words) they
// only boost, so a bug report that says "the tests fail" still finds the
// source file. Test files and documentation are demoted a little unless
// the query asks for them: a description usually means the code.
func (ix *Index) Search(query string, opt SearchOptions) []Match {
	ix.mu.RLock()
	st, hist := ix.st, ix.hist
	ix.mu.RUnlock()
	// The posting lists may be a memory mapping released with st: keep st
	// alive until they are no longer read.
	defer runtime.KeepAlive(st)
	if st.live == 0 {
		return nil
	}
	a := newAnalyzer()
	p, html := st.parse(query, hist, a)
	out := st.search(a, p, opt)
	if p.searchAgain(out) {
		// A file-type word or a scope that filtered everything away was
		// not meant as a filter ("tests fail because ...", "serialize
		// responses to JSON files"), nor was a language word that kept
		// only files in no language ("FastCGI transport for PHP" in a Go
		// project: its test data): search again with its words as plain
		// words, and say so.
		note := "no " + p.filterNames() + " matched: searched all files"
		p.dropFilters()
		out = st.search(a, p, opt)
		for i := range out {
			out[i].Reason.Notes = append(out[i].Reason.Notes, note)
		}
	}
	if html {
		for i := range out {
			out[i].Reason.Notes = append(out[i].Reason.Notes, htmlNote)
		}
	}
	return out
}

// parse reads query as Search does: its checklists, listings and HTML
// comments dropped, a long text read as a report (html: it was HTML), its
// evidence looked up.
func (st *state) parse(query string, hist *history, a *analyzer) (p parsed, html bool) {
	query = dropChecklists(dropListings(dropHTMLComments(query)))
	p = parseQuery(query, a, st.dirExists)
	if p.long {
		query, p, html = st.readReport(query, p, a)
	}
	p.hist = hist
	if p.long {
		p.phrases = prosePhrases(query)
	}
	st.readEvidence(&p, query, a)
	return p, html
}

// searchAgain reports whether the query's filters are to be dropped after
// a search that found out (see Search).
func (p *parsed) searchAgain(out []Match) bool {
	return (len(out) == 0 || !p.langTyped && !p.anyInLanguage(out)) && p.filters()
}

// anyInLanguage reports whether a match of out is in a language the
// query filters by, or the query filters by none.
func (p *parsed) anyInLanguage(out []Match) bool {
	if len(p.langs) == 0 || p.long {
		return true
	}
	for _, m := range out {
		if hasExt(m.Rel, p.langs) {
			return true
		}
	}
	return false
}

// filters reports whether the query filters files by type, role or scope.
func (p *parsed) filters() bool {
	return p.roles != 0 || !p.long && (len(p.langs) > 0 || len(p.scopes) > 0)
}

// filterNames names what the query filters by: "json files", "tests",
// "files under api".
func (p *parsed) filterNames() string {
	var names []string
	for _, w := range p.langWord {
		names = append(names, w+" files")
	}
	names = append(names, p.roleWords...)
	for _, s := range p.scopes {
		names = append(names, "files under "+s)
	}
	return strings.Join(names, " or ")
}

// dropFilters makes the query's type, role and scope words plain words.
func (p *parsed) dropFilters() {
	p.addWords(p.roleWords...)
	p.addWords(p.langWord...)
	p.roles, p.roleWords = 0, nil
	p.langs, p.langWord = nil, nil
	p.scopes = nil
}

// readEvidence completes p, parsed from query, with what query names
// exactly (findEvidence) as st has it: its definitions looked up, the
// modules its dotted names spell, the innermost traceback frame of the
// project. A long query's title counts twice, in its words and its
// evidence.
func (st *state) readEvidence(p *parsed, query string, a *analyzer) {
	if p.long {
		title := reportTitle(query)
		t := parseQuery(title, a, st.dirExists)
		p.words = append(p.words, t.words...)
		query += "\n" + title
	}
	evs, chains, frames := findEvidence(query)
	p.evidence = evs
	p.modules = st.resolveModules(chains)
	p.deepest = st.deepestFrame(frames)
}

// search ranks st's documents for the parsed query p.
func (st *state) search(a *analyzer, p parsed, opt SearchOptions) []Match {
	qs, scores, hits := st.score(a, &p)
	if scores == nil {
		return nil
	}
	documented := st.documentedCode(scores, p, opt)
	cands := st.rankUnits(scores, p, qs, opt)
	for i := range cands {
		if page, ok := documented[cands[i].doc]; ok {
			cands[i].notes = append(cands[i].notes, "documented in "+page)
		}
	}
	noteDefs(cands, hits, p.evidence)
	out := st.reasons(cands, qs, opt.Explain)
	if opt.Source != nil {
		bestLines(out, qs, opt.Source)
	}
	return out
}

// score completes p with what its terms qs name and returns each
// document's score before boosts (nil when nothing scored) and the
// definitions of the query's evidence each document has.
func (st *state) score(a *analyzer, p *parsed) (qs []qterm, scores []float64, hits map[uint32][]defHit) {
	qs = st.queryTerms(a, *p)
	p.subjects = subjects(*p, qs)
	p.heads = heads(p.subjects)
	p.partners = partnerSubjects(*p, qs)
	p.kebabs = kebabNames(*p)
	p.suffixed = st.suffixedNames(*p)
	acc, total := st.accumulate(qs)
	defAcc, hits, defTotal := st.defScores(p.evidence)
	named := st.namedAfter(*p)
	if total == 0 && defTotal == 0 && len(named) == 0 {
		return qs, nil, nil
	}
	scores = combine(acc, total, defAcc, defTotal)
	for _, d := range named {
		// a file named after a word of a short request is a candidate
		// even when the word has no term ("exceptions", whose stem is a
		// stop word): as if it matched half that word, its name
		if scores[d] == 0 {
			scores[d] = 0.5 / float64(len(p.words))
		}
		if said := p.toolSubject(st.docs[d].rel); said != nil {
			w := 1.0
			if defTotal > 0 {
				w = 1 - defShare
			}
			// words no file has ("continuous integration") have no
			// weight: then their part of the request's words
			share := max(toolShare(qs, said, total), float64(len(said))/float64(len(p.words)))
			scores[d] += w * share
		}
	}
	return qs, scores, hits
}

// subjects returns the words of p (with its terms qs) that a file may be
// named after: all of a short query's, and of a long text only the rare
// ones, which three files or fewer have in their path ("auto-detector").
func subjects(p parsed, qs []qterm) map[string]bool {
	m := map[string]bool{}
	for _, q := range qs {
		if !p.long || len(q.term) >= 5 && q.path != nil && listDF(q.path) <= 3 {
			m[q.term] = true
		}
	}
	if !p.long {
		for _, w := range p.words {
			m[w.lower] = true // "exceptions", whose stem is a stop word
		}
	}
	return m
}

// kebabNames returns the whole forms of a long text's words spelled with
// hyphens ("object-curly-newline": objectcurlynewline). Such a name is no
// identifier of code (a hyphen is an operator in most languages): it
// names a thing by its name (a rule, a command, an option), as a file's
// name may; a snake_case or camelCase word names a parameter or a
// variable as often as a module (class_weight, of class_weight.py).
func kebabNames(p parsed) map[string]bool {
	if !p.long {
		return nil
	}
	m := map[string]bool{}
	for _, w := range p.words {
		if strings.Contains(strings.Trim(w.lower, "-"), "-") {
			m[wholeName(w.lower)] = true
		}
	}
	return m
}

// partnerSubjects returns the partners of a short query's terms (its
// words' abbreviations and concept partners) that a file may be named
// after, each with the label that shows it: a file named after a word the
// request means ("try again": retry) is the request's subject too, if
// less surely than one named after its own word.
func partnerSubjects(p parsed, qs []qterm) map[string]string {
	if p.long {
		return nil
	}
	m := map[string]string{}
	for _, q := range qs {
		for i, alt := range q.altTerm {
			if q.altSep[i] == sepMined || q.altSep[i] == sepWordNet {
				continue // a mined partner or an attribute is too loose to name the subject
			}
			if !p.subjects[alt] && m[alt] == "" {
				m[alt] = q.surface + q.altSep[i] + alt
			}
		}
	}
	return m
}

// namedAfter returns the live documents a short query's words name (see
// subjectOf).
func (st *state) namedAfter(p parsed) []int {
	if p.long || len(p.words) == 0 {
		return nil
	}
	var out []int
	for d := range st.docs {
		if !st.dead[d] && p.subjectOf(st.docs[d].rel) != "" {
			out = append(out, d)
		}
	}
	return out
}

// defShare is the part of a score that the query's evidence gives, when
// it has some: a file that defines every name the query gives exactly
// scores defShare for it, whatever its words and its length.
const defShare = 0.15

// combine returns each document's score before boosts: its share of the
// query's term weight (acc over total) and, if the query gave evidence
// some file defines, its share of the evidence's weight, mixed by
// defShare.
func combine(acc []float64, total float64, defAcc map[uint32]float64, defTotal float64) []float64 {
	scores := make([]float64, len(acc))
	wTerms, wDefs := 1.0, 0.0
	if defTotal > 0 {
		wTerms, wDefs = 1-defShare, defShare
	}
	if total > 0 {
		for d, s := range acc {
			scores[d] = wTerms * s / total
		}
	}
	for d, s := range defAcc {
		scores[d] += wDefs * s / defTotal
	}
	return scores
}

// noteDefs notes in each candidate's reason the evidence it defines,
// heaviest first: "defines QuerySet.bulk_create (traceback frame)".
func noteDefs(cands []cand, hits map[uint32][]defHit, evs []evidence) {
	for i := range cands {
		hs := hits[uint32(cands[i].doc)]
		slices.SortStableFunc(hs, func(x, y defHit) int { return cmpFloat(y.weight, x.weight) })
		for k, h := range hs {
			if k == 3 {
				break
			}
			e := evs[h.ev]
			cands[i].notes = append(cands[i].notes, "defines "+e.shown+" ("+e.kind+")")
		}
	}
}

// queryTerms analyses the words of the query into terms, each with its
// posting lists and those of its abbreviation partners, and weighted by
// its IDF and how often the query has it. Terms no document has are left
// out; of a long query, the maxQueryTerms of most weight are kept.
func (st *state) queryTerms(a *analyzer, p parsed) []qterm {
	qtf := make(map[string]float64)
	surface := make(map[string]string)
	var order []string
	for _, qw := range p.words {
		w := qw.cased
		a.identifier(w, func(term string, whole bool) {
			if _, ok := qtf[term]; !ok {
				order = append(order, term)
				surface[term] = term
				if !whole {
					surface[term] = strings.ToLower(a.lastPart(w, term))
				}
			}
			qtf[term]++
		})
	}
	N := float64(st.live)
	var qs []qterm
	for _, t := range order {
		q := qterm{term: t, surface: surface[t], tf: qtf[t], text: st.text.find(t), path: st.path.find(t)}
		df := st.addPartners(&q, p.long)
		if !p.long {
			df = st.addMined(&q, df, qtf)
			df = st.addWordNet(&q, df, qtf)
		}
		if p.hist != nil {
			q.hist = st.historyDocs(p.hist, t)
			if df == 0 {
				df = float64(len(q.hist))
			}
		}
		if df == 0 {
			continue
		}
		q.idf = math.Log(1 + (N-df+0.5)/(df+0.5))
		q.weight = q.idf * (1 + math.Log(q.tf))
		qs = append(qs, q)
	}
	if !p.long {
		lower := p.lowerWords()
		qs = append(qs, st.compoundTerms(lower, qtf)...)
		qs = append(qs, st.acronymTerms(lower, qtf)...)
	}
	if len(qs) > maxQueryTerms {
		slices.SortStableFunc(qs, func(x, y qterm) int { return cmpFloat(y.weight, x.weight) })
		qs = qs[:maxQueryTerms]
	}
	return qs
}

// addPartners adds to q the terms that match in its stead, and returns
// the document frequency q counts with: its own, or, when no file has it,
// that of its first partner the index has. The partners: the whole form
// of a class name written in lower case, the abbreviations and concepts of
// alternates() (concepts only in short texts), and for a short text's word
// no file has, its base without a prefix (prefixes.go).
func (st *state) addPartners(q *qterm, long bool) float64 {
	df := float64(max(listDF(q.text), listDF(q.path)))
	if w := q.surface; w != q.term && simpleWord(w) {
		// a class name written in lower case ("objectutils") is the
		// whole form the index keeps of ObjectUtils, which its stem
		// (objectutil) is not: it matches as the word itself
		if at, ap := st.text.find(w), st.path.find(w); at != nil || ap != nil {
			q.addAlt(at, ap, w, 1, sepAbbrev)
			df = max(df, float64(max(listDF(at), listDF(ap))))
		}
	}
	for _, alt := range st.alternates()[q.term] {
		if alt.concept && long {
			// a long text says most things several ways already:
			// concept partners added noise to reports and commit
			// messages (docs/benchmarks.md)
			continue
		}
		at, ap := st.text.find(alt.term), st.path.find(alt.term)
		if at != nil || ap != nil {
			sep := sepAbbrev
			if alt.concept {
				sep = sepConcept
			}
			q.addAlt(at, ap, alt.term, alt.weight, sep)
			if df == 0 {
				df = float64(max(listDF(at), listDF(ap)))
			}
		}
	}
	if q.text == nil && q.path == nil && !long {
		// a word no file has, said with a prefix the code does not
		// write: its base (prefixes.go)
		if bdf := st.addPrefixBase(q, q.surface); df == 0 {
			df = bdf
		}
	}
	return df
}

// addMined adds to a short query's term q, if no file's text has it or
// at most minedRareFiles do, the partners mined from other projects
// (mined.go) that the index has, that q has not already and that are no
// term of the query (query's keys), and returns the document frequency q
// counts with (df, or when that is 0 the first such partner's).
func (st *state) addMined(q *qterm, df float64, query map[string]float64) float64 {
	if q.text != nil && listDF(q.text) > minedRareFiles {
		return df // a word the project writes: its own matches say it
	}
	for _, mp := range minedPartners(q.term, q.text != nil) {
		if query[mp.term] > 0 || slices.Contains(q.altTerm, mp.term) {
			continue // the query's own word counts already
		}
		at, ap := st.text.find(mp.term), st.path.find(mp.term)
		if at == nil && ap == nil {
			continue
		}
		q.addAlt(at, ap, mp.term, minedWeightOf(mp.strength), sepMined)
		if df == 0 {
			df = float64(max(listDF(at), listDF(ap)))
		}
	}
	return df
}

// How a partner's label joins it to the term it stands for (--explain:
// "cfg~config", "sandbox≈chroot", "throttle≃rate", "old≅age").
const (
	sepAbbrev  = "~" // an abbreviation, a whole form, a base
	sepConcept = "≈" // a concept of synonyms.go or thesaurus.go
	sepMined   = "≃" // a partner mined from other projects (mined.go)
	sepWordNet = "≅" // an adjective's attribute in WordNet (wordnet.go)
)

// addAlt adds a partner of q: its posting lists, its term, what a match
// counts for and how its label joins it to q (sepAbbrev, sepConcept,
// sepMined, sepWordNet).
func (q *qterm) addAlt(text, path []byte, term string, w float64, sep string) {
	q.alts = append(q.alts, [2][]byte{text, path})
	q.altTerm = append(q.altTerm, term)
	q.altW = append(q.altW, w)
	q.altSep = append(q.altSep, sep)
}

// compoundTerms returns terms for the compounds of a short query's
// adjacent words that the index has: "reverse proxy" is also
// "reverseproxy", a directory, a file name or an identifier
// (ReverseProxy, whose whole form is a term of its own and matches as an
// alternate), and "HTTP/2" is "http2" (versionNumber). have holds the
// terms the query has already.
func (st *state) compoundTerms(words []string, have map[string]float64) []qterm {
	N := float64(st.live)
	var qs []qterm
	for i := 0; i+1 < len(words); i++ {
		x, y := words[i], words[i+1]
		if stopWords[x] || stopWords[y] || !simpleWord(x) || !simpleWord(y) && !versionNumber(y) {
			continue
		}
		joined := x + y
		t := normalise(joined)
		if t == "" || have[t] > 0 {
			continue
		}
		q := qterm{term: t, surface: x + " " + y, tf: 1, text: st.text.find(t), path: st.path.find(t)}
		if joined != t {
			if at := st.text.find(joined); at != nil {
				q.addAlt(at, nil, joined, altWeight, sepAbbrev)
			}
		}
		df := float64(max(listDF(q.text), listDF(q.path)))
		for _, alt := range q.alts {
			df = max(df, float64(listDF(alt[0])))
		}
		if df == 0 {
			continue
		}
		have[t]++
		q.idf = math.Log(1 + (N-df+0.5)/(df+0.5))
		q.weight = q.idf
		qs = append(qs, q)
	}
	return qs
}

// versionNumber reports whether w, the word after another, is a version
// that the code writes joined to it: "HTTP/2" is http2, "Python 3"
// python3, "OAuth 2" oauth2.
func versionNumber(w string) bool {
	return len(w) <= 2 && allDigits(w)
}

// acronymTerms returns terms for the acronyms of a short query's runs of
// three or four words that the project names a directory or a file after:
// "write-ahead log replay" also looks for wal (tsdb/wal/), "least recently
// used cache" for lru. The project's own paths say which initials are a
// name there; three letters at least, of words of three letters at least
// (words as short as "id" or "io" are often acronyms themselves: "OOO
// chunk ID" is no "oci/" in prometheus), so that chance initials rarely
// meet one. have holds the terms the query has already.
func (st *state) acronymTerms(words []string, have map[string]float64) []qterm {
	var parts []string
	for _, w := range words {
		for _, p := range strings.FieldsFunc(w, func(r rune) bool { return r == '-' || r == '_' }) {
			if simpleWord(p) && len(p) >= 3 {
				parts = append(parts, p)
			} else {
				parts = append(parts, "") // breaks a run
			}
		}
	}
	N := float64(st.live)
	var qs []qterm
	for n := 4; n >= 3; n-- {
		for i := 0; i+n <= len(parts); i++ {
			run := parts[i : i+n]
			if slices.Contains(run, "") || stopWords[run[0]] || stopWords[run[n-1]] {
				continue
			}
			var b strings.Builder
			for _, p := range run {
				b.WriteByte(p[0])
			}
			acr := b.String()
			t := normalise(acr)
			if _, format := langExts[acr]; t == "" || have[t] > 0 || format || codeAbbrevs()[acr] {
				// a format's name ("cookie session storage": css) or a
				// programmer's abbreviation ("provider trust related":
				// ptr) is a word of its own, all over a tree's paths
				continue
			}
			q := qterm{term: t, surface: strings.Join(run, " ") + " (" + acr + ")", tf: 1, path: st.path.find(t), acronym: true}
			if q.path == nil {
				continue
			}
			q.text = st.text.find(t)
			df := float64(max(listDF(q.text), listDF(q.path)))
			have[t]++
			q.idf = math.Log(1 + (N-df+0.5)/(df+0.5))
			q.tf = float64(n) // it stands for the run's n words
			q.weight = q.idf * (1 + math.Log(q.tf))
			qs = append(qs, q)
		}
	}
	return qs
}

// accumulate scores the live documents for the query terms, BM25F: each
// term's field frequencies, weighted and normalised by field, are summed
// and saturated by k1. It returns the raw score of each document and the
// weight of the terms found, which the scores are shares of. Each term's
// IDF and weight are set again from its exact document frequency (live
// documents with the term in any field).
func (st *state) accumulate(qs []qterm) (acc []float64, total float64) {
	N := float64(st.live)
	n := len(st.docs)
	acc = make([]float64, n)
	tilde := make([]float64, n)
	exact := make([]bool, n) // the term itself in any field, of any term
	var touched []uint32
	var later []histBase
	for qi := range qs {
		q := &qs[qi]
		touched = touched[:0]
		add := func(list []byte, f0 int, w float64) {
			it := newIter(list, n)
			for it.next() {
				d := it.doc
				if st.dead[d] {
					continue
				}
				if tilde[d] == 0 {
					touched = append(touched, d)
				}
				if w == 1 {
					exact[d] = true
				}
				nm := &st.norm[d]
				tilde[d] += w * (float64(it.tf[0])*float64(nm[f0]) + float64(it.tf[1])*float64(nm[f0+1]))
			}
		}
		add(q.text, fContent, 1)
		add(q.path, fPath, 1)
		df := len(touched) // exact: live documents with the term in any field
		for ai, alt := range q.alts {
			add(alt[0], fContent, q.altW[ai])
			add(alt[1], fPath, q.altW[ai])
		}
		for _, h := range q.hist {
			later = append(later, histBase{qi, h, tilde[h.doc]})
		}
		if len(touched) == 0 {
			continue // a word only the history has: weighed below
		}
		if df == 0 {
			df = len(touched)
		}
		q.idf = math.Log(1 + (N-float64(df)+0.5)/(float64(df)+0.5))
		q.weight = q.idf * (1 + math.Log(q.tf))
		total += q.weight
		for _, d := range touched {
			t := tilde[d]
			acc[d] += q.weight * t / (k1 + t)
			tilde[d] = 0
		}
	}
	return acc, total + st.historyScores(qs, later, exact, acc)
}

// A cand is a document that scored, while it is ranked.
type cand struct {
	doc   int
	score float64
	notes []string
	lines [2]int // its best unit's first and last line, 1-based (units.go)
	unit  string // the name that unit defines
}

// rankUnits ranks the documents (rank) and, when opt.Source can read
// them, ranks the best of them again by their best units (unitScores).
func (st *state) rankUnits(scores []float64, p parsed, qs []qterm, opt SearchOptions) []cand {
	if opt.Source == nil {
		return st.rank(scores, p, opt)
	}
	wide := opt
	if opt.Limit >= 0 && max(opt.Limit, 10) < unitCands {
		wide.Limit = unitCands
	}
	cands := st.unitScores(st.rank(scores, p, wide), qs, opt.Source, p.long)
	// a file its units weighed down may have fallen below the floor
	cands = slices.DeleteFunc(cands, func(c cand) bool { return c.score < opt.MinScore })
	limit := opt.Limit
	if limit == 0 {
		limit = 10
	}
	if limit > 0 && len(cands) > limit {
		cands = cands[:limit]
	}
	return cands
}

// rank filters and boosts the documents that scored and returns the best
// opt.Limit of them, highest score first, ties by path. Candidates are
// visited by raw score; once the limit is filled, a candidate whose raw
// score times the largest boost this query can give cannot enter, and the
// visit stops.
func (st *state) rank(scores []float64, p parsed, opt SearchOptions) []cand {
	var raw []cand
	for d, s := range scores {
		if s > 0 && !st.dead[d] {
			raw = append(raw, cand{doc: d, score: s})
		}
	}
	byScoreThenPath := func(x, y cand) int {
		if c := cmpFloat(y.score, x.score); c != 0 {
			return c
		}
		return strings.Compare(st.docs[x.doc].rel, st.docs[y.doc].rel)
	}
	slices.SortFunc(raw, byScoreThenPath)
	maxBoost := p.maxBoost()
	limit := opt.Limit
	if limit == 0 {
		limit = 10
	}
	var cands []cand
	floor := 0.0 // the limit-th best score so far, once the limit is filled
	for _, c := range raw {
		if c.score*maxBoost < max(floor, opt.MinScore) {
			break
		}
		c, ok := p.adjust(c, st.docs[c.doc].rel, opt)
		if !ok {
			continue
		}
		cands = append(cands, c)
		if limit > 0 && len(cands) >= limit {
			slices.SortFunc(cands, func(x, y cand) int { return cmpFloat(y.score, x.score) })
			cands = cands[:limit]
			floor = cands[limit-1].score
		}
	}
	slices.SortStableFunc(cands, byScoreThenPath)
	if limit > 0 && len(cands) > limit {
		cands = cands[:limit]
	}
	// Ranked by their scores as boosted, reported capped at 1.
	for i := range cands {
		cands[i].score = min(cands[i].score, 1)
	}
	return cands
}

// maxBoost is the largest factor the boosts can multiply a score by for
// the query p.
func (p *parsed) maxBoost() float64 {
	b := 1.0
	if len(p.mentions) > 0 || len(p.modules) > 0 {
		b *= boostMention
	}
	if p.long && len(p.scopes) > 0 {
		b *= boostScope
	}
	if p.long && len(p.langs) > 0 {
		b *= boostLang
	}
	if !p.long {
		b *= boostSubject
	} else {
		b *= max(boostSubjectLong, boostPhraseLong)
	}
	if p.deepest != "" {
		b *= boostFrame
	}
	return b
}

// subjectOf returns the query term that is rel's file name, for a short
// query, or "": the file is named after what the query is about.
func (p *parsed) subjectOf(rel string) string {
	if l := p.suffixedSubject(rel); l != "" {
		return l
	}
	if len(p.subjects) == 0 {
		return ""
	}
	if said := p.toolSubject(rel); said != nil {
		return strings.Join(said, " ")
	}
	stem := strings.ToLower(baseName(rel))
	if ext := extOf(rel); ext != "" {
		stem = stem[:len(stem)-len(ext)]
	}
	if p.subjects[stem] {
		return stem // "http2" too, a compound of the request's words
	}
	if !simpleWord(stem) {
		if p.long && defLangOf(rel) != nil {
			// a long text's rare name spelled with hyphens is the
			// whole of a code file's name of several words:
			// 'object-curly-newline' in a report's configuration,
			// object-curly-newline.js (kebabNames; a page's name in a
			// link to the docs, config_coding.html, is not what a
			// report is about)
			if w := wholeName(stem); p.subjects[w] && p.kebabs[w] {
				return w
			}
		}
		return p.partsSubject(stem)
	}
	if t := normalise(stem); t != "" && p.subjects[t] {
		return t
	}
	return ""
}

// partnerOf returns the label of the partner of a short query's term that
// is rel's file name ("spread≈balanc" for balancer.go), or "".
func (p *parsed) partnerOf(rel string) string {
	if len(p.partners) == 0 {
		return ""
	}
	stem := strings.ToLower(baseName(rel))
	if ext := extOf(rel); ext != "" {
		stem = stem[:len(stem)-len(ext)]
	}
	if l := p.partners[stem]; l != "" {
		return l
	}
	if simpleWord(stem) {
		return p.partners[normalise(stem)]
	}
	return ""
}

// partsSubject returns the parts of a file's stem of several words
// ("line_range", "ignored-suffixes", "PetValidator") when the short query
// has every one of them ("print only a range of lines"), joined by
// spaces, or "": the file is named after the query's words, in whatever
// order the query says them. Parts that are no term (a digit, a stop
// word) are not asked for; two parts at least must be.
func (p *parsed) partsSubject(stem string) string {
	// every file's name is asked about, so first whether each part
	// begins as a subject does: most names end there (a part that does
	// not is stemmed only then, since a stop word need not be said)
	n := 0
	for part := range nameParts(stem) {
		if len(part) >= 2 && !p.heads[lowerHead(part)] && normalise(part) != "" {
			return ""
		}
		n++
	}
	if n < 2 {
		return ""
	}
	var said []string
	for part := range nameParts(stem) {
		t := normalise(part)
		if t == "" {
			continue
		}
		if !p.subjects[t] && !p.subjects[strings.ToLower(part)] {
			return ""
		}
		said = append(said, strings.ToLower(part))
	}
	if len(said) < 2 {
		return ""
	}
	return strings.Join(said, " ")
}

// wholeName is a file's stem (lower-case) as one word, the whole form the
// index keeps of an identifier: its separators dropped.
func wholeName(stem string) string {
	return strings.Map(func(r rune) rune {
		if r == '-' || r == '_' || r == '.' {
			return -1
		}
		return r
	}, stem)
}

// lowerHead returns the first two letters of part, lower-case.
func lowerHead(part string) string {
	a, b := part[0]|0x20, part[1]|0x20 // parts are ASCII letters
	return string([]byte{a, b})
}

// heads returns the first two letters of each subject: a word and its
// stem share them.
func heads(subjects map[string]bool) map[string]bool {
	m := make(map[string]bool, len(subjects))
	for s := range subjects {
		if len(s) >= 2 {
			m[s[:2]] = true
		}
	}
	return m
}

// nameParts yields the words of a file's stem: split at characters that
// are not letters and where a lower-case letter is followed by an
// upper-case one ("PetValidator": Pet, Validator).
func nameParts(stem string) func(yield func(string) bool) {
	return func(yield func(string) bool) {
		start := -1
		for i := 0; i < len(stem); i++ {
			c := stem[i]
			lower, upper := c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z'
			switch {
			case !lower && !upper:
				if start >= 0 && !yield(stem[start:i]) {
					return
				}
				start = -1
			case start < 0:
				start = i
			case upper && stem[i-1] >= 'a' && stem[i-1] <= 'z':
				if !yield(stem[start:i]) {
					return
				}
				start = i
			}
		}
		if start >= 0 {
			yield(stem[start:])
		}
	}
}

// toolShare is the share of the query's term weight that the words said,
// which name what a tool file is for, have: the file scores for them as
// for words of its own, since its name says them.
func toolShare(qs []qterm, said []string, total float64) float64 {
	if total == 0 {
		return 0
	}
	share := 0.0
	for _, q := range qs {
		for _, w := range said {
			if q.term == w || q.surface == w {
				share += q.weight / total
				break
			}
		}
	}
	return share
}

// adjust applies to c, the document at rel, the filters of the query and
// of opt (ok is false when one drops it) and its boosts and demotions,
// noting each; the score is capped at 1.
func (p *parsed) adjust(c cand, rel string, opt SearchOptions) (_ cand, ok bool) {
	if !globsAllow(rel, opt.Include, opt.Exclude) {
		return c, false
	}
	role := roleOf(rel)
	if p.notRoles&role != 0 {
		return c, false
	}
	if len(p.langs) > 0 {
		if hasExt(rel, p.langs) {
			if p.long {
				c.score *= boostLang
				c.notes = append(c.notes, "language "+strings.Join(p.langWord, "/"))
			}
		} else if !p.long && p.toolSubject(rel) == nil && (p.langTyped || !p.noLanguage(rel)) {
			// a tool file the request names by its job passes: the
			// linters of "the Go code" are configured in .golangci.yml;
			// and a language word that names no type of file ("Lua
			// linter settings", "publish the JavaScript client to npm",
			// "running dart fix") is the ecosystem of what is asked
			// for: it leaves out code in other languages, not the
			// configuration and data a project in that language keeps
			// (.luacheckrc, a workflow, fix_data/fix.yaml)
			return c, false
		}
	}
	if p.roles != 0 && role&p.roles == 0 && p.toolSubject(rel) == nil {
		// "test runner configuration" asks for the tool file that
		// configures the tests (vitest.config.ts), not for tests
		return c, false
	}
	c, demoted := p.demote(c, rel, role)
	c = p.demoteNotCodeLong(c, rel)
	if len(p.scopes) > 0 {
		in := false
		for _, s := range p.scopes {
			if inScope(rel, s) {
				in = true
				c.notes = append(c.notes, "scope "+s)
				break
			}
		}
		if in && p.long {
			c.score *= boostScope
		} else if !in && !p.long {
			return c, false
		}
	}
	if m := p.mentionOf(rel); m != "" {
		c.score *= boostMention
		c.notes = append(c.notes, m)
	}
	if rel == p.deepest {
		c.score *= boostFrame
		c.notes = append(c.notes, "innermost traceback frame in the project")
	}
	if t := p.subjectOf(rel); t != "" && !demoted {
		if p.long {
			c.score *= boostSubjectLong
		} else {
			c.score *= boostSubject
		}
		c.notes = append(c.notes, "named after "+t)
	} else if t := p.phraseSubject(rel); t != "" && !demoted {
		c.score *= boostPhraseLong
		c.notes = append(c.notes, "named after "+t+" (a phrase)")
	} else if t := p.partnerOf(rel); t != "" && !demoted {
		c.score *= boostPartner
		c.notes = append(c.notes, "named after "+t)
	}
	if min(c.score, 1) < opt.MinScore {
		return c, false
	}
	return c, true
}

// demote applies to c, the document at rel of the given role, the one
// demotion of what the query does not ask for that fits it first (a test,
// documentation, vendored code, example code, a file that is not code in a
// long text), noting it, and reports whether one did.
func (p *parsed) demote(c cand, rel string, role int) (_ cand, demoted bool) {
	switch {
	case p.long && isReportTemplate(rel) && p.mentionOf(rel) == "":
		// a report written in its project's template has all the
		// template's words: the template is its form, not its subject
		c.score *= demoteTemplateLong
		c.notes = append(c.notes, "report template demoted")
	case p.roles&roleTest == 0 && isTest(rel):
		c.score *= demoteRole
		c.notes = append(c.notes, "test file demoted")
	case p.roles&roleDoc == 0 && role&roleDoc != 0 && !hasExt(rel, p.langs) && !p.namesProse(rel):
		// a doc in a language the query names ("markdown docs", or
		// "rst" in a report) is not demoted, nor a project's prose
		// file a request names ("the changelog", "contributing
		// guidelines")
		if p.long {
			c.score *= demoteDocLong
		} else {
			c.score *= demoteDoc
		}
		c.notes = append(c.notes, "documentation demoted")
	case !p.long && isVendored(rel):
		// a request is about the project, not the copies of other
		// projects it carries
		c.score *= demoteRole
		c.notes = append(c.notes, "vendored code demoted")
	case !p.long && isCatalogue(rel) && !p.asksTranslations():
		// a catalogue of translated strings has the words of every
		// request about the interface: demoted as documentation is
		c.score *= demoteDoc
		c.notes = append(c.notes, "translations demoted")
	case isExample(rel) && !p.asksExamples():
		// example and tutorial code shows the library in use: a report
		// is about the library, and so is a request unless it asks for
		// examples; demoted as documentation is
		if p.long {
			c.score *= demoteDocLong
		} else {
			c.score *= demoteDoc
		}
		c.notes = append(c.notes, "example code demoted")
	case p.demotesOther(rel):
		c.score *= demoteOtherShort
		c.notes = append(c.notes, "not code: demoted")
	case p.long && defLangOf(rel) == nil && !hasExt(rel, p.langs):
		c.score *= demoteOtherLong
		c.notes = append(c.notes, "not code: demoted")
	default:
		return c, false
	}
	return c, true
}

// demotesOther reports whether a short request demotes rel as a file in
// no programming language. A request is for code unless it asks for
// configuration: a build script of another platform, a project file, a
// page of the interface or a completion script have the words of many
// requests about the code (curl's "make missing folders before writing a
// downloaded file" found VMS build scripts first). A tool's file is not
// demoted (tools.go): a request that names its job without asking for
// configuration ("dependency update bot schedule", "container image for
// the relay server") means it; nor is a file named after the request or
// in a language it names. Scripts are demoted too: in a request, the
// project's own scripts/ and helpers/ (a release's checks, a linter of its
// sources) are its tooling more often than its code.
func (p *parsed) demotesOther(rel string) bool {
	if p.long || defLangOf(rel) != nil || hasExt(rel, codeExts) || hasExt(rel, p.langs) || p.asksConfig() ||
		p.saysFormatOf(rel) {
		return false
	}
	// a lock file is indexed by its name only (lockfiles.go): found,
	// it was named
	return toolWordsOf(rel) == nil && !isLockFile(rel) && p.subjectOf(rel) == ""
}

// codeExts are the extensions of programming languages whose definitions
// the index does not read (defLangOf): a Clojure or Vue file is code all
// the same, and no short request demotes it as a file in no language.
// Shell, Perl and PowerShell scripts are not among them: in a request, a
// project's own scripts are its tooling more often than its code.
var codeExts = []string{".clj", ".nim", ".vue", ".svelte", ".groovy"}

// saysFormatOf reports whether a short request names the language or
// format of rel, filtering or not: "SQL table definitions" does not keep
// only SQL files, but means them. A word that is rel's extension names
// its format too, known to langExts or not: "fish shell init script"
// means starship.fish.
func (p *parsed) saysFormatOf(rel string) bool {
	ext := strings.ToLower(path.Ext(rel))
	for _, w := range p.words {
		if exts, ok := langExts[w.lower]; ok && !ambiguous[w.lower] && hasExt(rel, exts) {
			return true
		}
		// not of one letter (.c, .h, .1: "a C library" is langExts'
		// business) nor a stop word (Makefile.in, .out)
		if len(ext) > 2 && w.lower == ext[1:] && !stopWords[w.lower] {
			return true
		}
	}
	return false
}

// noLanguage reports whether rel is a file in no programming language
// and no documentation: configuration, data, a script without an extension.
func (p *parsed) noLanguage(rel string) bool {
	return defLangOf(rel) == nil && !hasExt(rel, codeExts) && !hasExt(rel, scriptExts) && roleOf(rel)&roleDoc == 0
}

// asksConfig reports whether a short request asks for configuration, by
// a role word or a word of configWords.
func (p *parsed) asksConfig() bool {
	if len(p.roleWords) > 0 && p.roles&roleConfig != 0 {
		return true
	}
	for _, w := range p.words {
		if configWords[w.lower] {
			return true
		}
	}
	return false
}

// exampleWords name the directories isExample knows.
var exampleWords = map[string]bool{
	"example": true, "examples": true, "tutorial": true, "tutorials": true, "demo": true, "demos": true,
	"sample": true, "samples": true, "gallery": true,
}

// asksExamples reports whether a short request asks for example code.
func (p *parsed) asksExamples() bool {
	if p.long {
		return false
	}
	for _, w := range p.words {
		if exampleWords[w.lower] {
			return true
		}
	}
	return false
}

// namesProse reports whether a short request names rel, a file of the
// project's prose that is named for what it is (CHANGELOG.md,
// CONTRIBUTING.md, LICENSE) by that name, or a template
// (.github/ISSUE_TEMPLATE/bug.md) by "template": it asks for it.
func (p *parsed) namesProse(rel string) bool {
	if p.long {
		return false
	}
	if strings.Contains(strings.ToLower(rel), "template") && (p.hasWord("template") || p.hasWord("templates")) {
		return true
	}
	t := p.subjectOf(rel)
	if joined := strings.ReplaceAll(t, " ", "-"); changeLogNames[joined] {
		return true // "release notes": RELEASE-NOTES.md, release_notes.rst
	}
	return t != "" && (proseNames[t] || changeLogNames[t] || proseNames[normalise(t)] || otherProse[t])
}

// otherProse are the names of a project's prose files that proseNames,
// which also names files without an extension, leaves out. Not SECURITY.md
// or SUPPORT.md: "security" and "support" are words of requests for code
// ("support for HTTP/3").
var otherProse = map[string]bool{"conduct": true, "governance": true, "maintainers": true}

// asksTranslations reports whether a short request asks for the
// interface's translations.
func (p *parsed) asksTranslations() bool {
	for _, w := range p.words {
		if translationWords[w.lower] {
			return true
		}
	}
	return false
}

// mentionOf returns the note for the first mention of rel in the query, a
// path or a module, or "".
func (p *parsed) mentionOf(rel string) string {
	for _, m := range p.mentions {
		if pathMentioned(rel, m) {
			return "mentioned as " + m
		}
	}
	for _, m := range p.modules {
		if moduleMentioned(rel, m) {
			return "module " + strings.ReplaceAll(m, "/", ".")
		}
	}
	return ""
}

// lastPart returns the part of word w that analyses to term, for display.
func (a *analyzer) lastPart(w, term string) string {
	for _, p := range a.split(w) {
		if a.term(p) == term {
			return p
		}
	}
	return term
}

func listDF(list []byte) uint64 {
	it := newIter(list, 0)
	return it.df
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// globsAllow reports whether rel passes the include and exclude globs (see
// globMatch).
func globsAllow(rel string, include, exclude []string) bool {
	for _, g := range exclude {
		if globMatch(g, rel) {
			return false
		}
	}
	if len(include) == 0 {
		return true
	}
	for _, g := range include {
		if globMatch(g, rel) {
			return true
		}
	}
	return false
}

// globMatch reports whether doublestar glob g matches rel. As in
// .gitignore and rg -g, a glob without a slash matches a file's name at
// any depth ("*.py" is "**/*.py"), and a leading slash anchors a glob at
// the project root ("/README.md" is only the top-level one). An invalid
// glob matches nothing.
func globMatch(g, rel string) bool {
	if a, ok := strings.CutPrefix(g, "/"); ok {
		g = a
	} else if !strings.Contains(g, "/") {
		g = "**/" + g
	}
	ok, _ := doublestar.Match(g, rel)
	return ok
}

// pathMentioned reports whether mention m names rel: the same path, a
// suffix of it on a component boundary, or a longer path (from a stack
// trace) that ends with it, or with rel but for its first component: a
// package kept under a source root (lib/pkg/mod.py, src/pkg/mod.py) is
// installed without it (site-packages/pkg/mod.py).
func pathMentioned(rel, m string) bool {
	if m == "" {
		return false
	}
	if !strings.Contains(m, "/") {
		return path.Base(rel) == m
	}
	if rel == m || strings.HasSuffix(rel, "/"+m) || strings.HasSuffix(m, "/"+rel) {
		return true
	}
	_, inRoot, ok := strings.Cut(rel, "/")
	return ok && strings.Contains(inRoot, "/") && strings.HasSuffix(m, "/"+inRoot)
}

// alternates returns the abbreviation partners of terms (built once per
// loaded index).
func (st *state) alternates() map[string][]partner {
	st.altOnce.Do(func() { st.alts = alternates(newAnalyzer()) })
	return st.alts
}

func (st *state) dirExists(dir string) bool {
	dir = strings.Trim(dir, "/")
	if dir == "" {
		return false
	}
	for _, d := range st.docs {
		if inScope(d.rel, dir) {
			return true
		}
	}
	return false
}

// inScope reports whether rel lies under directory dir, given from the
// project root ("src/api") or as a trailing run of components anywhere
// ("api", "api/v1").
func inScope(rel, dir string) bool {
	return strings.HasPrefix(rel, dir+"/") || strings.Contains(rel, "/"+dir+"/")
}

// reportTitle returns the first line of a long query that has words: a
// report's title, which says what it is about.
func reportTitle(q string) string {
	for _, line := range strings.Split(q, "\n") {
		if strings.TrimSpace(line) != "" {
			if len(line) > 200 {
				line = line[:200]
			}
			return line
		}
	}
	return ""
}

// listingLine is a line of an environment listing: "numpy: 1.17.3",
// "python-bits: 64", "scipy: None", "- Python version: 3.8.2".
var listingLine = lazyregexp.New(`^\s*[-*]?\s*[A-Za-z][\w .()/-]{0,40}:\s*(None|[vV]?\d[\w.+-]*|\S+ \d[\w.+-]*)?\s*$`)

// minListing is the number of consecutive listing lines that make a
// listing.
const minListing = 5

// htmlComment is an HTML comment: in an issue or a pull request written
// from a template, the template's instructions ("Write the release notes
// below", "If this pull request fixes an issue …"), which GitHub does not
// show.
var htmlComment = lazyregexp.New(`(?s)<!--.*?-->`)

// dropHTMLComments removes the HTML comments of q: they are a template's
// words, the same in every report of a project, not the reporter's, and
// they match the template's file and the tools that handle reports.
func dropHTMLComments(q string) string {
	if !strings.Contains(q, "<!--") {
		return q
	}
	return htmlComment.Re().ReplaceAllString(q, " ")
}

// dropListings removes from q the environment listings a report pastes
// (the versions of Python and of every package installed): they name the
// report's setting, not its subject, and match the file that prints them.
func dropListings(q string) string {
	lines := strings.Split(q, "\n")
	keep := make([]bool, len(lines))
	for i := 0; i < len(lines); {
		j := i
		for j < len(lines) && listingLine.Re().MatchString(lines[j]) {
			j++
		}
		if j-i < minListing {
			for k := i; k < max(j, i+1); k++ {
				keep[k] = true
			}
			i = max(j, i+1)
			continue
		}
		i = j
	}
	var b strings.Builder
	for i, l := range lines {
		if keep[i] {
			b.WriteString(l)
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// checklistItem is a line of a task list ("- [x] I have searched the
// issues"), a line of a report's template that the reporter ticks; its
// bullet may be lost where the text was copied from the page ("[x] Bug
// fix"), and a box ticked by hand may have a space beside its x ("[x ]").
var checklistItem = lazyregexp.New(`(?m)^[ \t]*(?:[-*+][ \t]+)?\[(?: |[ \t]*[xX][ \t]*)\][ \t].*$`)

// dropChecklists removes q's task-list lines: in a report they are the
// template's confirmations ("I found a bug, not just asking a question",
// "I have searched the GitHub Issues") and its menus ("[x] Bug fix",
// "[ ] Documentation update"), the same in every report of the project,
// and they match the template and the files that link to the same places,
// not the code the report is about.
func dropChecklists(q string) string {
	if !strings.Contains(q, "[") || !strings.Contains(strings.TrimSpace(q), "\n") {
		// a request of one line is its own words, whatever it opens
		// with ("[ ] items render as checkboxes")
		return q
	}
	return checklistItem.Re().ReplaceAllString(q, "")
}
