package contextgen

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"
	"unsafe"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/taskctl/taskctl/command"
	"github.com/taskctl/taskctl/content/encoding"
	"github.com/taskctl/taskctl/content/secrets"
	"github.com/taskctl/taskctl/contextgen/tokens"
	"github.com/taskctl/taskctl/internal/diag"
	"github.com/taskctl/taskctl/memory"
	"github.com/taskctl/taskctl/project"
	"github.com/taskctl/taskctl/template"
)

// The two sources of a document's files beyond the template's own kinds
// (literal, command and description, merged in that order), which come
// after them.
const (
	SourceInherited template.SourceKind = "inherited" // the parent's context (inherit_context)
	SourceFresh     template.SourceKind = "fresh"     // fresh_context's search of the index
)

// File is one file of the context document. Bytes is the file's size on
// disk and Lines the number of lines of its text (0 for a binary file):
// both describe the file, not Content, which may be cut (Truncated) or
// redacted.
type File struct {
	Path      string              `json:"path"`
	Rel       string              `json:"rel_path"`
	Source    template.SourceKind `json:"source"`
	Score     *float64            `json:"score,omitempty"`
	Reason    *memory.Reason      `json:"reason,omitempty"` // why a description, fresh or subset match was chosen; nil for other files
	Bytes     int64               `json:"bytes"`
	Lines     int                 `json:"lines"`
	Tokens    *int                `json:"tokens,omitempty"`
	Binary    bool                `json:"binary"`
	Content   string              `json:"content"`
	SHA256    string              `json:"sha256"`
	Modified  string              `json:"modified"`
	Encoding  string              `json:"encoding"`
	Truncated bool                `json:"truncated"`
	Redacted  int                 `json:"redacted,omitempty"`

	order int // position in merge order, for stable budgeting
	// markupTokens counts what the document's style writes around the
	// content (the tag or heading with the path and facts).
	markupTokens int
	// count is what counting the content's tokens takes (nil for no
	// content), until countFile has counted them and the markup's.
	count   *countWork
	counted bool

	// xmlContent is Content as the XML style writes it (characters XML
	// cannot carry replaced), xmlReplaced how many were replaced, and
	// xmlOf the Content they were made from: Render uses them while
	// Content is still that string.
	xmlOf, xmlContent string
	xmlReplaced       int
	// xmlSplit says xmlContent holds "]]>", which ends a CDATA section:
	// found on all cores, so that Render looks for it only where it is.
	xmlSplit bool
	// relative says the rendered document names the file by Rel
	// (Options.Relative).
	relative bool
}

// Document is the assembled context of one task.
type Document struct {
	Task string `json:"task"`
	// Description and Instructions are the task's, when Options.Header
	// asked for them: the rendered document starts with them and a tree
	// of its files (header.go).
	Description  string `json:"description,omitempty"`
	Instructions string `json:"instructions,omitempty"`
	header       bool   // render the header
	// tree is the header's tree while total counts the header again and
	// again (its files do not change in between); "" otherwise.
	tree     string
	Files    []*File        `json:"files"`
	Totals   Totals         `json:"totals"`
	Warnings []diag.Warning `json:"-"`
	// Omitted lists the files left out (by path and warning code, never
	// their content), for the rendered styles: a document redirected to a
	// file still says what it lacks. The json form has the warnings. Under
	// a budget the list gives way to content: the rendered document lists
	// the first Listed entries (all when Listed is negative) and says how
	// many more there are (none of it when Listed is listNone, when not
	// even that fits).
	Omitted []Omission `json:"-"`
	// Root is the project root the rendered document's paths are
	// relative to, named once in its header ("" when they are absolute).
	Root      string `json:"-"`
	Listed    int    `json:"-"`
	Tokenizer string `json:"-"`
	// TokensCached and TokensCounted say how many files' token counts came
	// from the cache and how many were counted.
	TokensCached, TokensCounted int `json:"-"`
}

// listNone is Document.Listed when the list of files left out is not
// written at all.
const listNone = -2

// Omission is one file left out of a document.
type Omission struct {
	Path string    // absolute
	Code diag.Code // the first warning code that left it out
}

// Totals sums the document's files. Tokens counts the whole document as
// rendered in its style (Options.Style): the files' content, the markup
// around each file and the document's header and footer; ContentTokens
// counts the files' content alone (the sum of their Tokens).
type Totals struct {
	Files         int   `json:"files"`
	Bytes         int64 `json:"bytes"`
	Tokens        *int  `json:"tokens,omitempty"`
	ContentTokens *int  `json:"content_tokens,omitempty"`
}

// Options configures one assembly. Project is required; everything else is
// optional.
type Options struct {
	Project *project.Project
	Shell   command.Limits

	// Index opens the lexical index; it is called at most once, and only when
	// the task needs it (a description source, fresh context, or subset
	// inheritance).
	Index func(ctx context.Context) (*memory.Index, error)

	// Inherited is the parent's context (workflows); Inherit, Fresh and
	// FreshQuery come from the task's effective context management.
	Inherited  []*File
	Inherit    template.InheritMode
	Fresh      bool
	FreshQuery string

	// Counter counts tokens (nil: no counting); Cache remembers counts.
	Counter tokens.Counter
	Cache   *tokens.Cache
	// MaxTokens drops whole files until the whole document, rendered in
	// Style, fits (0: no budget).
	MaxTokens int
	// Style is the style the document will be rendered in (StyleXML when
	// empty): the document's token total counts its markup.
	Style string
	// MaxFileBytes truncates each file's content at a line boundary with a
	// marker (0: no cap beyond the policy's size cap).
	MaxFileBytes int64
	// MaxContentBytes bounds the file content one document holds in
	// memory (0: DefaultMaxContentBytes): files are admitted in the
	// document's order by their size on disk (up to the policy's size cap),
	// and those that would take the total over it are left out
	// (BUDGET_EXCEEDED) before they are read.
	MaxContentBytes int64
	// RedactSecrets replaces detected secrets instead of leaving the file out;
	// AllowSecrets includes them untouched (with a warning).
	RedactSecrets bool
	AllowSecrets  bool
	// RedactHint names, as the caller's user knows it, what keeps a file
	// that holds a secret with the secret replaced (the CLI's
	// --redact-secrets); a warning of a file left out says so. "": the
	// warning says nothing of it.
	RedactHint string

	// Audit, when set, is told about every file read.
	Audit func(path, source string)

	// ListOnly selects files without reading them: the sources and the path
	// policy decide, content checks (secrets, encoding, budget) do not run.
	// It is what --paths prints.
	ListOnly bool

	// Hashes sets each file's SHA256 (the json envelope shows it); without
	// it SHA256 is empty, and the document costs a pass of sha256 less.
	Hashes bool

	// CommandDir is the directory the task's <command>s run in: "" is the
	// project dir, as for a template's (DESIGN §2); a command typed on the
	// command line runs in the working dir, as taskctl exec does.
	CommandDir string

	// Header puts the task's description and instructions and a tree of
	// the selected files at the top of the rendered document.
	Header bool

	// KeepGenerated packs lock files, minified bundles and source maps
	// that a glob, a command or a description selects; without it they
	// are left out (PATH_GENERATED). Named literally, they are packed.
	KeepGenerated bool
	// Relative names files in the rendered document by their path
	// relative to the project root, which the header names once
	// (Document.Root); the json form keeps absolute paths (REQ-F-040).
	Relative bool
	// OmitRoot leaves the root out of a relative document's header: no
	// absolute path at all is sent (--relative).
	OmitRoot bool
	// Exclude drops the files whose path matches one of its globs, from
	// every source, without a warning (assemble --exclude: the user asked).
	// A glob matches the path relative to the project, or relative to
	// ExcludeFrom (the working dir, relative to the project) for a file
	// below it; a glob without a slash also matches the file's name.
	Exclude     []string
	ExcludeFrom string
	// OutPath is the absolute path of the file the document is written to
	// (--out): it is never packed into the document (CONTEXT_DOCUMENT).
	OutPath string
}

// resolveSources resolves t's sources into an assembler's candidates, for
// Assemble and List.
func resolveSources(ctx context.Context, t *template.Task, opt Options) (*assembler, error) {
	if opt.Project == nil {
		return nil, errors.New("contextgen: no project")
	}
	a := &assembler{ctx: ctx, t: t, opt: opt}
	a.collect()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return a, nil
}

// Assemble resolves t's sources and reads its files. t must already be bound
// (template.Task.Bind). The error is non-nil only for problems that stop the
// whole assembly (a cancelled context); everything else is a warning.
func Assemble(ctx context.Context, t *template.Task, opt Options) (*Document, error) {
	a, err := resolveSources(ctx, t, opt)
	if err != nil {
		return nil, err
	}
	var files []*File
	if opt.ListOnly {
		listed := make([]File, len(a.candidates)) // one allocation, not one a file
		files = make([]*File, len(a.candidates))
		for i, c := range a.candidates {
			listed[i] = File{Path: c.c.Path, Rel: c.c.Rel, Source: c.source, Score: c.score, Reason: c.reason, order: i}
			files[i] = &listed[i]
		}
	} else {
		a.admit()
		files = a.read()
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	doc := &Document{Task: t.Name, Files: files, Warnings: uniqueWarnings(a.warnings),
		TokensCached: int(a.cacheHits.Load()), TokensCounted: int(a.cacheMisses.Load())}
	if opt.Counter != nil {
		doc.Tokenizer = opt.Counter.Name()
	}
	if opt.Header {
		doc.header, doc.Description, doc.Instructions = true, t.Description, t.Instructions
	}
	if opt.Relative && !opt.OmitRoot {
		doc.Root = opt.Project.Dir()
	}
	mc := a.markupCounter()
	doc.omit(a.notFiles)
	doc.budget(opt.MaxTokens, mc, opt.Style)
	doc.fitOmitted(opt.MaxTokens, mc, opt.Style)
	doc.total(mc, opt.Style)
	if t := doc.Totals.Tokens; opt.MaxTokens > 0 && t != nil && *t > opt.MaxTokens {
		// Every file is left out and what remains (the header, the footer,
		// the heading of the list of files left out) is still too long.
		doc.Warnings = append(doc.Warnings, diag.Warning{Code: diag.BudgetExceeded,
			Message: fmt.Sprintf("the document is %d tokens, over the budget of %d: with %d of its files kept, its own markup does not fit", *t, opt.MaxTokens, len(doc.Files))})
	}
	return doc, nil
}

// Listed is a file a listing selected: where it is and what selected it.
// Nothing was read, so it has none of the facts a read gives (bytes, lines,
// tokens, sha256).
type Listed struct {
	Path   string              `json:"path"`
	Rel    string              `json:"rel_path"`
	Source template.SourceKind `json:"source"`
	Score  *float64            `json:"score,omitempty"`
	Reason *memory.Reason      `json:"reason,omitempty"` // why a description, fresh or subset match was chosen
}

// Listing is the files t's sources select, in merge order, and the
// warnings of resolving them.
type Listing struct {
	Task     string
	Files    []Listed
	Warnings []diag.Warning
}

// List resolves t's sources as Assemble does, the path policy included,
// and returns the files they select without reading any: what --paths
// prints. (Assemble with ListOnly gives the same files as a Document, for
// what inherits them.) t must already be bound.
func List(ctx context.Context, t *template.Task, opt Options) (*Listing, error) {
	a, err := resolveSources(ctx, t, opt)
	if err != nil {
		return nil, err
	}
	files := make([]Listed, len(a.candidates))
	for i, c := range a.candidates {
		files[i] = Listed{Path: c.c.Path, Rel: c.c.Rel, Source: c.source, Score: c.score, Reason: c.reason}
	}
	return &Listing{Task: t.Name, Files: files, Warnings: uniqueWarnings(a.warnings)}, nil
}

// uniqueWarnings drops repeats of a warning, keeping the first: two
// sources or a file and a symlink to it can meet the same path and be
// refused for the same reason.
func uniqueWarnings(ws []diag.Warning) []diag.Warning {
	seen := make(map[diag.Warning]bool, len(ws))
	out := ws[:0]
	for _, w := range ws {
		if !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	return out
}

// candidate is a resolved path waiting to be read. c points into the
// list a source resolved (a glob's may hold every file of a tree): each
// candidate is a small record, not a copy of the paths.
type candidate struct {
	c      *project.Candidate
	source template.SourceKind
	score  *float64
	reason *memory.Reason
	read   readOptions
}

type readOptions struct {
	skipLines, maxLines int
	maxBytes            int64
}

type assembler struct {
	ctx        context.Context
	t          *template.Task
	opt        Options
	seen       map[string]bool // the candidates' paths, made by add (see addExpanded)
	candidates []candidate
	warnings   []diag.Warning

	cacheHits, cacheMisses atomic.Int64

	indexOnce sync.Once
	index     *memory.Index
	indexErr  error

	// notFiles are the paths of command output lines that name no file
	// (PATH_NOT_FOUND): the document's list of files left out skips them.
	notFiles map[string]bool
}

func (a *assembler) warn(w diag.Warning) { a.warnings = append(a.warnings, w) }

// add appends c unless a candidate of the same path is there already.
func (a *assembler) add(c candidate) {
	if a.seen == nil {
		a.seen = make(map[string]bool, len(a.candidates)+1)
		for _, o := range a.candidates {
			a.seen[o.c.Path] = true
		}
	}
	if a.seen[c.c.Path] {
		return
	}
	a.seen[c.c.Path] = true
	if a.leftOut(c) {
		return
	}
	a.candidates = append(a.candidates, c)
}

// leftOut reports (and warns of) a candidate left out by its path alone:
// a name that holds a secret, the file the document is written to, or a
// generated file a glob, command or description selected.
func (a *assembler) leftOut(c candidate) bool {
	if len(a.opt.Exclude) > 0 && Excluded(c.c.Rel, a.opt.Exclude, a.opt.ExcludeFrom) {
		return true
	}
	if a.secretName(c) {
		return true
	}
	if a.opt.OutPath != "" && c.c.Path == a.opt.OutPath {
		a.warn(diag.Warning{Code: diag.ContextDocument, Path: c.c.Path,
			Message: "the file this document is being written to: left out"})
		return true
	}
	if !a.opt.KeepGenerated && !namedLiterally(c) && project.Generated(c.c.Rel) {
		a.warn(diag.Warning{Code: diag.PathGenerated, Path: c.c.Path,
			Message: "a generated file (lock file, minified bundle or source map): left out (name it literally, or set <keep_generated>true</keep_generated> in config, to pack it)"})
		return true
	}
	return false
}

// Excluded reports whether the file of project-relative path rel matches
// one of globs: relative to the project, relative to from (a directory
// relative to the project) for a file below it, or, for a glob without a
// slash, by its name, as a .gitignore line or rg -g '!GLOB' would.
func Excluded(rel string, globs []string, from string) bool {
	var fromRel string
	if from != "" && from != "." && strings.HasPrefix(rel, from+"/") {
		fromRel = rel[len(from)+1:]
	}
	match := func(g, p string) bool {
		if m, _ := doublestar.Match(g, p); m {
			return true
		}
		m, _ := doublestar.Match(strings.TrimSuffix(g, "/")+"/**", p) // a directory: what is in it
		return m
	}
	for _, g := range globs {
		g = strings.TrimPrefix(g, "./")
		if match(g, rel) || fromRel != "" && match(g, fromRel) {
			return true
		}
		if !strings.Contains(strings.TrimSuffix(g, "/"), "/") {
			if m, _ := doublestar.Match(strings.TrimSuffix(g, "/"), path.Base(rel)); m {
				return true
			}
			// A directory name ("tests", "tests/") leaves out what is in it.
			for _, dir := range strings.Split(path.Dir(rel), "/") {
				if m, _ := doublestar.Match(strings.TrimSuffix(g, "/"), dir); m && dir != "." {
					return true
				}
			}
		}
	}
	return false
}

// namedLiterally reports whether c is a file its literal source named, not
// one a glob or a directory walk found: its spec has no glob character
// and ends in the file's own name.
func namedLiterally(c candidate) bool {
	if c.source != template.SourceLiteral || strings.ContainsAny(c.c.Spec, "*?[{") {
		return false
	}
	return path.Base(filepath.ToSlash(c.c.Spec)) == path.Base(c.c.Rel)
}

// secretName leaves c out, with SECRET_DETECTED and its path redacted, when
// its path holds a secret (a key ID as a file name), unless secrets are
// allowed: a name is content too.
func (a *assembler) secretName(c candidate) bool {
	if a.opt.AllowSecrets || !NameHoldsSecret(c.c.Rel) {
		return false
	}
	a.warn(diag.Warning{Code: diag.SecretDetected, Path: secrets.RedactText(c.c.Path),
		Message: "its path holds a secret: file left out"})
	return true
}

// addExpanded adds the candidates of one Expand call. The first source's
// are taken as they are, without the index of paths add keeps: Expand
// yields each real path once, and a task of one glob over a whole tree
// would otherwise fill a map with every path only to find no repeat. add
// makes the index, from what was taken, when a second source comes.
func (a *assembler) addExpanded(cands []project.Candidate, ro readOptions) {
	a.candidates = slices.Grow(a.candidates, len(cands))
	if len(a.candidates) == 0 && a.seen == nil {
		for i := range cands {
			if cd := (candidate{c: &cands[i], source: template.SourceLiteral, read: ro}); !a.leftOut(cd) {
				a.candidates = append(a.candidates, cd)
			}
		}
		return
	}
	for i := range cands {
		a.add(candidate{c: &cands[i], source: template.SourceLiteral, read: ro})
	}
}

var sourceRank = map[template.SourceKind]int{template.SourceLiteral: 0, template.SourceCommand: 1, template.SourceDescription: 2}

// collect resolves every source in merge order.
func (a *assembler) collect() {
	srcs := append([]template.FileSource(nil), a.t.Sources...)
	sort.SliceStable(srcs, func(i, j int) bool { return sourceRank[srcs[i].Kind] < sourceRank[srcs[j].Kind] })
	for i := range srcs {
		if a.ctx.Err() != nil {
			return
		}
		switch s := &srcs[i]; s.Kind {
		case template.SourceCommand:
			a.command(s)
		case template.SourceDescription:
			a.description(s)
		default:
			a.literal(s)
		}
	}
	a.inherited()
	if a.opt.Fresh {
		a.fresh()
	}
}

// literal expands path specs. Consecutive specs without read options go to
// the resolver together so their globs share one walk.
func (a *assembler) literal(s *template.FileSource) {
	p := a.opt.Project
	var batch []string
	flush := func(ro readOptions) {
		if len(batch) == 0 {
			return
		}
		cands, warns := p.Expand(a.ctx, batch)
		a.warnings = append(a.warnings, warns...)
		cands = a.capFiles(cands, s.MaxFiles, strings.Join(batch, " "))
		a.addExpanded(cands, ro)
		batch = batch[:0]
	}
	for _, ps := range s.Paths {
		ro := readOptions{skipLines: ps.SkipLines, maxLines: ps.MaxLines, maxBytes: int64(ps.MaxBytes)}
		// A bound input (e.g. an earlier step's .files) may hold several
		// paths, one per line.
		var specs []string
		for _, line := range strings.Split(ps.Value, "\n") {
			if line = strings.TrimSpace(line); line != "" {
				specs = append(specs, line)
			}
		}
		if ro == (readOptions{}) {
			batch = append(batch, specs...)
			continue
		}
		flush(readOptions{})
		batch = append(batch, specs...)
		flush(ro)
	}
	flush(readOptions{})
}

// capFiles applies a source's max_files, which may only narrow the policy.
func (a *assembler) capFiles(c []project.Candidate, max int, what string) []project.Candidate {
	if max > 0 && len(c) > max {
		a.warn(diag.Warning{Code: diag.TooManyFiles,
			Message: fmt.Sprintf("%s matched %d files; kept the first %d (max_files)", what, len(c), max)})
		return c[:max]
	}
	return c
}

func (a *assembler) filter(rel string, include, exclude []string) bool {
	if len(include) > 0 {
		ok := false
		for _, g := range include {
			if m, _ := doublestar.Match(g, rel); m {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	for _, g := range exclude {
		if m, _ := doublestar.Match(g, rel); m {
			return false
		}
	}
	return true
}

// command runs a restricted shell command and resolves each record it prints.
func (a *assembler) command(s *template.FileSource) {
	p := a.opt.Project
	warned := len(a.warnings)
	// A template's command runs in the project dir (DESIGN §2): what it
	// selects does not depend on where taskctl was started.
	dir := a.opt.CommandDir
	if dir == "" {
		dir = p.Dir()
	}
	res, ws, err := command.Run(a.ctx, p, dir, s.Command, command.Vars(a.t.Vars()), a.shellLimits(s))
	a.warnings = append(a.warnings, ws...)
	if err != nil || res == nil {
		return
	}
	var cands []project.Candidate
	resolved, warns := command.ResolveOutput(p, res)
	a.warnings = append(a.warnings, command.SummarizeNotFound(warns)...)
	for _, w := range warns {
		if w.Code == diag.PathNotFound && w.Path != "" {
			// A line of output that names no file: any text the command
			// read (cat .env, grep without -l). The warning shows it to
			// the user; the document, which goes to a model, does not
			// list it as a file left out.
			if a.notFiles == nil {
				a.notFiles = map[string]bool{}
			}
			a.notFiles[w.Path] = true
		}
	}
	for _, c := range resolved {
		if a.filter(c.Rel, s.Include, s.Exclude) {
			cands = append(cands, c)
		}
	}
	max := p.Policy().MaxFiles
	if s.MaxFiles > 0 && s.MaxFiles < max {
		max = s.MaxFiles
	}
	cands = a.capFiles(cands, max, "command")
	for i := range cands {
		a.add(candidate{c: &cands[i], source: template.SourceCommand})
	}
	if len(cands) == 0 && len(a.warnings) == warned {
		// As a glob that matches nothing (GLOB_NO_MATCH): a source that
		// selected nothing, and said nothing else about why, says so,
		// and --strict fails on it.
		a.warn(diag.Warning{Code: diag.CommandNoMatch,
			Message: fmt.Sprintf("command %q selected no file", short(s.Command, 80))})
	}
}

func (a *assembler) shellLimits(s *template.FileSource) command.Limits {
	l := a.opt.Shell
	if s.CommandTimeout > 0 {
		if d := time.Duration(s.CommandTimeout) * time.Second; l.Timeout == 0 || d < l.Timeout {
			l.Timeout = d
		}
	}
	return l
}

// NameHoldsSecret reports whether the scanner finds a secret in a path (a
// key ID used as a file or directory name): such a name is content, kept
// out of documents, listings and the index like the secret it holds.
func NameHoldsSecret(rel string) bool {
	return secrets.HasKeyword(rel) && len(secrets.Scan([]byte(rel))) > 0
}

func (a *assembler) openIndex() (*memory.Index, error) {
	a.indexOnce.Do(func() {
		if a.opt.Index == nil {
			a.indexErr = errors.New("no index configured")
			return
		}
		a.index, a.indexErr = a.opt.Index(a.ctx)
	})
	return a.index, a.indexErr
}

// search runs a description query and adds its matches.
func (a *assembler) search(query string, source template.SourceKind, so memory.SearchOptions) {
	p := a.opt.Project
	ix, err := a.openIndex()
	if err != nil {
		a.warn(diag.Warning{Code: diag.IndexUnavailable, Message: fmt.Sprintf("%s source skipped: %v", source, err)})
		return
	}
	so.Source = lineSource{p: a.opt.Project, redact: !a.opt.AllowSecrets}
	matches := ix.Search(query, so)
	if len(matches) == 0 {
		a.warn(diag.Warning{Code: diag.DescriptionNoMatch, Message: fmt.Sprintf("%s %q matched no file", source, short(query, 80))})
		return
	}
	for _, m := range matches {
		c, w := p.ResolveFrom(p.Dir(), m.Rel)
		if w != nil {
			a.warn(*w)
			continue
		}
		score := m.Score
		a.add(candidate{c: &c, source: source, score: &score, reason: &m.Reason})
	}
}

// lineSource is what a match's best line is read from: the project's file,
// read through the path resolver and decoded as the document decodes it,
// with every secret the scanner finds redacted (unless secrets are allowed
// in the document), so that a reason never shows what the document would
// leave out. It only reads; the index walks the project itself.
type lineSource struct {
	p      *project.Project
	redact bool
}

func (s lineSource) Walk(context.Context, func(string, int64, time.Time) error) error {
	return errors.New("contextgen: a line source does not walk")
}

func (s lineSource) Root() string { return s.p.Dir() }

func (s lineSource) ReadFile(rel string) ([]byte, error) {
	c, w := s.p.ResolveFrom(s.p.Dir(), rel)
	if w != nil {
		return nil, errors.New(w.Message)
	}
	pf, w := s.p.Read(c)
	if w != nil {
		return nil, errors.New(w.Message)
	}
	if pf.Binary {
		return nil, errors.New("binary file")
	}
	text, ok := Text(pf.Content, s.redact)
	if !ok {
		return nil, errors.New("binary file")
	}
	return text, nil
}

// Text is a file's content as the index and the matches' best lines see
// it: decoded as assemble decodes it (UTF-16 and other encodings to UTF-8;
// ok is false for binary content) and, with redact, every secret the
// scanner finds replaced by "[REDACTED:<rule>]" followed by the newlines
// the secret spanned, so that line numbers still point into the file on
// disk.
func Text(data []byte, redact bool) (text []byte, ok bool) {
	text, enc := encoding.Decode(data)
	if enc.Binary {
		return nil, false
	}
	if redact {
		if finds := secrets.Scan(text); len(finds) > 0 {
			text = secrets.RedactLines(text, finds)
		}
	}
	return text, true
}

func (a *assembler) description(s *template.FileSource) {
	limit := s.Limit
	if limit <= 0 {
		limit = 10
	}
	if max := a.opt.Project.Policy().MaxFiles; s.MaxFiles > 0 && s.MaxFiles < limit {
		limit = s.MaxFiles
	} else if limit > max {
		limit = max
	}
	a.search(s.Description, template.SourceDescription, memory.SearchOptions{
		Limit: limit, MinScore: s.MinScore, Include: s.Include, Exclude: s.Exclude,
	})
}

func (a *assembler) fresh() {
	q := strings.TrimSpace(a.opt.FreshQuery)
	if q == "" {
		q = a.t.Description
	}
	a.search(q, SourceFresh, memory.SearchOptions{Limit: 10})
}

// inherited adds the parent's files: all of them (full), or those the lexical
// matcher ranks relevant to the task's description (subset).
func (a *assembler) inherited() {
	switch a.opt.Inherit {
	case template.InheritFull:
		for _, f := range a.opt.Inherited {
			a.addInherited(f, nil, nil)
		}
	case template.InheritSubset:
		if len(a.opt.Inherited) == 0 {
			return
		}
		ix, err := a.openIndex()
		if err != nil {
			a.warn(diag.Warning{Code: diag.IndexUnavailable, Message: fmt.Sprintf("subset inheritance skipped: %v", err)})
			return
		}
		var include []string
		byRel := map[string]*File{}
		for _, f := range a.opt.Inherited {
			include = append(include, "/"+escapeGlob(f.Rel)) // anchored: this file, not its namesakes below
			byRel[f.Rel] = f
		}
		kept := map[string]bool{}
		for _, m := range ix.Search(a.t.Description, memory.SearchOptions{Limit: len(include), Include: include,
			Source: lineSource{p: a.opt.Project, redact: !a.opt.AllowSecrets}}) {
			if f := byRel[m.Rel]; f != nil && !kept[m.Rel] {
				kept[m.Rel] = true
				score := m.Score
				a.addInherited(f, &score, &m.Reason)
			}
		}
		a.unranked(kept)
	}
}

// unranked handles the parent files the index did not rank under subset
// inheritance. One the index holds did not match the step's description:
// it is left out. One the index does not hold (an explicitly named
// ignored file, a file newer than the index) is scored directly: the share
// of the description's terms its path and text contain. Every parent file
// left out is reported.
func (a *assembler) unranked(kept map[string]bool) {
	var rest []*File
	for _, f := range a.opt.Inherited {
		if !kept[f.Rel] {
			rest = append(rest, f)
		}
	}
	if len(rest) == 0 {
		return
	}
	indexed := map[string]bool{}
	if ix, err := a.openIndex(); err == nil {
		paths, ok := ix.Files()
		for i, rel := range paths {
			indexed[rel] = ok[i]
		}
	}
	query := uniqueTerms(a.t.Description)
	src := lineSource{p: a.opt.Project, redact: !a.opt.AllowSecrets}
	for _, f := range rest {
		why := "no term of the step's description matches it"
		if !indexed[f.Rel] && len(query) > 0 {
			if score, reason, ok := scoreDirectly(src, f.Rel, query); ok {
				a.addInherited(f, &score, &reason)
				continue
			}
			why = "it is not in the index and its path and text hold no term of the step's description"
		}
		a.warn(diag.Warning{Code: diag.InheritNotRelevant, Path: f.Path,
			Message: "parent file left out by inherit_context=subset: " + why})
	}
}

// uniqueTerms returns the distinct index terms of text, in order.
func uniqueTerms(text string) []string {
	var out []string
	seen := map[string]bool{}
	for _, t := range memory.Tokenize(text) {
		if !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	return out
}

// scoreDirectly scores the file at rel against query (distinct terms): the
// share of them its path and first 256 KiB of text contain, with the line
// that holds most of them. ok is false when none matches or the file
// cannot be read as text.
func scoreDirectly(src lineSource, rel string, query []string) (score float64, reason memory.Reason, ok bool) {
	text, err := src.ReadFile(rel)
	if err != nil {
		return 0, reason, false
	}
	if len(text) > 256<<10 {
		text = text[:256<<10]
	}
	want := map[string]bool{}
	for _, q := range query {
		want[q] = true
	}
	found := map[string]bool{}
	for _, t := range memory.Tokenize(rel) {
		if want[t] {
			found[t] = true
		}
	}
	bestN := 0
	for i, line := range strings.Split(string(text), "\n") {
		n := 0
		for _, t := range uniqueTerms(line) {
			if want[t] {
				found[t] = true
				n++
			}
		}
		if n > bestN {
			bestN = n
			reason.Line, reason.Text = i+1, short(line, 200)
		}
	}
	if len(found) == 0 {
		return 0, reason, false
	}
	var terms []string
	for _, q := range query {
		if found[q] {
			terms = append(terms, q)
		}
	}
	reason.Terms = map[string][]string{"content": terms}
	reason.Notes = []string{"not in the index: scored by the share of the description's terms it holds"}
	return float64(len(terms)) / float64(len(query)), reason, true
}

func (a *assembler) addInherited(f *File, score *float64, reason *memory.Reason) {
	c, w := a.opt.Project.ResolveFrom(a.opt.Project.Dir(), f.Rel)
	if w != nil {
		a.warn(*w)
		return
	}
	a.add(candidate{c: &c, source: SourceInherited, score: score, reason: reason})
}

func escapeGlob(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(`*?[]{}\`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// read reads, decodes, scans and counts every candidate, in parallel, and
// returns the included files in merge order.
func (a *assembler) read() []*File {
	n := len(a.candidates)
	files := make([]*File, n)
	warns := make([][]diag.Warning, n)
	workers := runtime.GOMAXPROCS(0)
	if workers > n {
		workers = n
	}
	// Each worker takes the next candidate from a shared counter: no
	// goroutine hands work to another, so none waits for one to wake.
	//
	// A file whose count needs the tokenizer's vocabulary before it is
	// loaded waits in the worker's list while the worker reads on (the
	// load runs on a goroutine of its own), and is counted as soon as the
	// vocabulary is there, or after the last file.
	var wg sync.WaitGroup
	var next atomic.Int64
	for range workers {
		wg.Go(func() {
			var waiting []*File
			var buffers arena
			var markup markupBuffer
			for {
				i := int(next.Add(1) - 1)
				if i >= n || a.ctx.Err() != nil {
					break
				}
				files[i], warns[i] = a.readOne(a.candidates[i], &buffers)
				if f := files[i]; f != nil {
					f.order = i
					if !a.countFile(f, false, &markup) {
						waiting = append(waiting, f)
					}
				}
				if len(waiting) > 0 && tokens.Ready(a.opt.Counter) {
					for _, f := range waiting {
						a.countFile(f, true, &markup)
					}
					waiting = waiting[:0]
				}
			}
			for _, f := range waiting {
				if a.ctx.Err() != nil {
					return
				}
				a.countFile(f, true, &markup)
			}
		})
	}
	wg.Wait()
	out := make([]*File, 0, n)
	for i := range files {
		a.warnings = append(a.warnings, warns[i]...)
		if files[i] != nil {
			out = append(out, files[i])
		}
	}
	return out
}

// DefaultMaxContentBytes is Options.MaxContentBytes's default: the file
// content a document holds at most, whatever the repository holds (a
// 196 KB .git can check out 30 files of 10 MiB, each under the policy's
// size cap). With the document's rendering and the token counts, a run of
// assemble peaked at 1.1 times this in the xml, markdown and plain styles
// and at 5 times it with --output json, which holds the envelope whole
// (measured in docs/policy.md).
const DefaultMaxContentBytes = 256 << 20

// admit leaves out, before anything is read, the candidates that would
// take the file content the document holds over Options.MaxContentBytes:
// in the document's order, each counts its size on disk, up to the
// policy's size cap (a file that grows meanwhile is still read to that cap
// at most). When the candidates cannot reach the bound, nothing is looked
// at.
func (a *assembler) admit() {
	bound := a.opt.MaxContentBytes
	if bound <= 0 {
		bound = DefaultMaxContentBytes
	}
	per := a.opt.Project.Policy().MaxFileBytes
	if per <= 0 || int64(len(a.candidates)) <= bound/per {
		return
	}
	sizes := make([]int64, len(a.candidates))
	var wg sync.WaitGroup
	var next atomic.Int64
	for range min(runtime.GOMAXPROCS(0), len(a.candidates)) {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < len(a.candidates); i = int(next.Add(1) - 1) {
				if size, ok := a.opt.Project.SizeOf(*a.candidates[i].c); ok {
					sizes[i] = min(size, per)
				}
			}
		})
	}
	wg.Wait()
	kept, held := a.candidates[:0], int64(0)
	for i, c := range a.candidates {
		if held+sizes[i] > bound {
			a.warn(diag.Warning{Code: diag.BudgetExceeded, Path: c.c.Path, Message: fmt.Sprintf(
				"left out: its %d bytes would take the file content of the document over %d MiB (%d MiB held), the bound of a run's memory",
				sizes[i], bound>>20, held>>20)})
			continue
		}
		held += sizes[i]
		kept = append(kept, c)
	}
	a.candidates = kept
}

func (a *assembler) readOne(c candidate, buffers *arena) (*File, []diag.Warning) {
	if a.ctx.Err() != nil {
		return nil, nil
	}
	pf, w := a.opt.Project.ReadInto(*c.c, buffers.buffer())
	if pf != nil {
		pf.Content = buffers.keep(pf.Content)
	}
	if a.opt.Audit != nil {
		a.opt.Audit(c.c.Path, string(c.source))
	}
	if w != nil {
		return nil, []diag.Warning{*w}
	}
	var ws []diag.Warning
	f := &File{
		Path:     pf.Path,
		Rel:      pf.Rel,
		Source:   c.source,
		Score:    c.score,
		Reason:   c.reason,
		Bytes:    pf.Size,
		Modified: pf.ModTime.UTC().Format(time.RFC3339),
		Binary:   pf.Binary,
		relative: a.opt.Relative,
	}
	if a.opt.Hashes {
		sum := sha256.Sum256(pf.Content)
		f.SHA256 = hex.EncodeToString(sum[:])
	}
	// The content policy decides binary, encoding and secrets once for
	// every door (project.JudgeContent).
	jc := project.JudgeContent(pf.Content, a.opt.AllowSecrets)
	if jc.Binary {
		f.Encoding, f.Binary = "binary", true
		ws = append(ws, diag.Warning{Code: diag.FileBinary, Path: pf.Path,
			Message: fmt.Sprintf("binary file (%d bytes): listed, content omitted", pf.Size)})
		return f, ws
	}
	text, enc := jc.Text, jc.Encoding
	f.Encoding = enc.Encoding
	// Lines, like Bytes, describe the file, not the content shown (which
	// may be cut or redacted).
	f.Lines = countLines(text)
	ws = append(ws, encodingWarnings(pf.Path, enc)...)
	if !namedLiterally(c) && IsDocument(text) {
		ws = append(ws, diag.Warning{Code: diag.ContextDocument, Path: pf.Path,
			Message: "a taskctl context document (an earlier assemble's output): left out, so that this one does not hold it (name it literally to pack it)"})
		return nil, ws
	}
	if jc.HoldsSecret() {
		ws = append(ws, a.secretWarnings(pf.Path, jc)...)
		if !a.opt.RedactSecrets {
			return nil, ws
		}
		text = secrets.Redact(text, jc.Secrets)
		f.Redacted = len(jc.Secrets)
	}

	text, truncated := cut(text, c.read, a.opt.MaxFileBytes)
	f.Truncated = truncated
	// What would act on a terminal or reorder the text is shown escaped
	// (see neutralise): in every style, and C0 controls too in the
	// markdown and plain styles (XML shows those as U+FFFD).
	text, _ = neutralise(text, a.opt.Style == StyleMarkdown || a.opt.Style == StylePlain)
	// text is this file's own buffer (read for this call, or made from it
	// by decoding, redaction or cutting) and nothing writes to it after
	// this point, so the string can share its bytes instead of copying
	// them.
	f.Content = unsafe.String(unsafe.SliceData(text), len(text))
	// The XML check runs here, on all cores, rather than in Render.
	f.xmlOf = f.Content
	f.xmlContent, f.xmlReplaced = xmlSafe(f.Content)
	f.xmlSplit = strings.Contains(f.xmlContent, cdataEnd)
	if a.opt.Counter != nil {
		f.count = &countWork{text: text, sum: a.opt.Cache.Sum(text)}
	}
	return f, ws
}

// encodingWarnings say how a file's text was decoded when that is news: a
// guessed encoding, or bytes that were not valid in it.
func encodingWarnings(path string, enc encoding.Result) []diag.Warning {
	var ws []diag.Warning
	// A byte-order mark says what the encoding is: converting it is no news.
	// A guess is reported.
	if enc.Converted && enc.Encoding == encoding.Windows1252 && enc.InvalidBytes == 0 {
		ws = append(ws, diag.Warning{Code: diag.EncodingConverted, Path: path,
			Message: fmt.Sprintf("not UTF-8: decoded as %s (a guess)", enc.Encoding)})
	}
	if enc.InvalidBytes > 0 {
		var msg string
		switch enc.Encoding {
		case encoding.Unknown:
			msg = fmt.Sprintf("not UTF-8, and the encoding is unknown (a multi-byte legacy encoding such as GBK, Big5, "+
				"Shift-JIS or EUC-KR, or a non-Latin 8-bit one?): each of its %d non-ASCII bytes was read as one "+
				"Windows-1252 character, so that text is garbled", enc.InvalidBytes)
		case encoding.Windows1252:
			msg = fmt.Sprintf("not UTF-8: read as Windows-1252 (a guess: its %d non-ASCII bytes stand alone, as accented "+
				"Latin letters do)", enc.InvalidBytes)
		case encoding.UTF8, encoding.UTF8BOM:
			msg = fmt.Sprintf("%d stray byte(s) in UTF-8 text were not valid UTF-8: each was read as its Windows-1252 character",
				enc.InvalidBytes)
		default:
			msg = fmt.Sprintf("%d byte(s) were not valid %s: replaced by U+FFFD", enc.InvalidBytes, enc.Encoding)
		}
		ws = append(ws, diag.Warning{Code: diag.InvalidUTF8, Path: path, Message: msg})
	}

	return ws
}

// countWork is what counting a file's tokens takes: its text, and the
// text's sum (the token cache's key).
type countWork struct {
	text []byte
	sum  tokens.Sum
}

// countFile counts f's tokens and its markup's, from the cache where it
// holds them. With mayWait false it counts nothing that would wait for the
// tokenizer's vocabulary, which it starts loading instead, and reports
// false: the caller comes back to f later, having read other files in the
// meantime rather than wait idle for the first count.
func (a *assembler) countFile(f *File, mayWait bool, mb *markupBuffer) bool {
	c := a.opt.Counter
	if f.counted || c == nil {
		return true
	}
	// count returns text's count from the cache, or counts it unless that
	// would wait for the vocabulary (ok false).
	count := func(sum tokens.Sum, text []byte) (n int, hit, ok bool) {
		if n, hit := a.opt.Cache.Lookup(c, sum, len(text)); hit {
			return n, true, true
		}
		if !mayWait && !tokens.Ready(c) {
			tokens.Prepare(c)
			return 0, false, false
		}
		n, _ = a.opt.Cache.CountSum(c, sum, text)
		return n, false, true
	}
	if f.count != nil && f.Tokens == nil {
		n, hit, ok := count(f.count.sum, f.count.text)
		if !ok {
			return false
		}
		if hit {
			a.cacheHits.Add(1)
		} else {
			a.cacheMisses.Add(1)
		}
		f.Tokens = &n
	}
	// The markup goes through the cache too (see markupCounter).
	m := f.markup(a.opt.Style, mb)
	n, _, ok := count(a.opt.Cache.Sum(m), m)
	if !ok {
		return false
	}
	if a.opt.Style == StylePlain && f.Tokens != nil {
		// The backslashes the plain style adds to lines of content
		// (writePlainContent) are counted as rendered: one may merge
		// with backslashes already there, or split a token.
		escaped := 0
		plainEscapes(f.Content, func(int) { escaped++ })
		if escaped > 0 {
			var b bytes.Buffer
			b.Grow(len(f.Content) + escaped)
			writePlainContent(&b, f.Content)
			m, _, ok := count(a.opt.Cache.Sum(b.Bytes()), b.Bytes())
			if !ok {
				return false
			}
			n += m - *f.Tokens
		}
	}
	f.markupTokens = n
	f.count, f.counted = nil, true
	return true
}

// markupCounter counts the document's markup (a file's tag or heading,
// the header, the list of files left out) through the token cache: it is
// the same from one run to the next, and a run whose files' counts all
// come from the cache then never loads the tokenizer's vocabulary.
func (a *assembler) markupCounter() tokens.Counter {
	if a.opt.Counter == nil {
		return nil
	}
	if a.opt.Cache == nil {
		return a.opt.Counter
	}
	return cachedCounter{a.opt.Counter, a.opt.Cache}
}

type cachedCounter struct {
	tokens.Counter
	cache *tokens.Cache
}

func (c cachedCounter) Count(text []byte) int {
	n, _ := c.cache.Count(c.Counter, text)
	return n
}

func countLines(b []byte) int {
	if len(b) == 0 {
		return 0
	}
	n := bytes.Count(b, []byte{'\n'})
	if b[len(b)-1] != '\n' {
		n++
	}
	return n
}

// cut applies skip_lines, max_lines and the byte caps, and marks what it
// removed with an explicit line. It reports whether anything was removed.
// Cuts fall on line boundaries; a single line longer than the byte cap is cut
// at a rune boundary.
func cut(text []byte, ro readOptions, fileCap int64) ([]byte, bool) {
	maxBytes := ro.maxBytes
	if fileCap > 0 && (maxBytes == 0 || fileCap < maxBytes) {
		maxBytes = fileCap
	}
	if ro.skipLines == 0 && ro.maxLines == 0 && (maxBytes == 0 || int64(len(text)) <= maxBytes) {
		return text, false
	}
	lines := bytes.SplitAfter(text, []byte("\n"))
	if len(lines) > 0 && len(lines[len(lines)-1]) == 0 {
		lines = lines[:len(lines)-1]
	}
	total := len(lines)
	first := min(ro.skipLines, total)
	last := total
	if ro.maxLines > 0 {
		last = min(first+ro.maxLines, total)
	}
	var out []byte
	n := 0
	partial := false
	for _, l := range lines[first:last] {
		if maxBytes > 0 && int64(len(out)+len(l)) > maxBytes {
			if n == 0 {
				k := int(maxBytes)
				for k > 0 && !utf8.RuneStart(l[k]) {
					k--
				}
				out = append(out, l[:k]...)
				partial = true
			}
			break
		}
		out = append(out, l...)
		n++
	}
	if n == total {
		return text, false
	}
	if len(out) > 0 && out[len(out)-1] != '\n' {
		out = append(out, '\n')
	}
	var marker string
	switch {
	case partial:
		marker = fmt.Sprintf("[taskctl: truncated: line %d cut at %d bytes; %d %s in all]\n", first+1, maxBytes, total, plural(total, "line"))
	case n == 0:
		marker = fmt.Sprintf("[taskctl: truncated: no lines shown of %d]\n", total)
	default:
		marker = fmt.Sprintf("[taskctl: truncated: showing lines %d-%d of %d]\n", first+1, first+n, total)
	}
	return append(out, marker...), true
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

func short(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// budget drops whole files until the whole document, rendered in style,
// fits max tokens: literal files are kept first (in order), then command
// results (in order), then the rest by score. A file costs its content's
// tokens and its markup's; the document's header and footer are counted
// first, with the totals of all the files (which the kept files' totals
// never exceed). Dropped files become BUDGET_EXCEEDED warnings with their
// counts.
func (d *Document) budget(max int, c tokens.Counter, style string) {
	if max <= 0 || c == nil {
		return
	}
	prio := append([]*File(nil), d.Files...)
	rank := func(f *File) int {
		switch f.Source {
		case template.SourceLiteral:
			return 0
		case template.SourceCommand:
			return 1
		}
		return 2
	}
	sort.SliceStable(prio, func(i, j int) bool {
		ri, rj := rank(prio[i]), rank(prio[j])
		if ri != rj {
			return ri < rj
		}
		if ri == 2 {
			si, sj := scoreOf(prio[i]), scoreOf(prio[j])
			if si != sj {
				return si > sj
			}
		}
		return prio[i].order < prio[j].order
	})
	// The list of files left out gives way to content (fitOmitted): here
	// only its shortest form is counted, as if every file were left out:
	// its heading and how many are not listed.
	d.Listed = listNone
	d.total(c, style)
	least := *d
	least.Omitted = make([]Omission, len(d.Omitted)+len(d.Files))
	used := *d.Totals.Tokens - *d.Totals.ContentTokens + c.Count(least.omittedText(style, 0)) + 1
	for _, f := range d.Files {
		used -= f.markupTokens
	}
	keep := map[*File]bool{}
	for _, f := range prio {
		n := 0
		if f.Tokens != nil {
			n = *f.Tokens
		}
		if cost := n + f.markupTokens; used+cost <= max {
			used += cost
			keep[f] = true
			continue
		}
		d.Warnings = append(d.Warnings, diag.Warning{Code: diag.BudgetExceeded, Path: f.Path,
			Message: fmt.Sprintf("left out: %d tokens (%d with its markup) do not fit the budget of %d (%d used)",
				n, n+f.markupTokens, max, used)})
	}
	out := d.Files[:0]
	for _, f := range d.Files {
		if keep[f] {
			out = append(out, f)
		} else {
			d.Omitted = append(d.Omitted, Omission{f.Path, diag.BudgetExceeded})
		}
	}
	d.Files = out
}

// fitOmitted lists as many of the files left out as fit the budget next
// to the kept files: all of them without a budget.
func (d *Document) fitOmitted(max int, c tokens.Counter, style string) {
	d.Listed = -1
	if max <= 0 || c == nil || len(d.Omitted) == 0 {
		return
	}
	d.Listed = listNone
	d.total(c, style)
	// The list is counted as one text (its lines' ends and starts merge
	// into tokens of their own), with one token to spare where it meets
	// the last file; the longest prefix that fits is found by halving.
	room := max - *d.Totals.Tokens - 1
	cost := func(k int) int { return c.Count(d.omittedText(style, k)) }
	if cost(len(d.Omitted)) <= room {
		d.Listed = -1
		return
	}
	lo, hi := 0, len(d.Omitted) // cost(hi) > room
	if cost(0) > room {
		return // not even its heading fits
	}
	for hi-lo > 1 {
		if m := (lo + hi) / 2; cost(m) <= room {
			lo = m
		} else {
			hi = m
		}
	}
	d.Listed = lo
}

// omit lists the files the warnings name that are not in the document. A
// glob that matched nothing names its base directory, which was not left out
// (nothing was), and a path that is not absolute (the text of an invalid
// glob) names no file: neither is listed.
func (d *Document) omit(notFiles map[string]bool) {
	d.Listed = -1
	// The set of paths is made of the warnings' (few), not of the
	// document's files (a whole tree's): a file's path marks a warned path
	// as kept.
	named := map[string]bool{} // a warned path: true while it may be left out
	for _, w := range d.Warnings {
		if w.Code != diag.GlobNoMatch && filepath.IsAbs(w.Path) && !notFiles[w.Path] {
			named[w.Path] = true
		}
	}
	if len(named) == 0 {
		return
	}
	for _, f := range d.Files {
		if named[f.Path] {
			named[f.Path] = false
		}
	}
	for _, w := range d.Warnings {
		if named[w.Path] && w.Code != diag.GlobNoMatch && filepath.IsAbs(w.Path) {
			named[w.Path] = false // listed once, with its first code
			d.Omitted = append(d.Omitted, Omission{w.Path, w.Code})
		}
	}
}

func scoreOf(f *File) float64 {
	if f.Score == nil {
		return 0
	}
	return *f.Score
}

// total sums the files; with a counter, Totals.Tokens counts the document
// in style: content, markup, header and footer. The header holds that
// total, so it is counted until the total stops changing.
func (d *Document) total(c tokens.Counter, style string) {
	d.Totals = Totals{Files: len(d.Files)}
	content, body := 0, 0
	for _, f := range d.Files {
		d.Totals.Bytes += f.Bytes
		if f.Tokens != nil {
			content += *f.Tokens
		}
		body += f.markupTokens
	}
	if c == nil {
		return
	}
	body += content
	tok := body
	d.Totals.Tokens, d.Totals.ContentTokens = &tok, &content
	if d.header {
		d.tree = d.Tree()
		defer func() { d.tree = "" }()
	}
	for range 4 {
		n := body + c.Count(d.frame(style))
		if n == tok {
			break
		}
		tok = n
	}
}

// Paths returns the absolute paths of the document's files.
func (d *Document) Paths() []string {
	out := make([]string, len(d.Files))
	for i, f := range d.Files {
		out[i] = f.Path
	}
	return out
}

// secretWarnings are the SECRET_DETECTED warnings of a file that holds a
// secret, one per finding: redacted, or left out (then saying what keeps
// it redacted, in the caller's terms: Options.RedactHint).
func (a *assembler) secretWarnings(path string, jc project.Content) []diag.Warning {
	if a.opt.RedactSecrets {
		return jc.SecretWarnings(path, true)
	}
	verb := "file left out"
	if a.opt.RedactHint != "" {
		verb += " (" + a.opt.RedactHint + " keeps it with the secret replaced)"
	}
	ws := make([]diag.Warning, 0, len(jc.Secrets))
	for _, f := range jc.Secrets {
		ws = append(ws, diag.Warning{Code: diag.SecretDetected, Path: path,
			Message: fmt.Sprintf("rule %s matched at line %d: %s", f.Rule, f.Line, verb)})
	}
	return ws
}
