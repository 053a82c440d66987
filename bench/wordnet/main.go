// Command wordnet derives from Princeton WordNet 3.0 the table of English
// word relations the description matcher embeds (memory/wordnet.txt): for
// each adjective (stemmed), the nouns WordNet names as its attribute (big,
// large, small: size; old: age; deep: depth; wide: width; fast, slow:
// speed; heavy: weight), so that a short request's adjective matches a
// file that names the quantity it is about ("payload too big": maxSize).
//
//	apt-get install wordnet-base
//	go run ./bench/wordnet -dict /usr/share/wordnet -out memory/wordnet.txt
//
// is the command that wrote the table committed (the defaults: -rel =
// -senses 4 -top 4).
//
// A word's relations are read from its first -senses senses (WordNet's
// index lists them most frequent first). -rel can add a word's derivation
// family ("+", a lexical relation: this word to that word, agent nouns
// left out both ways: send and sender, crawler and crawl), synonyms
// ("syn"), similar adjectives ("&") and hypernyms ("@"), and -software
// keeps only partners that are software vocabulary (a word of
// memory/mined.txt or memory/minedcommits.txt): the variants the twelfth
// pass of issue 34 measured and did not land (docs/benchmarks.md).
//
// Licence: WordNet 3.0 is Princeton University's, free to use, copy, modify
// and distribute with its notice, which the table's header carries.
package main

import (
	"bufio"
	"cmp"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/taskctl/taskctl/memory"
)

// notice is WordNet's copyright notice and disclaimer, which its licence
// asks to appear on every copy of the database or a modification of it.
const notice = `WordNet 3.0 Copyright 2006 by Princeton University. All rights reserved.
THIS SOFTWARE AND DATABASE IS PROVIDED "AS IS" AND PRINCETON UNIVERSITY MAKES NO
REPRESENTATIONS OR WARRANTIES, EXPRESS OR IMPLIED. BY WAY OF EXAMPLE, BUT NOT
LIMITATION, PRINCETON UNIVERSITY MAKES NO REPRESENTATIONS OR WARRANTIES OF
MERCHANTABILITY OR FITNESS FOR ANY PARTICULAR PURPOSE OR THAT THE USE OF THE
LICENSED SOFTWARE, DATABASE OR DOCUMENTATION WILL NOT INFRINGE ANY THIRD PARTY
PATENTS, COPYRIGHTS, TRADEMARKS OR OTHER RIGHTS. The name of Princeton
University or Princeton may not be used in advertising or publicity pertaining
to distribution of the software and/or database. Title to copyright in this
software, database and any associated documentation shall at all times remain
with Princeton University.`

// A synset is one sense: its lemmas and its pointers to other synsets.
type synset struct {
	lemmas []string
	ptrs   []pointer
}

// A pointer is a relation from a synset to another (symbol: "@" hypernym,
// "+" derivation, "&" similar adjective, …).
type pointer struct {
	symbol   string
	key      string // "n:offset"
	src, dst int    // of a lexical pointer, the lemmas it joins (1-based); 0 for the whole synsets
}

// Relations kept and what a partner through each counts for (x100 in the
// table): a synonym as much as derivation, a hypernym's word less, as it
// is broader.
var relations = map[string]int{"syn": 100, "+": 100, "=": 100, "&": 80, "@": 60}

// agentNoun reports whether partner is the agent noun of the word from
// (send: sender, select: selector, clean: cleaner): a name every project
// writes for its own kind of thing ("object sender" in every .NET event
// handler), which matched the wrong files in the twelfth pass's
// measurement, as agent nouns had in the seventh's.
func agentNoun(from, partner string) bool {
	base := from[:min(len(from), max(3, len(from)-1))]
	if !strings.HasPrefix(partner, base) {
		return false
	}
	rest := partner[len(base):]
	return len(rest) >= 2 && len(rest) <= 4 && (strings.HasSuffix(rest, "er") || strings.HasSuffix(rest, "or") || strings.HasSuffix(rest, "ar"))
}

// agentOf reports whether word is an agent noun and partner its verb
// (user: use, crawler: crawl, interceptor: intercept).
func agentOf(word, partner string) bool {
	if len(word) < 4 || !(strings.HasSuffix(word, "er") || strings.HasSuffix(word, "or") || strings.HasSuffix(word, "ar")) {
		return false
	}
	r := word[:len(word)-2]
	if n := len(r); n >= 2 && r[n-1] == r[n-2] {
		r = r[:n-1] // a doubled consonant: scanner, scan
	}
	return strings.HasPrefix(partner, r) && len(partner)-len(r) <= 2
}

func main() {
	dict := flag.String("dict", "/usr/share/wordnet", "WordNet 3.0's dict directory (data.noun, index.noun, …)")
	out := flag.String("out", "memory/wordnet.txt", "the table to write")
	senses := flag.Int("senses", 4, "how many of a word's senses (most frequent first) to read")
	top := flag.Int("top", 4, "partners a word keeps at most")
	rels := flag.String("rel", "=", "the relations kept (+: derivation, =: an adjective's attribute, syn: synonyms, &: similar adjectives, @: hypernyms)")
	software := flag.Bool("software", false, "keep only partners that are software vocabulary (memory/mined.txt, memory/minedcommits.txt)")
	flag.Parse()
	for r := range relations {
		if !slices.Contains(strings.Split(*rels, ","), r) {
			delete(relations, r)
		}
	}
	vocab, err := softwareVocabulary("memory/mined.txt", "memory/minedcommits.txt")
	if err != nil {
		log.Fatal(err)
	}
	if !*software {
		vocab = nil
	}
	sets := map[string]*synset{}
	index := map[string][]string{} // lemma → synset keys, most frequent first
	for _, pos := range []string{"noun", "verb", "adj", "adv"} {
		if err := readData(filepath.Join(*dict, "data."+pos), sets); err != nil {
			log.Fatal(err)
		}
		if err := readIndex(filepath.Join(*dict, "index."+pos), index); err != nil {
			log.Fatal(err)
		}
	}
	table := relate(sets, index, vocab, *senses, *top)
	if err := write(*out, table, *senses, *top, *rels); err != nil {
		log.Fatal(err)
	}
}

// softwareVocabulary returns the stemmed words of the mined tables, keys
// and partners: the words programmers write in comments, code and commits.
func softwareVocabulary(paths ...string) (map[string]bool, error) {
	v := map[string]bool{}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		for _, line := range strings.Split(string(b), "\n") {
			if line == "" || line[0] == '#' {
				continue
			}
			for i, f := range strings.Fields(line) {
				if i > 0 {
					f, _, _ = strings.Cut(f, ":")
				}
				v[f] = true
			}
		}
	}
	return v, nil
}

// readData reads a data.POS file's synsets into sets, keyed "p:offset".
func readData(path string, sets map[string]*synset) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "  ") {
			continue // the licence header
		}
		head, _, _ := strings.Cut(line, "|")
		fs := strings.Fields(head)
		if len(fs) < 4 {
			continue
		}
		pos := fs[2]
		if pos == "s" {
			pos = "a" // a satellite adjective is an adjective
		}
		n, err := strconv.ParseInt(fs[3], 16, 64)
		if err != nil {
			continue
		}
		s := &synset{}
		i := 4
		for k := 0; k < int(n) && i+1 < len(fs); k++ {
			s.lemmas = append(s.lemmas, fs[i])
			i += 2
		}
		if i >= len(fs) {
			continue
		}
		np, _ := strconv.Atoi(fs[i])
		i++
		for k := 0; k < np && i+3 < len(fs); k++ {
			p := fs[i+2]
			if p == "s" {
				p = "a"
			}
			sd, _ := strconv.ParseUint(fs[i+3], 16, 16)
			s.ptrs = append(s.ptrs, pointer{symbol: fs[i], key: p + ":" + fs[i+1], src: int(sd >> 8), dst: int(sd & 0xff)})
			i += 4
		}
		sets[pos+":"+fs[0]] = s
	}
	return sc.Err()
}

// readIndex reads an index.POS file: each lemma's synsets, most frequent
// sense first, appended to what other parts of speech gave it.
func readIndex(path string, index map[string][]string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if len(fs) < 6 || strings.HasPrefix(sc.Text(), " ") {
			continue
		}
		pos := fs[1]
		if pos == "s" {
			pos = "a"
		}
		nsyn, _ := strconv.Atoi(fs[2])
		if nsyn == 0 || len(fs) < nsyn {
			continue
		}
		for _, off := range fs[len(fs)-nsyn:] {
			index[fs[0]] = append(index[fs[0]], pos+":"+off)
		}
	}
	return sc.Err()
}

// A partner is a related stem and what it counts for (x100).
type partner struct {
	term  string
	score int
}

// relate builds the table: for each single-word lemma, the stems of the
// lemmas related to its first senses, in software vocabulary, not its own
// stem, strongest first.
func relate(sets map[string]*synset, index map[string][]string, vocab map[string]bool, senses, top int) map[string][]partner {
	table := map[string][]partner{}
	lemmas := make([]string, 0, len(index))
	for l := range index {
		lemmas = append(lemmas, l)
	}
	slices.Sort(lemmas) // the same table from run to run
	for _, lemma := range lemmas {
		keys := index[lemma]
		if strings.ContainsAny(lemma, "_-") {
			continue // a request's words are looked up one by one
		}
		from := stemOf(lemma)
		if from == "" {
			continue
		}
		best := map[string]int{}
		var order []string // first seen: a more frequent sense, a synonym before a relation
		for rank, key := range keys {
			if rank >= senses {
				break
			}
			s := sets[key]
			if s == nil {
				continue
			}
			// a rarer sense counts less: 1, 0.9, 0.8, …
			decay := 100 - 10*rank
			add := func(l string, rel int) {
				t := targetStem(l)
				if t == "" || t == from || vocab != nil && !vocab[t] || agentNoun(from, t) || agentOf(from, t) {
					return
				}
				if _, ok := best[t]; !ok {
					order = append(order, t)
				}
				best[t] = max(best[t], rel*decay/100)
			}
			if rel, ok := relations["syn"]; ok {
				for _, l := range s.lemmas {
					add(l, rel)
				}
			}
			for _, p := range s.ptrs {
				rel, ok := relations[p.symbol]
				if !ok || p.symbol == "=" && !strings.HasPrefix(key, "a:") {
					continue // an attribute: of an adjective, its noun (deep: depth)
				}
				t := sets[p.key]
				switch {
				case t == nil:
				case p.dst > 0:
					// a lexical pointer (derivation: choose, choice)
					// joins one word to one word: this word's only
					if p.src <= len(s.lemmas) && strings.EqualFold(s.lemmas[p.src-1], lemma) && p.dst <= len(t.lemmas) {
						add(t.lemmas[p.dst-1], rel)
					}
				default:
					for _, l := range t.lemmas {
						add(l, rel)
					}
				}
			}
		}
		ps := table[from]
		for _, t := range order {
			sc := best[t]
			if i := slices.IndexFunc(ps, func(p partner) bool { return p.term == t }); i >= 0 {
				ps[i].score = max(ps[i].score, sc)
			} else {
				ps = append(ps, partner{t, sc})
			}
		}
		table[from] = ps
	}
	for w, ps := range table {
		slices.SortStableFunc(ps, func(a, b partner) int { return cmp.Compare(b.score, a.score) })
		if len(ps) > top {
			ps = ps[:top]
		}
		if len(ps) == 0 {
			delete(table, w)
		} else {
			table[w] = ps
		}
	}
	return table
}

// stemOf returns the one term of a single word as the index analyses it,
// or "" for a stop word or a word that gives more than one term.
func stemOf(w string) string {
	ts := memory.Tokenize(strings.ToLower(w))
	if len(ts) != 1 {
		return ""
	}
	return ts[0]
}

// targetStem returns the term a related lemma contributes: a single
// word's stem, or of a compound noun ("random_access_memory",
// "computer_memory") the stem of its last word, the head that names the
// kind of thing; "" for a phrasal verb or adjective ("take_out").
func targetStem(lemma string) string {
	lemma = strings.ToLower(strings.TrimSuffix(strings.TrimSuffix(lemma, "(a)"), "(p)"))
	if i := strings.LastIndexAny(lemma, "_-/"); i >= 0 {
		return stemOf(lemma[i+1:])
	}
	return stemOf(lemma)
}

// write writes the table with its header: how it was made and WordNet's
// notice.
func write(path string, table map[string][]partner, senses, top int, rels string) error {
	var b strings.Builder
	fmt.Fprintf(&b, "# English word relations derived by bench/wordnet from Princeton WordNet 3.0:\n")
	fmt.Fprintf(&b, "# of a word's first %d senses, the relations %s (+: derived words, =: an adjective's\n", senses, rels)
	fmt.Fprintf(&b, "# attribute, syn: synonyms, &: similar adjectives, @: hypernyms), agent nouns left out.\n")
	fmt.Fprintf(&b, "# Per line: a stemmed word, then up to %d stemmed partners with what each counts for\n", top)
	fmt.Fprintf(&b, "# (x100: 100 a derivation or attribute, less for a rarer sense).\n#\n")
	for _, l := range strings.Split(notice, "\n") {
		fmt.Fprintf(&b, "# %s\n", l)
	}
	words := make([]string, 0, len(table))
	for w := range table {
		words = append(words, w)
	}
	slices.Sort(words)
	for _, w := range words {
		b.WriteString(w)
		for _, p := range table[w] {
			fmt.Fprintf(&b, " %s:%d", p.term, p.score)
		}
		b.WriteByte('\n')
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}
