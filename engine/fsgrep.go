package engine

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"io/fs"
	"path"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/taskctl/taskctl/internal/diag"
	"github.com/taskctl/taskctl/project"
	"github.com/taskctl/taskctl/root"
)

// GrepRequest is what Grep looks for.
type GrepRequest struct {
	Pattern    string   // an RE2 regular expression (Literal: a plain string)
	Literal    bool     // Pattern is a plain string
	IgnoreCase bool     // match letters of either case
	Path       string   // a file or directory to search ("": the project dir), resolved as every path of the door
	Include    []string // only files whose project-relative path matches one of these globs
	Context    int      // lines before and after each match
	MaxMatches int      // at most this many matching lines (0: 1000)
}

// GrepMatch is one matching line.
type GrepMatch struct {
	Path   string   `json:"path"` // absolute
	Rel    string   `json:"rel_path"`
	Line   int      `json:"line"` // from 1
	Text   string   `json:"text"`
	Before []string `json:"before,omitempty"`
	After  []string `json:"after,omitempty"`
}

// GrepResult is what Grep found.
type GrepResult struct {
	Pattern       string      `json:"pattern"`
	Matches       []GrepMatch `json:"matches"`
	FilesSearched int         `json:"files_searched"`
	FilesMatched  int         `json:"files_matched"`
	Truncated     bool        `json:"truncated"` // MaxMatches was reached
	Report
}

// WriteLines writes the matches as rg prints them: path:line:text, context
// lines path-line-text, and -- between groups that context lines set apart.
// The CLI and the MCP server both print a grep this way.
func (r *GrepResult) WriteLines(w io.Writer) {
	for i, m := range r.Matches {
		if i > 0 && (len(m.Before) > 0 || len(r.Matches[i-1].After) > 0) {
			io.WriteString(w, "--\n")
		}
		for j, l := range m.Before {
			fmt.Fprintf(w, "%s-%d-%s\n", m.Rel, m.Line-len(m.Before)+j, l)
		}
		fmt.Fprintf(w, "%s:%d:%s\n", m.Rel, m.Line, m.Text)
		for j, l := range m.After {
			fmt.Fprintf(w, "%s-%d-%s\n", m.Rel, m.Line+1+j, l)
		}
	}
}

// grepLineCap is the longest line text a match shows.
const grepLineCap = 500

// Grep searches the content of the project's files for a regular
// expression, line by line. The files are those a walk of the project
// yields (the .gitignore family, .git/, .taskctl/ and the policy's names
// left out), below Path, read by the confined reader (root.Root.Read, through Project.Confined);
// binary files are skipped, and a file with a match that holds a secret
// the content policy keeps out is left out with SECRET_DETECTED, its
// lines never shown. Files are searched in parallel; matches come in
// path order.
func (e *Engine) Grep(ctx context.Context, req GrepRequest) (*GrepResult, error) {
	var ws warnings
	res, err := e.grep(ctx, req, &ws)
	return done(res, err, ws)
}

func (e *Engine) grep(ctx context.Context, req GrepRequest, ws *warnings) (*GrepResult, error) {
	re, err := grepRegexp(req)
	if err != nil {
		return nil, err
	}
	if req.Context < 0 || req.MaxMatches < 0 {
		return nil, UsageError("context and max_matches must not be negative")
	}
	if req.MaxMatches == 0 {
		req.MaxMatches = 1000
	}
	p, err := e.Project()
	if err != nil {
		return nil, err
	}
	scope, err := e.grepScope(p, req.Path, ws)
	if err != nil {
		return nil, err
	}
	var files []project.Candidate
	err = p.Walk(ctx, func(c project.Candidate, _ fs.FileInfo) error {
		if inScope(c.Rel, scope) && grepIncluded(c.Rel, req.Include) {
			files = append(files, c)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	found := grepFiles(ctx, p, files, re, req.Context)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	res := &GrepResult{Pattern: req.Pattern, Matches: []GrepMatch{}, FilesSearched: len(files)}
	for _, f := range found {
		if f.warn != nil {
			ws.add(*f.warn)
			continue
		}
		if len(f.matches) == 0 {
			continue
		}
		res.FilesMatched++
		for _, m := range f.matches {
			if len(res.Matches) == req.MaxMatches {
				res.Truncated = true
				break
			}
			res.Matches = append(res.Matches, m)
		}
	}
	if res.Truncated {
		ws.add(diag.Warning{Code: diag.TooManyFiles, Message: fmt.Sprintf("matches cut at %d lines (max_matches)", req.MaxMatches)})
	}
	return res, nil
}

// grepRegexp compiles the request's pattern.
func grepRegexp(req GrepRequest) (*regexp.Regexp, error) {
	if req.Pattern == "" {
		return nil, UsageError("grep needs a pattern")
	}
	expr := req.Pattern
	if req.Literal {
		expr = regexp.QuoteMeta(expr)
	}
	if req.IgnoreCase {
		expr = "(?i)" + expr
	}
	re, err := regexp.Compile("(?m)" + expr)
	if err != nil {
		return nil, UsageError("pattern %q: %v", req.Pattern, err)
	}
	return re, nil
}

// grepScope is the project-relative path below which Grep searches
// ("" for the whole project).
func (e *Engine) grepScope(p *project.Project, arg string, ws *warnings) (string, error) {
	if arg == "" || arg == "." && e.fromProject {
		return "", nil
	}
	abs := arg
	if !filepath.IsAbs(arg) {
		base := e.workingDir
		if e.fromProject {
			base = p.Dir()
		}
		abs = filepath.Join(base, arg)
	}
	abs = filepath.Clean(abs)
	rel, err := filepath.Rel(p.Dir(), abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
		return "", &Error{Code: diag.PathOutsideProject, Class: ClassError,
			Message: fmt.Sprintf("%s: outside the project dir %s: grep searches the project", abs, p.Dir())}
	}
	if rel == "." {
		return "", nil
	}
	// A path that names nothing is an error, not a search of nothing.
	f, err := e.openFS(ws)
	if err != nil {
		return "", err
	}
	if _, w := f.Stat(arg); w != nil {
		return "", fsError(w)
	}
	return filepath.ToSlash(rel), nil
}

func inScope(rel, scope string) bool {
	return scope == "" || rel == scope || strings.HasPrefix(rel, scope+"/")
}

func grepIncluded(rel string, include []string) bool {
	if len(include) == 0 {
		return true
	}
	for _, g := range include {
		if ok, _ := doublestar.Match(g, rel); ok {
			return true
		}
		if !strings.Contains(g, "/") {
			if ok, _ := doublestar.Match(g, path.Base(rel)); ok {
				return true
			}
		}
	}
	return false
}

// grepFound is what one file gave: its matching lines, or why it was
// left out.
type grepFound struct {
	matches []GrepMatch
	warn    *diag.Warning
}

// grepFiles searches files with a worker per processor; the results are
// in the files' order.
func grepFiles(ctx context.Context, p *project.Project, files []project.Candidate, re *regexp.Regexp, context int) []grepFound {
	out := make([]grepFound, len(files))
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var buf []byte
			for i := range next {
				out[i], buf = grepFile(p, files[i], re, context, buf)
			}
		}()
	}
	for i := range files {
		if ctx.Err() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	return out
}

// grepFile searches one file, reading into buf (returned for reuse).
func grepFile(p *project.Project, c project.Candidate, re *regexp.Regexp, context int, buf []byte) (grepFound, []byte) {
	f, w := p.Confined().ReadInto(c.Path, buf[:0])
	if w != nil {
		return grepFound{warn: w}, buf
	}
	if cap(f.Content) > cap(buf) {
		buf = f.Content[:0]
	}
	if f.Binary {
		return grepFound{}, buf
	}
	text := f.Content
	var judged *root.Content
	if !utf8.Valid(text) { // UTF-16, Latin-1...: search the decoded text
		jc := p.Confined().JudgeContent(f.Content)
		if jc.Binary {
			return grepFound{}, buf
		}
		judged, text = &jc, jc.Text
	}
	locs := re.FindAllIndex(text, -1)
	if len(locs) == 0 {
		return grepFound{}, buf
	}
	if judged == nil {
		jc := p.Confined().JudgeContent(f.Content)
		judged = &jc
	}
	if judged.HoldsSecret() {
		return grepFound{warn: &diag.Warning{Code: diag.SecretDetected, Path: f.Path, Message: judged.SecretReason()}}, buf
	}
	return grepFound{matches: matchLines(f.Path, c.Rel, text, locs, context)}, buf
}

// matchLines turns match offsets into matching lines (each line once),
// with context lines around.
func matchLines(abs, rel string, text []byte, locs [][]int, context int) []GrepMatch {
	starts := lineStarts(text)
	lineOf := func(off int) int { return sort.Search(len(starts), func(i int) bool { return starts[i] > off }) - 1 }
	line := func(i int) string {
		end := len(text)
		if i+1 < len(starts) {
			end = starts[i+1]
		}
		s := strings.TrimRight(string(text[starts[i]:end]), "\r\n")
		if len(s) > grepLineCap {
			s = strings.ToValidUTF8(s[:grepLineCap], "") + "…"
		}
		return s
	}
	var out []GrepMatch
	last := -1
	for _, l := range locs {
		i := lineOf(l[0])
		if i == last {
			continue
		}
		last = i
		m := GrepMatch{Path: abs, Rel: rel, Line: i + 1, Text: line(i)}
		for j := max(0, i-context); j < i; j++ {
			m.Before = append(m.Before, line(j))
		}
		for j := i + 1; j <= i+context && j < len(starts); j++ {
			m.After = append(m.After, line(j))
		}
		out = append(out, m)
	}
	return out
}

// lineStarts is the offset of each line of text.
func lineStarts(text []byte) []int {
	starts := []int{0}
	for off := 0; ; {
		i := bytes.IndexByte(text[off:], '\n')
		if i < 0 || off+i+1 == len(text) {
			return starts
		}
		off += i + 1
		starts = append(starts, off)
	}
}
