package main

// Commit units (-commits): the corpus is other projects' git histories,
// and a unit is one commit: its English words are those of its subject
// (and, with -body, of its message's first paragraph after the subject:
// both are kept, -body chooses when the table is made),
// its code words those of what it changed. Requests are worded as commit
// subjects and issue titles are, in the user's words, so a subject's words
// beside the names the commit touched pair a user's word with the code's
// (the doc comments of the eighth pass pair a programmer's words with the
// code's: topical neighbours).
//
// What a commit changed gives three kinds of code words, kept apart so
// that -code can choose among them without reading the histories again:
//   - defs: the identifiers of the hunk headers' function context (git's
//     diff drivers name the function or class around each hunk), and of
//     the definition lines added or removed (func, def, class, fn ...);
//   - files: the parts of the changed files' names and of their
//     directory's name;
//   - lines: the identifiers of the added and removed lines of source files.

import (
	"bufio"
	"encoding/gob"
	"fmt"
	"io"
	"log"
	"os"
	"os/exec"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/taskctl/taskctl/memory"
)

// A commitUnit is one commit's words, each set analysed (memory.Tokenize)
// and without repeats.
type commitUnit struct {
	hash                          string
	eng, body, defs, files, lines []string
}

// maxChangedFiles is the most files a commit may change to be a unit: a
// larger one (a rename across the tree, vendoring, a formatting pass) pairs
// its words with everything.
const maxChangedFiles = 20

// diffAttributes maps the languages git has a diff driver for to it, so
// that a bare repository's hunk headers name the function around a hunk
// (git's default takes any line that starts with a letter).
const diffAttributes = `*.go diff=golang
*.py diff=python
*.rs diff=rust
*.java diff=java
*.kt diff=kotlin
*.rb diff=ruby
*.php diff=php
*.c diff=cpp
*.h diff=cpp
*.cc diff=cpp
*.cpp diff=cpp
*.hpp diff=cpp
*.cs diff=csharp
*.ex diff=elixir
*.exs diff=elixir
*.m diff=objc
*.pl diff=perl
*.sh diff=bash
`

// commitHashes returns the hashes of at most n of the repository's
// non-merge commits reachable from HEAD, spread evenly over its history.
func commitHashes(gitDir string, n int) ([]string, error) {
	out, err := exec.Command("git", "--git-dir", gitDir, "rev-list", "--no-merges", "HEAD").Output()
	if err != nil {
		return nil, fmt.Errorf("%s: rev-list: %w", gitDir, err)
	}
	all := strings.Fields(string(out))
	if len(all) <= n {
		return all, nil
	}
	kept := make([]string, 0, n)
	for i := range n {
		kept = append(kept, all[i*len(all)/n])
	}
	return kept, nil
}

// historyUnits reads the commits of hashes from the repository at gitDir
// and cuts them into units, in two passes: their messages and the names
// of the files they changed (no file is diffed), then, of the commits
// kept, the patches (no context lines) of their source files only, which
// spares diffing documentation, data and fixtures.
func historyUnits(gitDir string, hashes []string, attrs string) ([]commitUnit, error) {
	var us []commitUnit
	err := gitLog(gitDir, hashes, attrs, []string{"--name-only"}, func(r io.Reader) { us = parseHistory(r, true) })
	if err != nil || len(us) == 0 {
		return nil, err
	}
	kept := make([]string, len(us))
	for i, u := range us {
		kept[i] = u.hash
	}
	args := []string{"-p", "-U0", "--"}
	for ext := range sourceExts {
		args = append(args, "*"+ext)
	}
	patched := map[string]commitUnit{}
	err = gitLog(gitDir, kept, attrs, args, func(r io.Reader) {
		for _, u := range parseHistory(r, false) {
			patched[u.hash] = u
		}
	})
	if err != nil {
		// a snapshot may lack large blobs, and git log stops at the
		// first it cannot diff: the commits before it keep their
		// patches' words, the others their files' only
		log.Printf("%v (%d of %d commits have their patches' words)", err, len(patched), len(us))
	}
	for i, u := range us {
		p := patched[u.hash]
		us[i].defs, us[i].lines = p.defs, p.lines
	}
	return us, nil
}

// gitLog runs git log on the commits of hashes, each "\x1e" hash,
// message, "\x1f" and what args ask for, and gives its output to read.
func gitLog(gitDir string, hashes []string, attrs string, args []string, read func(io.Reader)) error {
	cmd := exec.Command("git", append([]string{"--git-dir", gitDir, "-c", "core.attributesFile=" + attrs,
		"-c", "core.quotePath=false", "log", "--no-walk=unsorted", "--stdin", "--no-renames", "--no-color",
		"--no-ext-diff", "--format=%x1e%H%n%B%x1f"}, args...)...)
	cmd.Stdin = strings.NewReader(strings.Join(hashes, "\n") + "\n")
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	read(out)
	io.Copy(io.Discard, out)
	if err := cmd.Wait(); err != nil {
		return fmt.Errorf("%s: log: %w", gitDir, err)
	}
	return nil
}

// parseHistory cuts git log's output (each commit "\x1e" hash, message,
// "\x1f", patch or, with names, the changed files' names) into units,
// leaving out the commits that give none (commitUnitOf). Of a long patch
// only the first maxPatchLines lines are kept, and of the rest only the
// files' headers, which count its files.
func parseHistory(r io.Reader, names bool) []commitUnit {
	tok := tokens{}
	br := bufio.NewReaderSize(r, 1<<16)
	var us []commitUnit
	var rec strings.Builder
	patchLines := -1 // before the patch
	flush := func() {
		if rec.Len() > 0 {
			if u, ok := commitUnitOf(rec.String(), names, tok); ok {
				us = append(us, u)
			}
		}
		rec.Reset()
		patchLines = -1
	}
	for {
		line, err := br.ReadString('\n')
		if strings.HasPrefix(line, "\x1e") {
			flush()
			line = line[1:]
		}
		if patchLines < maxPatchLines || strings.HasPrefix(line, "diff --git ") {
			rec.WriteString(line)
		}
		if patchLines >= 0 {
			patchLines++
		} else if strings.Contains(line, "\x1f") {
			patchLines = 0
		}
		if err != nil {
			break
		}
	}
	flush()
	return us
}

// maxPatchLines is how many lines of a commit's patch are read at most.
const maxPatchLines = 3000

// commitUnitOf analyses one commit's record: its hash line, message,
// "\x1f" and patch (or, with names, its changed files' names, a line
// each). A commit that reverts another, changes more than
// maxChangedFiles files or has no English or no code words gives no unit.
func commitUnitOf(rec string, names bool, tok tokens) (commitUnit, bool) {
	head, patch, ok := strings.Cut(rec, "\x1f")
	if !ok {
		return commitUnit{}, false
	}
	hash, msg, _ := strings.Cut(head, "\n")
	u := commitUnit{hash: strings.TrimSpace(hash)}
	subject, body := messageText(msg)
	if subject == "" {
		return u, false
	}
	u.eng, u.body = englishWords(subject, tok), englishWords(body, tok)
	var defs, files, lines []string
	nFiles := 0
	source := false
	for _, line := range strings.Split(patch, "\n") {
		if names && line != "" {
			line = "diff --git a/" + line + " b/" + line
		}
		switch {
		case strings.HasPrefix(line, "diff --git "):
			name := line[strings.LastIndex(line, " b/")+3:]
			nFiles++
			source = false
			if skippedPath(name) {
				continue
			}
			files = append(files, fileWords(name)...)
			_, source = sourceExts[path.Ext(name)]
		case !source:
		case strings.HasPrefix(line, "@@"):
			if i := strings.Index(line[2:], "@@"); i >= 0 {
				defs = append(defs, line[2+i+2:])
			}
		case strings.HasPrefix(line, "+++ "), strings.HasPrefix(line, "--- "):
		case strings.HasPrefix(line, "+"), strings.HasPrefix(line, "-"):
			l := strings.TrimSpace(line[1:])
			if definitionLine.MatchString(l) {
				defs = append(defs, l)
			}
			lines = append(lines, l)
		}
	}
	if nFiles == 0 || nFiles > maxChangedFiles {
		return u, false
	}
	u.defs = codeWords(defs, 40, tok)
	u.files = codeWords(files, 40, tok)
	u.lines = codeWords(lines, 120, tok)
	return u, len(u.eng) > 0 && len(u.defs)+len(u.files)+len(u.lines) > 0
}

// conventionalPrefix is a subject's leading area or type ("net/http: ",
// "fix(jobs): ", "[core] ", "feat!: "), which names code, not what was
// wanted.
var conventionalPrefix = regexp.MustCompile(`^(\[[^\]]{1,40}\]\s*)+|^[\w./,{}* -]{1,60}(\([^)]{0,40}\))?!?:\s`)

// definitionLine is a line that defines something in one of the common
// languages.
var definitionLine = regexp.MustCompile(`^(export\s+)?(pub(\([a-z]+\))?\s+)?(async\s+)?(func|def|class|fn|function|interface|struct|enum|trait|impl|type|module|const|let|var|static|public|private|protected)\b`)

// messageText returns the parts of a commit message that a unit takes:
// its subject without an area prefix and the paragraph after it; "" for
// a revert's or a merge's subject.
func messageText(msg string) (subject, body string) {
	paras := strings.Split(strings.TrimSpace(msg), "\n\n")
	subject = strings.Join(strings.Fields(paras[0]), " ")
	if strings.HasPrefix(subject, "Revert ") || strings.HasPrefix(subject, "Merge ") {
		return "", ""
	}
	subject = conventionalPrefix.ReplaceAllString(subject, "")
	if len(paras) > 1 && !strings.Contains(paras[1], ": ") {
		// a trailer block (Signed-off-by: ...) is no paragraph of prose
		body = paras[1]
	}
	return subject, body
}

// englishWords returns the analysed English words of text: written as
// English words are (isEnglish), not as identifiers.
func englishWords(text string, tok tokens) []string {
	var out []string
	seen := map[string]bool{}
	for _, w := range strings.FieldsFunc(text, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '_')
	}) {
		if !isEnglish(w) {
			continue
		}
		for _, t := range tok.of(w) {
			if !seen[t] && len(out) < 40 {
				seen[t] = true
				out = append(out, t)
			}
		}
	}
	return out
}

// codeWords returns the analysed parts of the identifiers of texts, at
// most max, first seen first (a compound's whole form, one project's name,
// is left out, as are numbers and parts under three letters).
func codeWords(texts []string, max int, tok tokens) []string {
	var out []string
	seen := map[string]bool{}
	for _, text := range texts {
		for _, w := range strings.FieldsFunc(text, notWordByte) {
			ts := tok.of(w)
			if len(ts) > 1 {
				ts = ts[:len(ts)-1]
			}
			for _, t := range ts {
				if len(out) == max {
					return out
				}
				if !seen[t] && len(t) >= 3 && !isNumber(t) {
					seen[t] = true
					out = append(out, t)
				}
			}
		}
	}
	return out
}

// fileWords returns the words of a changed file's name that say what it
// is: its base name without the extension, and its directory's name.
func fileWords(name string) []string {
	base := path.Base(name)
	base = strings.TrimSuffix(base, path.Ext(base))
	dir := path.Base(path.Dir(name))
	if dir == "." || dir == "/" {
		return []string{base}
	}
	return []string{base, dir}
}

// skippedPath reports whether a changed file is one whose words say
// nothing of the change: vendored or generated code, lock files.
func skippedPath(name string) bool {
	for _, d := range []string{"vendor/", "node_modules/", "third_party/", "_vendor/"} {
		if strings.HasPrefix(name, d) || strings.Contains(name, "/"+d) {
			return true
		}
	}
	base := path.Base(name)
	return strings.HasSuffix(base, ".lock") || strings.HasSuffix(base, "-lock.json") ||
		strings.HasSuffix(base, ".sum") || strings.Contains(base, ".min.") || strings.Contains(base, ".pb.")
}

// codeKinds are the kinds of code words -code may name.
var codeKinds = map[string]bool{"defs": true, "files": true, "lines": true}

// writeAttributes writes diffAttributes to a temporary file and returns
// its name.
func writeAttributes() (string, error) {
	f, err := os.CreateTemp("", "assoc-attrs")
	if err != nil {
		return "", err
	}
	defer f.Close()
	_, err = f.WriteString(diffAttributes)
	return f.Name(), err
}

// A history is one repository's commit units, as term IDs (the corpus's),
// and the commit its history was read from.
type history struct {
	name, head string
	units      []savedCommit
}

// A savedCommit is a commitUnit as term IDs, as -cache keeps it.
type savedCommit struct {
	Hash                          string
	Eng, Body, Defs, Files, Lines []uint32
}

// commitCache is what -cache keeps of a corpus of histories.
type commitCache struct {
	Names     []string
	Histories []savedHistory
}

type savedHistory struct {
	Name, Head string
	Units      []savedCommit
}

// readHistories reads the histories of the projects ps (git directories),
// at most maxUnits commits of each, two at once.
func (c *corpus) readHistories(ps []project, maxUnits int) ([]history, error) {
	attrs, err := writeAttributes()
	if err != nil {
		return nil, err
	}
	defer os.Remove(attrs)
	hs := make([]history, len(ps))
	errs := make([]error, len(ps))
	jobs := make(chan int)
	done := make(chan bool)
	for range 2 {
		go func() {
			for i := range jobs {
				hs[i], errs[i] = c.readHistory(ps[i], maxUnits, attrs)
			}
			done <- true
		}()
	}
	for i := range ps {
		jobs <- i
	}
	close(jobs)
	<-done
	<-done
	var read []history
	for i, err := range errs {
		if err != nil {
			log.Printf("left out: %v", err) // one history that cannot be read costs itself only
			continue
		}
		read = append(read, hs[i])
	}
	return read, nil
}

// readHistory reads the history of the project p (a git directory): its
// HEAD and at most maxUnits commit units, spread evenly over its history,
// their words as the corpus's term IDs.
func (c *corpus) readHistory(p project, maxUnits int, attrs string) (history, error) {
	h := history{name: p.name}
	head, err := exec.Command("git", "--git-dir", p.dir, "rev-parse", "HEAD").Output()
	if err != nil {
		return h, fmt.Errorf("%s: %w", p.name, err)
	}
	h.head = strings.TrimSpace(string(head))
	// more commits than kept are read, as some give no unit
	hashes, err := commitHashes(p.dir, maxUnits*5/4)
	if err != nil {
		return h, err
	}
	us, err := historyUnits(p.dir, hashes, attrs)
	if err != nil {
		return h, err
	}
	if len(us) > maxUnits {
		kept := make([]commitUnit, 0, maxUnits)
		for i := range maxUnits {
			kept = append(kept, us[i*len(us)/maxUnits])
		}
		us = kept
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, u := range us {
		h.units = append(h.units, savedCommit{u.hash, c.idSet(u.eng), c.idSet(u.body), c.idSet(u.defs), c.idSet(u.files), c.idSet(u.lines)})
	}
	return h, nil
}

// addHistories adds the histories' units to the corpus, each with the code
// words of the kinds named (codeKinds) and, with body, the words of its
// message's first paragraph.
func (c *corpus) addHistories(hs []history, kinds []string, body bool) {
	for _, h := range hs {
		var us []unit
		var words [2]int
		for _, s := range h.units {
			var code []uint32
			for _, k := range kinds {
				switch k {
				case "defs":
					code = append(code, s.Defs...)
				case "files":
					code = append(code, s.Files...)
				case "lines":
					code = append(code, s.Lines...)
				}
			}
			code = sortedSet(code)
			if len(code) == 0 {
				continue
			}
			eng := s.Eng
			if body {
				eng = sortedSet(append(slices.Clone(eng), s.Body...))
			}
			us = append(us, unit{eng, code})
			words[0] += len(eng)
			words[1] += len(code)
		}
		c.add(h.name, us, words)
	}
}

func sortedSet(ids []uint32) []uint32 {
	slices.Sort(ids)
	return slices.Compact(ids)
}

func saveHistories(path string, names []string, hs []history) error {
	s := commitCache{Names: names}
	for _, h := range hs {
		s.Histories = append(s.Histories, savedHistory{h.name, h.head, h.units})
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return gob.NewEncoder(f).Encode(&s)
}

// loadHistories reads the histories a cache keeps of the projects ps, by
// name; a project the cache lacks (one whose history could not be read) is
// left out.
func (c *corpus) loadHistories(path string, ps []project) ([]history, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var s commitCache
	if err := gob.NewDecoder(f).Decode(&s); err != nil {
		return nil, err
	}
	c.names = s.Names
	for i, n := range s.Names {
		c.ids[n] = uint32(i)
	}
	at := map[string]savedHistory{}
	for _, h := range s.Histories {
		at[h.Name] = h
	}
	var hs []history
	for _, p := range ps {
		h, ok := at[p.name]
		if !ok {
			log.Printf("left out: %s, which %s does not hold", p.name, path) // read, it failed
			continue
		}
		hs = append(hs, history{h.Name, h.Head, h.Units})
	}
	return hs, nil
}

// writeList writes the histories mined: a line a repository, its name,
// the commit its history was read from and how many commit units it gave.
func writeList(path string, hs []history) error {
	var b strings.Builder
	b.WriteString("# repository\tHEAD of the snapshot mined\tcommit units\n")
	for _, h := range hs {
		fmt.Fprintf(&b, "%s\t%s\t%d\n", h.name, h.head, len(h.units))
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}

// readCommitCorpus fills c with the commit units of the projects ps (git
// directories), read from cache if it can be read (a project it lacks is
// left out, and maxUnits is the one the cache was made with), else from
// the histories (and then kept in cache); list, if not "", gets the
// repositories mined (writeList).
func (c *corpus) readCommitCorpus(ps []project, maxUnits int, body bool, cache, list string, kinds []string) error {
	for _, k := range kinds {
		if !codeKinds[k] {
			return fmt.Errorf("-code: no kind %q", k)
		}
	}
	var hs []history
	var err error
	if cache != "" {
		hs, err = c.loadHistories(cache, ps)
	}
	if cache == "" || err != nil {
		if hs, err = c.readHistories(ps, maxUnits); err != nil {
			return err
		}
		if cache != "" {
			if err := saveHistories(cache, c.names, hs); err != nil {
				return err
			}
		}
	}
	if list != "" {
		if err := writeList(list, hs); err != nil {
			return err
		}
	}
	c.addHistories(hs, kinds, body)
	return nil
}

// tokens memoises memory.Tokenize, word by word: a history says the same
// names again and again.
type tokens map[string][]string

func (t tokens) of(w string) []string {
	ts, ok := t[w]
	if !ok {
		ts = memory.Tokenize(w)
		if len(t) > 200_000 {
			clear(t)
		}
		t[w] = ts
	}
	return ts
}
