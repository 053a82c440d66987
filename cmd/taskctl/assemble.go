package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sync"
	"time"

	"github.com/spf13/pflag"
	"golang.org/x/term"

	"github.com/taskctl/taskctl/contextgen"
	"github.com/taskctl/taskctl/contextgen/tokens"
	"github.com/taskctl/taskctl/internal/diag"
	"github.com/taskctl/taskctl/memory"
	"github.com/taskctl/taskctl/template"
	"github.com/taskctl/taskctl/workflow"
)

func assembleFlags(fs *pflag.FlagSet, o *opts) {
	fs.StringVar(&o.task, "task", "", "assemble the task (or workflow step) named `NAME`")
	fs.StringArrayVar(&o.vars, "var", nil, "set input `KEY=VALUE` (repeatable, once per KEY)")
	fs.StringVar(&o.style, "style", "xml", "document style: xml, markdown or plain")
	fs.BoolVar(&o.paths, "paths", false, "print only the absolute paths, one per line")
	fs.BoolVar(&o.strict, "strict", false, "fail (exit 3) on any warning")
	fs.IntVar(&o.maxFiles, "max-files", 0, "per-source file cap for this run (default 1000)")
	fs.IntVar(&o.maxTokens, "max-tokens", 0, "token budget for the whole document, markup included: leave out whole files that do not fit")
	fs.Int64Var(&o.maxFileBytes, "max-file-bytes", 0, "cut each file's content at `N` bytes, with a marker")
	fs.StringVar(&o.tokenizer, "tokenizer", "o200k_base", "count tokens with o200k_base, cl100k_base or none")
	fs.BoolVar(&o.redactSecrets, "redact-secrets", false, "replace detected secrets instead of leaving the file out")
	fs.StringVar(&o.runID, "run", "", "bind inputs from the outputs recorded in run `ID` (workflows)")
}

func assembleCmd() *command {
	return &command{
		name:  "assemble",
		usage: "FILE|TASKNAME [--task NAME] [--var K=V]... [--style xml|markdown|plain] [--paths] [--strict]",
		short: "resolve a task's file sources and print its context document",
		long: `Resolves the task's literal paths and globs, command sources and description
sources, reads each file through the path resolver, and prints the context
document. Paths are absolute. Files that were considered and left out are
reported as warnings with a stable code. A TASKNAME is looked up in
<project>/.taskctl/tasks/*.xml.`,
		examples: []string{
			"taskctl assemble review.xml",
			"taskctl assemble review --var area=src/api --style markdown",
			"taskctl assemble review.xml --paths",
			"taskctl assemble review.xml --max-tokens 50000 --output json",
			"taskctl assemble flow.xml --task plan --run 20261122-104500-ab12",
		},
		flags: assembleFlags,
		run:   runAssemble,
	}
}

func runAssemble(ctx context.Context, e *env, args []string) (any, error) {
	if len(args) != 1 {
		return nil, usageErr("assemble needs exactly one FILE or TASKNAME")
	}
	switch e.opts.style {
	case "xml", "markdown", "plain":
	default:
		return nil, usageErr("--style must be xml, markdown or plain, not %q", e.opts.style)
	}
	if e.flags.Changed("max-files") && e.opts.maxFiles == 0 {
		// As <max_files> in config: a cap of none would keep no file, and
		// 0 fell back to the default 1000 without a word, over a smaller
		// configured cap.
		return nil, usageErr("--max-files must be positive, not 0")
	}
	tf, t, vars, err := e.loadTask(args[0])
	if err != nil {
		return nil, err
	}
	cfg, err := e.config()
	if err != nil {
		return nil, err
	}
	if e.opts.style == "xml" && !e.flags.Changed("style") {
		e.opts.style = cfg.Style
	}
	prev, err := e.preview(ctx, tf, t, vars)
	if err != nil {
		return nil, err
	}
	bound, err := t.Bind(mergeVars(prev.vars, vars))
	if err != nil {
		return nil, usageErr("%v", err)
	}
	if e.opts.runID == "" {
		// A workflow step's inputs bound to earlier results have no value
		// outside a run: leave out what needs them, as a dry run does.
		for _, w := range workflow.DropPending(bound) {
			e.warn(diag.Warning{Code: w.Code, Message: w.Message + " (--run ID takes it from a recorded run)"})
		}
	}
	opt, err := e.contextOptions(bound)
	if err != nil {
		return nil, err
	}
	opt.Inherited = prev.inherited
	if e.opts.runID == "" && (opt.Inherit == template.InheritFull || opt.Inherit == template.InheritSubset) {
		// A step inherits the own context of the workflow above it,
		// which needs no run: assemble it (paths only) as run does.
		if opt.Inherited, err = e.ancestorsContext(ctx, tf, t, vars); err != nil {
			return nil, err
		}
	}
	// --paths lists what the sources select and the path policy admits;
	// only a budget needs the content (to count it).
	opt.ListOnly = e.opts.paths && opt.MaxTokens == 0
	if opt.ListOnly {
		opt.Counter, opt.Cache = nil, nil
		delete(e.meta, "tokenizer")
	}
	doc, err := contextgen.Assemble(ctx, bound, opt)
	if err != nil {
		return nil, err
	}
	e.saveCaches(opt)
	if opt.Counter != nil {
		e.meta["token_cache"] = map[string]int{"hits": doc.TokensCached, "counted": doc.TokensCounted}
	}
	for _, w := range doc.Warnings {
		e.warn(w)
	}
	if !e.json() && !e.opts.paths && e.opts.style == "xml" {
		for _, w := range replacedWarnings(doc) {
			e.warn(w)
		}
	}
	if err := e.strictCheck(); err != nil {
		return nil, err
	}
	if !e.json() {
		if e.opts.paths {
			for _, f := range doc.Files {
				fmt.Fprintln(e.stdout, f.Path)
			}
		} else if err := doc.Render(e.stdout, e.opts.style); err != nil {
			return nil, err
		}
		e.summary(doc, opt.ListOnly)
	}
	if e.opts.paths {
		return pathList(doc), nil
	}
	return doc, nil
}

// ancestorsContext is what step t of tf inherits in a run: the own
// context of each sequential task above it, from the top down, each given
// what it inherits from the one above (as run assembles them before the
// steps). Only the paths are resolved; nothing is read. Sources that wait
// for an earlier step are left out, as a dry run leaves them.
func (e *env) ancestorsContext(ctx context.Context, tf *template.File, t *template.Task, vars map[string]string) ([]*contextgen.File, error) {
	var files []*contextgen.File
	for i, a := range ancestors(tf, t) {
		bound, err := a.Bind(vars)
		if err != nil {
			return nil, usageErr("%v", err)
		}
		workflow.DropPending(bound)
		opt, err := e.contextOptions(bound)
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

// ancestors returns the tasks of tf from its top-level task down to t's
// parent: none for a top-level task, or one tf does not hold.
func ancestors(tf *template.File, t *template.Task) []*template.Task {
	if p := pathTo(tf, t); len(p) > 1 {
		return p[:len(p)-1]
	}
	return nil
}

// listedFile is a file of --paths in json: what selected it, nothing read.
type listedFile struct {
	Path   string              `json:"path"`
	Rel    string              `json:"rel_path"`
	Source template.SourceKind `json:"source"`
	Score  *float64            `json:"score,omitempty"`
	Reason *memory.Reason      `json:"reason,omitempty"`
}

type listedFiles struct {
	Task   string       `json:"task"`
	Files  []listedFile `json:"files"`
	Totals struct {
		Files int `json:"files"`
	} `json:"totals"`
}

// pathList is the json data of --paths: the files without their content
// and the facts only a read gives (bytes, lines, tokens, sha256, ...).
func pathList(doc *contextgen.Document) listedFiles {
	out := listedFiles{Task: doc.Task, Files: []listedFile{}}
	for _, f := range doc.Files {
		out.Files = append(out.Files, listedFile{Path: f.Path, Rel: f.Rel, Source: f.Source, Score: f.Score, Reason: f.Reason})
	}
	out.Totals.Files = len(out.Files)
	return out
}

// replacedWarnings are the CONTENT_REPLACED warnings of a document rendered
// in the XML style: the characters XML 1.0 cannot carry that it shows as
// U+FFFD, per file. The README lists the code; the document only said
// replaced="N", and no warning told what had changed. (The json form and
// the other styles keep the content as it is.)
func replacedWarnings(doc *contextgen.Document) []diag.Warning {
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

// contextOptions builds the assembly options from the settings.
func (e *env) contextOptions(t *template.Task) (contextgen.Options, error) {
	cfg, err := e.config()
	if err != nil {
		return contextgen.Options{}, err
	}
	p, err := e.project()
	if err != nil {
		return contextgen.Options{}, err
	}
	eff := t.EffectiveContext()
	opt := contextgen.Options{
		Project: p,
		Shell: contextgen.ShellLimits{
			Timeout:  cfg.CommandTimeout,
			MaxBytes: cfg.CommandMaxBytes,
			MaxLines: cfg.CommandMaxLines,
		},
		Index:         e.openIndex,
		Inherit:       eff.Inherit,
		Fresh:         eff.Fresh == "enabled",
		FreshQuery:    freshQuery(t),
		MaxTokens:     cfg.MaxTokens,
		Style:         e.opts.style,
		MaxFileBytes:  cfg.DocFileBytes,
		RedactSecrets: cfg.RedactSecrets,
		AllowSecrets:  !cfg.ScanSecrets,
		Hashes:        e.json(), // the envelope's files carry sha256
	}
	// The template may only narrow the budget.
	if eff.MaxTokens > 0 && (opt.MaxTokens == 0 || eff.MaxTokens < opt.MaxTokens) {
		opt.MaxTokens = eff.MaxTokens
	}
	if cfg.Tokenizer != "none" {
		c, err := tokens.New(cfg.Tokenizer)
		if err != nil {
			return opt, usageErr("%v", err)
		}
		opt.Counter = c
		if dir, err := p.EnsureWorkspace("cache", "tokens"); err == nil {
			opt.Cache = tokens.OpenCache(dir)
		} else {
			e.warn(diag.Warning{Code: diag.WorkspaceUnavailable, Message: fmt.Sprintf("token cache off: %v", err)})
		}
		if e.meta == nil {
			e.meta = map[string]any{}
		}
		e.meta["tokenizer"] = c.Name()
	} else if opt.MaxTokens > 0 {
		return opt, usageErr("a token budget needs a tokenizer (not --tokenizer none)")
	}
	if cfg.Audit {
		opt.Audit = e.auditor(t.Name)
	}
	return opt, nil
}

// freshQuery is the task's description plus the values of inputs marked
// relevant.
func freshQuery(t *template.Task) string {
	q := t.Description
	vals := t.Vars()
	for _, in := range t.Inputs {
		if in.Relevant && vals[in.Name] != "" {
			q += "\n" + vals[in.Name]
		}
	}
	return q
}

func (e *env) saveCaches(opt contextgen.Options) {
	if opt.Cache != nil {
		if err := opt.Cache.Save(); err != nil {
			e.warn(diag.Warning{Code: diag.CacheNotSaved, Message: err.Error()})
		}
	}
	if e.audit != nil {
		e.audit.close()
	}
}

// openIndex opens the lexical index and refreshes it (built on first use).
func (e *env) openIndex(ctx context.Context) (*memory.Index, error) {
	ix, _, err := e.index(ctx, false, nil)
	return ix, err
}

// summary prints one line on stderr after assemble when stderr is a terminal.
// With listOnly (--paths) nothing was read, so it gives no bytes or tokens.
func (e *env) summary(doc *contextgen.Document, listOnly bool) {
	f, ok := e.stderr.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return
	}
	var msg string
	if listOnly {
		msg = fmt.Sprintf("%s (content not read)", count(doc.Totals.Files, "path"))
	} else {
		msg = fmt.Sprintf("%s, %s", count(doc.Totals.Files, "file"), count(int(doc.Totals.Bytes), "byte"))
		if doc.Totals.Tokens != nil {
			msg += fmt.Sprintf(", %s (%s)", count(*doc.Totals.Tokens, "token"), doc.Tokenizer)
		}
	}
	msg += fmt.Sprintf(", %s, %s", count(len(e.warnings), "warning"), time.Since(e.start).Round(time.Millisecond))
	if e.color() {
		msg = "\x1b[2m" + msg + "\x1b[0m"
	}
	fmt.Fprintln(e.stderr, msg)
}

// count writes n and noun, plural unless n is 1.
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// color reports whether stderr may be colored: a terminal, and NO_COLOR unset.
func (e *env) color() bool {
	if e.getenv("NO_COLOR") != "" || e.getenv("TERM") == "dumb" {
		return false
	}
	f, ok := e.stderr.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// auditLog appends one JSON line per file read to .taskctl/audit.jsonl.
type auditLog struct {
	mu sync.Mutex
	f  *os.File
}

func (a *auditLog) close() {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.f != nil {
		a.f.Close()
		a.f = nil
	}
}

func (e *env) auditor(task string) func(path, source string) {
	p, err := e.project()
	if err != nil {
		return nil
	}
	dir, err := p.OpenWorkspace()
	if err != nil {
		e.warn(diag.Warning{Code: diag.AuditUnavailable, Message: err.Error()})
		return nil
	}
	defer dir.Close()
	// A workspace the user made (for config.xml) has no .gitignore:
	// init's keeps the log, like the rest of taskctl's state, out of git.
	if err := dir.WriteNew(".gitignore", []byte(initGitignore), 0o644); err != nil && !errors.Is(err, fs.ErrExist) {
		e.warn(diag.Warning{Code: diag.AuditUnavailable, Message: "write .taskctl/.gitignore: " + err.Error()})
	}
	f, err := dir.OpenAppend("audit.jsonl", 0o644)
	if err != nil {
		e.warn(diag.Warning{Code: diag.AuditUnavailable, Message: err.Error()})
		return nil
	}
	e.audit = &auditLog{f: f}
	cmd := e.cmd.name
	return func(path, source string) {
		line, _ := json.Marshal(map[string]string{
			"time": time.Now().UTC().Format(time.RFC3339Nano), "command": cmd,
			"task": task, "source": source, "path": path,
		})
		e.audit.mu.Lock()
		defer e.audit.mu.Unlock()
		if e.audit.f != nil {
			e.audit.f.Write(append(line, '\n'))
		}
	}
}
