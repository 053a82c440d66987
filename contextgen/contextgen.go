package contextgen

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/taskctl/taskctl/command"
	"github.com/taskctl/taskctl/contextgen/budget"
	"github.com/taskctl/taskctl/contextgen/reading"
	"github.com/taskctl/taskctl/contextgen/sources"
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
	SourceInherited = sources.SourceInherited // the parent's context (inherit_context)
	SourceFresh     = sources.SourceFresh     // fresh_context's search of the index
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
	res, err := sources.Resolve(ctx, t, opt.sources())
	if err != nil {
		return nil, err
	}
	return &assembler{ctx: ctx, opt: opt, candidates: res.Candidates, warnings: res.Warnings, notFiles: res.NotFiles}, nil
}

// sources are the options of resolving the task's sources.
func (o Options) sources() sources.Options {
	parents := make([]sources.Parent, len(o.Inherited))
	for i, f := range o.Inherited {
		parents[i] = sources.Parent{Path: f.Path, Rel: f.Rel}
	}
	return sources.Options{Project: o.Project, Shell: o.Shell, CommandDir: o.CommandDir, Index: o.Index,
		Inherited: parents, Inherit: o.Inherit, Fresh: o.Fresh, FreshQuery: o.FreshQuery,
		AllowSecrets: o.AllowSecrets, KeepGenerated: o.KeepGenerated, Exclude: o.Exclude, ExcludeFrom: o.ExcludeFrom,
		OutPath: o.OutPath}
}

// reading are the options of reading the candidates.
func (o Options) reading() reading.Options {
	return reading.Options{Project: o.Project, MaxFileBytes: o.MaxFileBytes, RedactSecrets: o.RedactSecrets,
		AllowSecrets: o.AllowSecrets, RedactHint: o.RedactHint, Hashes: o.Hashes, Audit: o.Audit, IsDocument: IsDocument}
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
			listed[i] = File{Path: c.Path, Rel: c.Rel, Source: c.Source, Score: c.Score, Reason: c.Reason, order: i}
			files[i] = &listed[i]
		}
	} else {
		var ws []diag.Warning
		a.candidates, ws = reading.Admit(opt.Project, a.candidates, opt.MaxContentBytes)
		a.warnings = append(a.warnings, ws...)
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
		files[i] = Listed{Path: c.Path, Rel: c.Rel, Source: c.Source, Score: c.Score, Reason: c.Reason}
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

// assembler reads and counts the files of one document: the candidates
// its sources resolved (contextgen/sources), read through the project
// (contextgen/reading).
type assembler struct {
	ctx        context.Context
	opt        Options
	candidates []sources.Candidate
	warnings   []diag.Warning

	cacheHits, cacheMisses atomic.Int64

	// notFiles are the paths of command output lines that name no file
	// (PATH_NOT_FOUND): the document's list of files left out skips them.
	notFiles map[string]bool
}

// Text is a file's content as the index and the matches' best lines see
// it (sources.Text): decoded as assemble decodes it (ok is false for
// binary content) and, with redact, every secret the scanner finds
// replaced by "[REDACTED:<rule>]" and the newlines it spanned.
func Text(data []byte, redact bool) (text []byte, ok bool) { return sources.Text(data, redact) }

// NameHoldsSecret reports whether the scanner finds a secret in a path
// (sources.NameHoldsSecret): such a name is content, kept out of
// documents, listings and the index like the secret it holds.
func NameHoldsSecret(rel string) bool { return sources.NameHoldsSecret(rel) }

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
			reader := reading.Reader{Options: a.opt.reading()}
			var markup markupBuffer
			for {
				i := int(next.Add(1) - 1)
				if i >= n || a.ctx.Err() != nil {
					break
				}
				files[i], warns[i] = a.readOne(a.candidates[i], &reader)
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
// content a document holds at most (see reading.Admit).
const DefaultMaxContentBytes = reading.DefaultMaxContentBytes

// readOne reads candidate c (reading.Reader) and prepares what the
// document shows of it: its text with what would act on a terminal
// escaped, the XML form, and its token count.
func (a *assembler) readOne(c sources.Candidate, r *reading.Reader) (*File, []diag.Warning) {
	rf, ws := r.Read(a.ctx, c)
	if rf == nil {
		return nil, ws
	}
	f := &File{
		Path:      rf.Path,
		Rel:       rf.Rel,
		Source:    c.Source,
		Score:     c.Score,
		Reason:    c.Reason,
		Bytes:     rf.Size,
		Lines:     rf.Lines,
		Binary:    rf.Binary,
		SHA256:    rf.SHA256,
		Modified:  rf.ModTime.UTC().Format(time.RFC3339),
		Encoding:  rf.Encoding,
		Truncated: rf.Truncated,
		Redacted:  rf.Redacted,
		relative:  a.opt.Relative,
	}
	if rf.Binary {
		return f, ws
	}
	// What would act on a terminal or reorder the text is shown escaped
	// (see neutralise): in every style, and C0 controls too in the
	// markdown and plain styles (XML shows those as U+FFFD).
	text, _ := neutralise(rf.Text, a.opt.Style == StyleMarkdown || a.opt.Style == StylePlain)
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
	// Literal files are kept first, then command results, then the rest
	// (ranked 2) by score.
	items := make([]budget.Item, len(d.Files))
	for i, f := range d.Files {
		rank := 2
		switch f.Source {
		case template.SourceLiteral:
			rank = 0
		case template.SourceCommand:
			rank = 1
		}
		items[i] = budget.Item{Cost: tokensOf(f) + f.markupTokens, Rank: rank, Score: scoreOf(f), Order: f.order}
	}
	keep, dropped := budget.Keep(items, 2, used, max)
	for _, dr := range dropped {
		f := d.Files[dr.Item]
		n := tokensOf(f)
		d.Warnings = append(d.Warnings, diag.Warning{Code: diag.BudgetExceeded, Path: f.Path,
			Message: fmt.Sprintf("left out: %d tokens (%d with its markup) do not fit the budget of %d (%d used)",
				n, n+f.markupTokens, max, dr.Used)})
	}
	out := d.Files[:0]
	for i, f := range d.Files {
		if keep[i] {
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
	switch k := budget.Prefix(len(d.Omitted), room, func(k int) int { return c.Count(d.omittedText(style, k)) }); {
	case k == len(d.Omitted):
		d.Listed = -1
	case k >= 0:
		d.Listed = k
	} // else not even its heading fits: listNone
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

func tokensOf(f *File) int {
	if f.Tokens == nil {
		return 0
	}
	return *f.Tokens
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
