package engine

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/taskctl/taskctl/contextgen"
	"github.com/taskctl/taskctl/internal/diag"
	"github.com/taskctl/taskctl/template"
	"github.com/taskctl/taskctl/workflow"
)

// AssembleRequest assembles one task's context.
type AssembleRequest struct {
	Template string   // a template file (relative to the working dir) or a task name
	Task     string   // the task (or workflow step) of the file to assemble
	Vars     []string // KEY=VALUE inputs
	Style    string   // xml, markdown or plain; "": the settings' assemble.style
	Paths    bool     // list the selected paths; read nothing unless a budget needs it
	RunID    string   // bind inputs (and inherited files) from this recorded run
	Hashes   bool     // give each file's sha256
	// Rendered says the caller renders the document in Style: in the XML
	// style, characters XML cannot carry become CONTENT_REPLACED warnings.
	Rendered bool

	// Without a Template, the sources typed on the command line make a
	// one-off task (no XML needed): PathArgs are paths and globs as the
	// user types them (relative ones from the working dir), Commands run
	// in the working dir as taskctl exec runs, Describe are description
	// sources (their text is the task's description too).
	PathArgs, Commands, Describe []string
	// Exclude drops the files matching these globs from a one-off
	// context's every source (--exclude, or --path '!GLOB'); Limit caps
	// each of its description sources (--limit; 0: the default).
	Exclude []string
	Limit   int
	// StdinPaths are paths read from standard input, one a line: from the
	// working dir, or from the project root when they name nothing from
	// there and a file from the root (git prints paths from the top).
	StdinPaths []string
	// MaxTokens is a token budget for this call (the MCP tool's
	// max_tokens); it may only narrow the settings' budget.
	MaxTokens int
	// Relative names the rendered document's files relative to the
	// project root, which its header names once (the CLI's default;
	// --absolute for absolute paths). The json form keeps absolute paths.
	Relative bool
	// OmitRoot leaves the root out of a relative document's header, so
	// that it holds no absolute path (--relative).
	OmitRoot bool
	// OutFile is the file the document is written to (--out), as typed
	// (relative to the working dir): never packed into the document.
	OutFile string
}

// AssembleResult is an assembled context: the document (its files, their
// provenance, the totals) and the style it is to be rendered in; or, for a
// request of the paths alone, the listing (nothing read) and no document.
type AssembleResult struct {
	Document *contextgen.Document
	Style    string
	Listing  *contextgen.Listing
	Report
}

// Assemble resolves a task's file sources and builds its context document.
func (e *Engine) Assemble(ctx context.Context, req AssembleRequest) (*AssembleResult, error) {
	var ws warnings
	res, err := e.assemble(ctx, req, &ws)
	return done(res, err, ws)
}

// assemble is Assemble, its warnings given to ws.
func (e *Engine) assemble(ctx context.Context, req AssembleRequest, ws *warnings) (*AssembleResult, error) {
	adHoc := req.Template == ""
	tf, t, vars, err := e.requestTask(req, ws)
	if err != nil {
		return nil, err
	}
	cfg, err := e.Settings()
	if err != nil {
		return nil, err
	}
	style := req.Style
	if style == "" {
		style = cfg.Style
	}
	if err := checkStyle(style); err != nil {
		return nil, err
	}
	if req.MaxTokens > 0 && (cfg.MaxTokens == 0 || req.MaxTokens < cfg.MaxTokens) {
		defer func(was int) { cfg.MaxTokens = was }(cfg.MaxTokens)
		cfg.MaxTokens = req.MaxTokens
	}
	bound, opt, err := e.assembleOptions(ctx, ws, tf, t, vars, req, style)
	if err != nil {
		return nil, err
	}
	opt.Header, opt.Relative, opt.OmitRoot = true, req.Relative, req.OmitRoot
	if req.OutFile != "" {
		opt.OutPath = e.outPath(req.OutFile)
	}
	if adHoc {
		if err := e.adHocOptions(&opt, req); err != nil {
			return nil, err
		}
	}
	if opt.ListOnly {
		return e.list(ctx, bound, opt, style, adHoc, ws)
	}
	return e.document(ctx, bound, opt, req, style, adHoc, ws)
}

// requestTask is the task a request assembles: a template's (its inputs
// parsed) or, without a template, the one-off task of its sources.
func (e *Engine) requestTask(req AssembleRequest, ws *warnings) (*template.File, *template.Task, map[string]string, error) {
	if req.Template == "" {
		tf, t, err := e.adHocTask(req, ws)
		return tf, t, nil, err
	}
	return e.loadTask(ws, req.Template, req.Task, req.Vars)
}

// adHocOptions are what a one-off context adds to the options: its
// commands run in the working dir, and its exclusions are relative to it
// too.
func (e *Engine) adHocOptions(opt *contextgen.Options, req AssembleRequest) error {
	p, err := e.Project()
	if err != nil {
		return err
	}
	opt.CommandDir = p.WorkingDir()
	opt.Exclude = req.Exclude
	if rel, err := filepath.Rel(p.Dir(), p.WorkingDir()); err == nil && !strings.HasPrefix(rel, "..") {
		opt.ExcludeFrom = filepath.ToSlash(rel)
	}
	return nil
}

// list is the files the sources select, nothing read.
func (e *Engine) list(ctx context.Context, bound *template.Task, opt contextgen.Options, style string, adHoc bool, ws *warnings) (*AssembleResult, error) {
	// Nothing is counted, whatever an ancestor's options named.
	e.tokenizer = ""
	l, err := contextgen.List(ctx, bound, opt)
	if err != nil {
		return nil, err
	}
	ws.addAll(l.Warnings)
	if adHoc && len(l.Files) == 0 {
		return nil, emptyAdHoc(l.Warnings)
	}
	return &AssembleResult{Style: style, Listing: l}, nil
}

// document assembles the document, and keeps the token cache and what it
// served for the door's metadata.
func (e *Engine) document(ctx context.Context, bound *template.Task, opt contextgen.Options, req AssembleRequest, style string,
	adHoc bool, ws *warnings) (*AssembleResult, error) {
	doc, err := contextgen.Assemble(ctx, bound, opt)
	if err != nil {
		return nil, err
	}
	e.saveCaches(opt, ws)
	if opt.Counter != nil {
		e.tokenCache = &TokenCache{Hits: doc.TokensCached, Counted: doc.TokensCounted}
	}
	ws.addAll(doc.Warnings)
	if adHoc && len(doc.Files) == 0 {
		return nil, emptyAdHoc(doc.Warnings)
	}
	if req.Rendered && !req.Paths && style == "xml" {
		ws.addAll(ReplacedWarnings(doc))
	}
	return &AssembleResult{Document: doc, Style: style}, nil
}

// emptyAdHoc is the error of a one-off context (--path, --command,
// --describe, stdin) that selected no file: an empty document is nobody's
// intent, and "taskctl assemble --path does/not/exist.py" printed one and
// exited 0. The warnings say why each source came up empty.
func emptyAdHoc(ws []diag.Warning) error {
	msg := "the one-off context selected no file"
	if len(ws) > 0 {
		w := ws[0]
		msg += fmt.Sprintf(" (%s", w.Code)
		if w.Path != "" {
			msg += ": " + w.Path
		}
		if len(ws) > 1 {
			msg += fmt.Sprintf(", and %d more warning(s)", len(ws)-1)
		}
		msg += ")"
	}
	return codedErr(diag.EmptyContext, ClassError, "%s", msg)
}

// outPath is the real absolute path of the file --out writes (as typed,
// from the working dir), which the document must not hold: the path
// itself when it does not exist yet (then no source can select it).
func (e *Engine) outPath(typed string) string {
	p := e.ArgPath(typed)
	if real, err := filepath.EvalSymlinks(p); err == nil {
		return real
	}
	return p
}

// assembleOptions binds task t's inputs (from vars and the run RunID) and
// builds the options of its assembly, with what it inherits.
func (e *Engine) assembleOptions(ctx context.Context, ws *warnings, tf *template.File, t *template.Task, vars map[string]string,
	req AssembleRequest, style string) (*template.Task, contextgen.Options, error) {
	prev, err := e.preview(tf, t, req.RunID)
	if err != nil {
		return nil, contextgen.Options{}, err
	}
	bound, err := t.Bind(mergeVars(prev.vars, vars))
	if err != nil {
		return nil, contextgen.Options{}, e.bindError(err)
	}
	if req.RunID == "" {
		// A workflow step's inputs bound to earlier results have no value
		// outside a run: leave out what needs them, as a dry run does.
		for _, w := range workflow.DropPending(bound) {
			if run := e.spell(FieldRun); run != "" {
				w.Message += " (" + run + " ID takes it from a recorded run)"
			}
			ws.add(diag.Warning{Code: w.Code, Message: w.Message})
		}
	}
	// Paths lists what the sources select and the path policy admits;
	// only a budget needs the content (to count it).
	opt, err := e.contextOptions(ws, bound, style, req.Hashes, req.Paths)
	if err != nil {
		return nil, opt, err
	}
	opt.Inherited = prev.inherited
	if req.RunID == "" && (opt.Inherit == template.InheritFull || opt.Inherit == template.InheritSubset) {
		// A step inherits the own context of the workflow above it,
		// which needs no run: assemble it (paths only) as run does.
		if opt.Inherited, err = e.ancestorsContext(ctx, ws, tf, t, vars, style, req.Hashes); err != nil {
			return nil, opt, err
		}
	}
	return bound, opt, nil
}

// TokenCache is how many files' token counts came from the cache and how
// many were counted.
type TokenCache struct {
	Counted int `json:"counted"`
	Hits    int `json:"hits"`
}

// Meta returns facts about the operations so far for a front door's
// metadata: "tokenizer" (the name of the token counter used) and
// "token_cache" (a *TokenCache).
func (e *Engine) Meta() map[string]any {
	m := map[string]any{}
	if e.tokenizer != "" {
		m["tokenizer"] = e.tokenizer
	}
	if e.tokenCache != nil {
		m["token_cache"] = map[string]int{"hits": e.tokenCache.Hits, "counted": e.tokenCache.Counted}
	}
	return m
}

// ancestorsContext is what step t of tf inherits in a run: the own
// context of each sequential task above it, from the top down, each given
// what it inherits from the one above (as run assembles them before the
// steps). Only the paths are resolved; nothing is read. Sources that wait
// for an earlier step are left out, as a dry run leaves them.
func (e *Engine) ancestorsContext(ctx context.Context, ws *warnings, tf *template.File, t *template.Task, vars map[string]string, style string, hashes bool) ([]*contextgen.File, error) {
	var files []*contextgen.File
	for i, a := range Ancestors(tf, t) {
		bound, err := a.Bind(vars)
		if err != nil {
			return nil, e.bindError(err)
		}
		workflow.DropPending(bound)
		opt, err := e.contextOptions(ws, bound, style, hashes, true)
		if err != nil {
			return nil, err
		}
		if i == 0 || opt.Inherit == template.InheritNone {
			files = nil
		}
		opt.Inherited, opt.ListOnly, opt.Counter, opt.Cache = files, true, nil, nil
		doc, err := contextgen.Assemble(ctx, bound, opt)
		if err != nil {
			return nil, err
		}
		files = doc.Files
	}
	return files, nil
}

// Ancestors returns the tasks of tf from its top-level task down to t's
// parent: none for a top-level task, or one tf does not hold. It is the
// one account of a step's ancestry: assemble's inherit preview and run's
// check of a recorded run both read it.
func Ancestors(tf *template.File, t *template.Task) []*template.Task {
	if p := pathTo(tf, t); len(p) > 1 {
		return p[:len(p)-1]
	}
	return nil
}

// ListedFile is a file of --paths: what selected it, nothing read.
type ListedFile = contextgen.Listed

// ListedFiles is the files of --paths in json.
type ListedFiles struct {
	Task   string       `json:"task"`
	Files  []ListedFile `json:"files"`
	Totals struct {
		Files int `json:"files"`
	} `json:"totals"`
}

// PathList is the json data of --paths: the files without their content
// and the facts only a read gives (bytes, lines, tokens, sha256, ...).
func PathList(l *contextgen.Listing) ListedFiles {
	out := ListedFiles{Task: l.Task, Files: l.Files}
	out.Totals.Files = len(l.Files)
	return out
}

// ReplacedWarnings are the CONTENT_REPLACED warnings of a document rendered
// in the XML style: the characters XML 1.0 cannot carry that it shows as
// U+FFFD, per file. The README lists the code; the document only said
// replaced="N", and no warning told what had changed. (The json form and
// the other styles keep the content as it is.)
func ReplacedWarnings(doc *contextgen.Document) []diag.Warning {
	var ws []diag.Warning
	for _, f := range doc.Files {
		if n := f.XMLReplaced(); n > 0 && !f.Binary {
			ws = append(ws, diag.Warning{Code: diag.ContentReplaced, Path: f.Path,
				Message: fmt.Sprintf("%d character(s) XML cannot carry (control characters such as ESC or form feed, U+FFFE, U+FFFF) shown as U+FFFD", n)})
		}
	}
	return ws
}

func mergeVars(a, b map[string]string) map[string]string {
	out := make(map[string]string, len(a)+len(b))
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	return out
}
