// Command assoc mines associations between the English words of doc
// comments and the code words of the definitions they document, across a
// corpus of other projects' source, and writes the table the description
// matcher embeds (memory/mined.txt): for each English word, the few code
// words most associated with it that are not its own stem.
//
//	go run ./bench/assoc -manifest CORPUS/projects.tsv -exclude CORPUS/exclude.txt \
//		-units 4000 -min 0.15 -minword 5 -minproj 4 -minpair 5 -out memory/mined.txt
//
// is the command that wrote the table committed.
//
// The manifest names one project a line, "NAME<TAB>DIRECTORY" (how the
// corpus was gathered is bench/assoc/corpus.sh's; the corpus itself is
// never committed). Each project's source files, in path order (at most
// maxFiles, spread evenly), are cut into units: a comment block (//, ///,
// /* */, #) and the code lines after it, up to the next comment or -lines
// lines, or a Python docstring and its def or class line with the lines
// after it. A unit's English words are the comment's all-lower-case
// alphabetic words, its code words the parts of the identifiers of its
// code lines (not a compound's whole form, which is one project's name);
// both are analysed as the index analyses words (memory.Tokenize: split,
// lower-cased, stop words out, stemmed). A
// project gives at most -units units, spread evenly over its files, so a
// large project cannot dominate.
//
// For an English word e and a code word c, n(e,c) counts the units that
// have both, n(e) and n(c) the units that have each, N all units; their
// association is the normalised pointwise mutual information
// log(n(e,c) N / (n(e) n(c))) / -log(n(e,c)/N), in (0, 1] when they meet
// more often than chance. A pair is kept if it meets in at least -minproj
// projects and -minpair units and its NPMI is at least -min, and if the
// code word is not the English word's stem written as code (retri, retry,
// retrycount); a word keeps its -top strongest partners. -cache keeps the
// units read, so that the thresholds can be tried again without reading
// the corpus again.
//
// With -commits the manifest names git directories instead, and a unit is
// a commit: its subject's words against the names of what it changed
// (commits.go; bench/assoc/repos.txt lists the histories mined).
package main

import (
	"encoding/gob"
	"flag"
	"fmt"
	"io/fs"
	"log"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/taskctl/taskctl/memory"
)

func main() {
	manifest := flag.String("manifest", "", "projects, one a line: NAME<TAB>DIRECTORY")
	out := flag.String("out", "memory/mined.txt", "the table to write")
	units := flag.Int("units", 1500, "at most this many units from one project")
	minProj := flag.Int("minproj", 5, "a pair must meet in this many projects")
	minPair := flag.Float64("minpair", 8, "a pair must meet in this many units")
	minWord := flag.Int("minword", 8, "an English word must be in the comments of this many projects")
	minScore := flag.Float64("min", 0.12, "the least NPMI kept")
	top := flag.Int("top", 4, "partners kept per word")
	flag.IntVar(&codeLines, "lines", codeLines, "code lines after a comment that its unit takes")
	exclude := flag.String("exclude", "", "repositories no project may be (owner/name, one a line): a project named like one, by its whole name or its last part, is left out")
	cache := flag.String("cache", "", "a file keeping the corpus's units between runs (read if it exists)")
	commits := flag.Bool("commits", false, "the manifest's directories are git directories: a unit is a commit (commits.go)")
	body := flag.Bool("body", false, "with -commits: a commit's English words are its subject's and its first paragraph's")
	code := flag.String("code", "defs,files", "with -commits: the kinds of code words a commit gives (defs, files, lines)")
	list := flag.String("list", "", "with -commits: write the repositories mined, their HEAD and units, to this file")
	flag.Parse()
	if *manifest == "" {
		log.Fatal("assoc: -manifest is needed")
	}
	projects, err := readManifest(*manifest)
	if err != nil {
		log.Fatal(err)
	}
	if *exclude != "" {
		if projects, err = excludeProjects(projects, *exclude); err != nil {
			log.Fatal(err)
		}
	}
	c := newCorpus()
	if *commits {
		if err := c.readCommitCorpus(projects, *units, *body, *cache, *list, strings.Split(*code, ",")); err != nil {
			log.Fatal(err)
		}
	} else if *cache != "" && c.load(*cache, projects) == nil {
		log.Printf("corpus read from %s", *cache)
	} else {
		c.read(projects, *units)
		if *cache != "" {
			if err := c.save(*cache); err != nil {
				log.Fatal(err)
			}
		}
	}
	english := "comment"
	if *commits {
		english = "subject"
	}
	log.Printf("%d projects, %d units, %d terms, %d %s words, %d code words",
		len(c.projects), c.n, len(c.names), c.commentWords, english, c.codeWords)
	table := c.associate(*minProj, *minWord, *minPair, *minScore, *top)
	source := fmt.Sprintf("-lines %d -units %d", codeLines, *units)
	if *commits {
		source = fmt.Sprintf("-commits -units %d -code %s -body=%v", *units, *code, *body)
	}
	what := "the doc comments and documented code"
	if *commits {
		what = "the commit subjects and changed code"
	}
	header := fmt.Sprintf(`# Associations between English words and code words, mined by bench/assoc
# from %s of %d projects (%d units, %d
# English words, %d code words), none a repository of a retrieval set, the
# held-out sets' included (bench/assoc/exclude.sh, -exclude).
# Per line: a stemmed English word, then up to %d stemmed code words with
# their NPMI (x100): %s -minproj %d -minpair %g -minword %d -min %g.
`, what, len(c.projects), c.n, c.commentWords, c.codeWords, *top, source, *minProj, *minPair, *minWord, *minScore)
	if err := os.WriteFile(*out, []byte(header+table), 0o644); err != nil {
		log.Fatal(err)
	}
}

type project struct{ name, dir string }

func readManifest(path string) ([]project, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var ps []project
	for _, line := range strings.Split(string(data), "\n") {
		name, dir, ok := strings.Cut(strings.TrimSpace(line), "\t")
		if ok && !strings.HasPrefix(name, "#") {
			ps = append(ps, project{name, dir})
		}
	}
	return ps, nil
}

// excludeProjects returns ps without the projects that name a repository
// the file at path lists (owner/name a line), compared in lower case by
// the whole name or by the last part alone: "py:cryptography" and
// "github.com/pyca/cryptography" are pyca/cryptography, and so is any
// project called cryptography (a name is not proof of a different
// project). A module's major version suffix (/v2) is not its name.
func excludeProjects(ps []project, path string) ([]project, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	full, last := map[string]bool{}, map[string]bool{}
	for _, line := range strings.Fields(strings.ToLower(string(data))) {
		full[line] = true
		last[line[strings.LastIndex(line, "/")+1:]] = true
	}
	var out []project
	for _, p := range ps {
		if n := projectName(p.name); full[n] || last[n[strings.LastIndex(n, "/")+1:]] {
			log.Printf("left out: %s", p.name)
			continue
		}
		out = append(out, p)
	}
	return out, nil
}

// projectName is a manifest name as owner/name compares it: lower case,
// without an ecosystem prefix (npm:, py:), a module host or the module
// cache's escapes, or a major version suffix.
func projectName(name string) string {
	n := strings.ToLower(name)
	if _, rest, ok := strings.Cut(n, ":"); ok {
		n = rest
	}
	n = strings.ReplaceAll(strings.TrimPrefix(n, "github.com/"), "!", "")
	if i := strings.LastIndex(n, "/"); i > 0 && len(n) > i+2 && n[i+1] == 'v' && isNumber(n[i+2:]) {
		n = n[:i]
	}
	return n
}

// A unit is the English words of one comment and the code words of what
// it documents, as term IDs, each set sorted.
type unit struct{ eng, code []uint32 }

type corpus struct {
	mu           sync.Mutex
	ids          map[string]uint32
	names        []string
	projects     [][]unit
	projectNames []string
	projectWords [][2]int // comment words and code words of each project's units
	n            int
	commentWords int
	codeWords    int
}

// add appends a project's units and its counts of words.
func (c *corpus) add(name string, us []unit, words [2]int) {
	c.projects = append(c.projects, us)
	c.projectNames = append(c.projectNames, name)
	c.projectWords = append(c.projectWords, words)
	c.n += len(us)
	c.commentWords += words[0]
	c.codeWords += words[1]
}

// saved is what -cache keeps of a corpus.
type saved struct {
	Projects []string // the projects' names, in the order of Eng and Code
	Names    []string
	Eng      [][][]uint32 // per project, per unit
	Code     [][][]uint32
	Words    [][2]int // per project: its units' comment words and code words
}

func (c *corpus) save(path string) error {
	s := saved{Projects: c.projectNames, Names: c.names, Words: c.projectWords}
	for _, us := range c.projects {
		var e, k [][]uint32
		for _, u := range us {
			e, k = append(e, u.eng), append(k, u.code)
		}
		s.Eng, s.Code = append(s.Eng, e), append(s.Code, k)
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return gob.NewEncoder(f).Encode(&s)
}

// load reads the units a cache keeps of the projects ps, by name (of
// projects of one name, in order); a project of ps the cache lacks is an
// error.
func (c *corpus) load(path string, ps []project) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	var s saved
	if err := gob.NewDecoder(f).Decode(&s); err != nil {
		return err
	}
	at := map[string][]int{} // a name may be several projects' (two versions of a module)
	for i, n := range s.Projects {
		at[n] = append(at[n], i)
	}
	c.names = s.Names
	for _, p := range ps {
		if len(at[p.name]) == 0 {
			return fmt.Errorf("%s: no project %s", path, p.name)
		}
		i := at[p.name][0]
		at[p.name] = at[p.name][1:]
		us := make([]unit, len(s.Eng[i]))
		for j := range us {
			us[j] = unit{s.Eng[i][j], s.Code[i][j]}
		}
		c.add(p.name, us, s.Words[i])
	}
	return nil
}

func newCorpus() *corpus { return &corpus{ids: map[string]uint32{}} }

func (c *corpus) id(t string) uint32 {
	if id, ok := c.ids[t]; ok {
		return id
	}
	id := uint32(len(c.names))
	c.ids[t] = id
	c.names = append(c.names, t)
	return id
}

// read cuts every project into units, in parallel, and adds them in
// manifest order.
func (c *corpus) read(ps []project, maxUnits int) {
	type result struct {
		us    []unit
		words [2]int
	}
	results := make([]result, len(ps))
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range runtime.NumCPU() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				raw := spread(projectUnits(ps[i].dir), maxUnits)
				c.mu.Lock()
				var r result
				for _, u := range raw {
					eng, code := c.idSet(u.eng), c.idSet(u.code)
					r.us = append(r.us, unit{eng, code})
					r.words[0] += u.nEng
					r.words[1] += u.nCode
				}
				c.mu.Unlock()
				results[i] = r
			}
		}()
	}
	for i := range ps {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	for i, r := range results {
		c.add(ps[i].name, r.us, r.words)
	}
}

func (c *corpus) idSet(ts []string) []uint32 {
	out := make([]uint32, 0, len(ts))
	for _, t := range ts {
		out = append(out, c.id(t))
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// spread keeps at most n of us, evenly spaced.
func spread(us []rawUnit, n int) []rawUnit {
	if len(us) <= n {
		return us
	}
	out := make([]rawUnit, 0, n)
	for i := range n {
		out = append(out, us[i*len(us)/n])
	}
	return out
}

type rawUnit struct {
	eng, code   []string
	nEng, nCode int
}

// sourceExts are the files read, by extension, with whether # starts a
// comment in them.
var sourceExts = map[string]bool{
	".go": false, ".js": false, ".mjs": false, ".cjs": false, ".ts": false, ".tsx": false, ".jsx": false,
	".java": false, ".kt": false, ".scala": false, ".c": false, ".h": false, ".cc": false, ".cpp": false,
	".hpp": false, ".rs": false, ".cs": false, ".swift": false, ".php": false, ".dart": false,
	".py": true, ".rb": true, ".sh": true, ".pl": true, ".ex": true, ".exs": true,
}

func projectUnits(dir string) []rawUnit {
	var files []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		name := d.Name()
		if d.IsDir() {
			if p != dir && (strings.HasPrefix(name, ".") || name == "node_modules" || name == "vendor" ||
				name == "_vendor" || name == "testdata" || name == "third_party") {
				return filepath.SkipDir
			}
			return nil
		}
		if _, ok := sourceExts[filepath.Ext(name)]; ok && !strings.Contains(name, ".min.") {
			files = append(files, p)
		}
		return nil
	})
	sort.Strings(files)
	if len(files) > maxFiles {
		// a large project is sampled: its files spread evenly
		kept := make([]string, 0, maxFiles)
		for i := range maxFiles {
			kept = append(kept, files[i*len(files)/maxFiles])
		}
		files = kept
	}
	var us []rawUnit
	for _, f := range files {
		info, err := os.Stat(f)
		if err != nil || info.Size() > 1<<20 {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		us = append(us, fileUnits(string(data), sourceExts[filepath.Ext(f)], filepath.Ext(f) == ".py")...)
	}
	return us
}

// maxFiles is how many files of a project are read at most.
const maxFiles = 800

// codeLines is how many code lines after a comment belong to its unit
// (-lines).
var codeLines = 15

// fileUnits cuts one file's text into units.
func fileUnits(text string, hash, python bool) []rawUnit {
	lines := strings.Split(text, "\n")
	var us []rawUnit
	var comment []string
	inBlock := false
	for i := 0; i < len(lines); i++ {
		t := strings.TrimSpace(lines[i])
		if inBlock {
			body, done := strings.CutSuffix(t, "*/")
			if !done {
				body, _, done = strings.Cut(t, "*/")
			}
			comment = append(comment, strings.TrimLeft(body, "* "))
			inBlock = !done
			continue
		}
		if text, ok := commentLine(t, hash); ok {
			comment = append(comment, text)
			if strings.HasPrefix(t, "/*") && !strings.Contains(t[2:], "*/") {
				inBlock = true
			}
			continue
		}
		if t == "" {
			if len(comment) > 0 && i+1 < len(lines) && strings.TrimSpace(lines[i+1]) == "" {
				comment = nil // a comment that documents nothing after it
			}
			continue
		}
		if python && isPyDef(t) {
			if doc, end := docstring(lines, i+1); doc != "" {
				code := append([]string{t}, codeAfter(lines, end+1, hash)...)
				code = code[:min(len(code), codeLines)]
				us = appendUnit(us, []string{doc}, code)
				comment = nil
				i = end
				continue
			}
		}
		if len(comment) > 0 {
			us = appendUnit(us, comment, codeAfter(lines, i, hash))
			comment = nil
		}
	}
	return us
}

// commentLine returns the text of a line comment or the start of a block
// comment.
func commentLine(t string, hash bool) (string, bool) {
	switch {
	case strings.HasPrefix(t, "//"):
		return strings.TrimLeft(t, "/!"), true
	case strings.HasPrefix(t, "/*"):
		body := strings.TrimLeft(t, "/*!")
		body, _, _ = strings.Cut(body, "*/")
		return body, true
	case hash && strings.HasPrefix(t, "#") && !strings.HasPrefix(t, "#!") && !strings.HasPrefix(t, "#["):
		return strings.TrimLeft(t, "#"), true
	}
	return "", false
}

func isPyDef(t string) bool {
	return strings.HasPrefix(t, "def ") || strings.HasPrefix(t, "async def ") || strings.HasPrefix(t, "class ")
}

// docstring returns the docstring that starts at lines[i], if one does,
// and the index of its last line.
func docstring(lines []string, i int) (string, int) {
	if i >= len(lines) {
		return "", i
	}
	t := strings.TrimSpace(lines[i])
	t = strings.TrimLeft(t, "rRuU")
	var q string
	switch {
	case strings.HasPrefix(t, `"""`):
		q = `"""`
	case strings.HasPrefix(t, `'''`):
		q = `'''`
	default:
		return "", i
	}
	rest := t[3:]
	if before, _, ok := strings.Cut(rest, q); ok {
		return before, i
	}
	parts := []string{rest}
	for j := i + 1; j < len(lines) && j < i+200; j++ {
		if before, _, ok := strings.Cut(lines[j], q); ok {
			return strings.Join(append(parts, before), " "), j
		}
		parts = append(parts, lines[j])
	}
	return "", i
}

// codeAfter returns the code lines from lines[i] on that a unit takes:
// up to codeLines, stopping at a comment.
func codeAfter(lines []string, i int, hash bool) []string {
	var out []string
	for j := i; j < len(lines) && len(out) < codeLines; j++ {
		t := strings.TrimSpace(lines[j])
		if _, ok := commentLine(t, hash); ok {
			break
		}
		if t != "" {
			out = append(out, t)
		}
	}
	return out
}

// appendUnit analyses a comment and its code into a unit; licence
// headers and generated-code notes are left out.
func appendUnit(us []rawUnit, comment, code []string) []rawUnit {
	text := strings.Join(comment, " ")
	lower := strings.ToLower(text)
	if strings.Contains(lower, "license") || strings.Contains(lower, "copyright") || strings.Contains(lower, "do not edit") {
		return us
	}
	var u rawUnit
	seen := map[string]bool{}
	for _, w := range strings.FieldsFunc(text, func(r rune) bool { return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '_') }) {
		if !isEnglish(w) {
			continue
		}
		u.nEng++
		for _, t := range memory.Tokenize(w) {
			if !seen[t] && len(u.eng) < 40 {
				seen[t] = true
				u.eng = append(u.eng, t)
			}
		}
	}
	seen = map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.Join(code, " "), notWordByte) {
		ts := memory.Tokenize(w)
		if len(ts) > 1 {
			// the whole form of a compound (retrycount) is one
			// project's name: its parts are the words
			ts = ts[:len(ts)-1]
		}
		for _, t := range ts {
			u.nCode++
			if !seen[t] && len(t) >= 3 && !isNumber(t) && len(u.code) < 80 {
				seen[t] = true
				u.code = append(u.code, t)
			}
		}
	}
	if len(u.eng) == 0 || len(u.code) == 0 {
		return us
	}
	return append(us, u)
}

// isEnglish reports whether a comment's word is written as an English word
// is: lower-case letters only (a capital first letter allowed), three or
// more.
func isEnglish(w string) bool {
	if len(w) < 3 || len(w) > 20 {
		return false
	}
	for i := 0; i < len(w); i++ {
		b := w[i]
		if b >= 'a' && b <= 'z' || i == 0 && b >= 'A' && b <= 'Z' {
			continue
		}
		return false
	}
	return true
}

func notWordByte(r rune) bool {
	return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-')
}

func isNumber(t string) bool {
	for i := 0; i < len(t); i++ {
		if t[i] < '0' || t[i] > '9' {
			return false
		}
	}
	return true
}

// associate counts the corpus's pairs and returns the table's lines: the
// English words of at least minWord projects, in name order, each with
// its top strongest partners. The words are taken in chunks, so that only
// one chunk's pair counts are held at once.
func (c *corpus) associate(minProj, minWord int, minPair, minScore float64, top int) string {
	tc := c.termCounts()
	var words []uint32
	for e := range c.names {
		if tc.projEng[e] >= minWord {
			words = append(words, uint32(e))
		}
	}
	sort.Slice(words, func(i, j int) bool { return c.names[words[i]] < c.names[words[j]] })
	const chunkSize = 3000
	var b strings.Builder
	for lo := 0; lo < len(words); lo += chunkSize {
		chunk := words[lo:min(lo+chunkSize, len(words))]
		pairs := c.pairStats(chunk, tc.projCode, minProj)
		for i, e := range chunk {
			best := c.partners(e, pairs[i], tc, minProj, minPair, minScore)
			if len(best) == 0 {
				continue
			}
			b.WriteString(c.names[e])
			for _, s := range best[:min(top, len(best))] {
				fmt.Fprintf(&b, " %s:%d", c.names[s.k], int(math.Round(s.score*100)))
			}
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// counts are, per term ID, the units whose comments (nEng) or code
// (nCode) have the term and the projects that do (projEng, projCode).
type counts struct {
	nEng, nCode       []float64
	projEng, projCode []int
}

func (c *corpus) termCounts() counts {
	nt := len(c.names)
	tc := counts{make([]float64, nt), make([]float64, nt), make([]int, nt), make([]int, nt)}
	for _, us := range c.projects {
		inE, inC := map[uint32]bool{}, map[uint32]bool{}
		for _, u := range us {
			for _, e := range u.eng {
				tc.nEng[e]++
				inE[e] = true
			}
			for _, k := range u.code {
				tc.nCode[k]++
				inC[k] = true
			}
		}
		for e := range inE {
			tc.projEng[e]++
		}
		for k := range inC {
			tc.projCode[k]++
		}
	}
	return tc
}

// A pairStat counts the units (n) and projects (projs) where an English
// word and a code word meet; last is the last project counted.
type pairStat struct {
	n     float64
	projs int32
	last  int32
}

// pairStats counts, for each English word of chunk, the code words of
// at least minProj projects (projCode) that meet it, other than itself.
func (c *corpus) pairStats(chunk []uint32, projCode []int, minProj int) []map[uint32]*pairStat {
	at := make(map[uint32]int, len(chunk))
	pairs := make([]map[uint32]*pairStat, len(chunk))
	for i, e := range chunk {
		at[e] = i
		pairs[i] = map[uint32]*pairStat{}
	}
	for p, us := range c.projects {
		for _, u := range us {
			for _, e := range u.eng {
				i, ok := at[e]
				if !ok {
					continue
				}
				for _, k := range u.code {
					if k == e || projCode[k] < minProj {
						continue
					}
					s := pairs[i][k]
					if s == nil {
						s = &pairStat{last: -1}
						pairs[i][k] = s
					}
					s.n++
					if s.last != int32(p) {
						s.last = int32(p)
						s.projs++
					}
				}
			}
		}
	}
	return pairs
}

// A scored partner is a code word and its NPMI with an English word.
type scored struct {
	k     uint32
	score float64
}

// partners returns English word e's code words that pass the thresholds,
// by NPMI over the corpus's units, strongest first (ties by name).
func (c *corpus) partners(e uint32, pairs map[uint32]*pairStat, tc counts, minProj int, minPair, minScore float64) []scored {
	N := float64(c.n)
	var best []scored
	for k, s := range pairs {
		if int(s.projs) < minProj || s.n < minPair {
			continue
		}
		pmi := math.Log(s.n * N / (tc.nEng[e] * tc.nCode[k]))
		npmi := pmi / -math.Log(s.n/N)
		if npmi >= minScore && !sameStem(c.names[e], c.names[k]) {
			best = append(best, scored{k, npmi})
		}
	}
	sort.Slice(best, func(x, y int) bool {
		if best[x].score != best[y].score {
			return best[x].score > best[y].score
		}
		return c.names[best[x].k] < c.names[best[y].k]
	})
	return best
}

// sameStem reports whether code word k is English word e written as code:
// the same stem, or a compound that holds it ("retri" and "retrypolici").
func sameStem(e, k string) bool {
	if len(e) >= 5 {
		e = e[:len(e)-1] // retri, retry
	}
	return strings.HasPrefix(k, e) || strings.HasPrefix(e, k)
}
