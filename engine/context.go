package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sync"
	"time"

	"github.com/taskctl/taskctl/command"
	"github.com/taskctl/taskctl/contextgen"
	"github.com/taskctl/taskctl/contextgen/tokens"
	"github.com/taskctl/taskctl/internal/diag"
	"github.com/taskctl/taskctl/memory"
	"github.com/taskctl/taskctl/template"
)

// contextOptions builds the assembly options from the settings. listing
// asks for the paths alone: nothing is read (ListOnly), the budget does not
// apply, and the token counter and its cache are left out (the cache is
// not even opened; the tokenizer's name is still checked).
func (e *Engine) contextOptions(ws *warnings, t *template.Task, style string, hashes, listing bool) (contextgen.Options, error) {
	cfg, err := e.Settings()
	if err != nil {
		return contextgen.Options{}, err
	}
	p, err := e.Project()
	if err != nil {
		return contextgen.Options{}, err
	}
	eff := t.EffectiveContext()
	opt := contextgen.Options{
		Project: p,
		Shell: command.Limits{
			Timeout:  cfg.CommandTimeout,
			MaxBytes: cfg.CommandMaxBytes,
			MaxLines: cfg.CommandMaxLines,
		},
		Index:         func(ctx context.Context) (*memory.Index, error) { return e.openIndex(ctx, ws) },
		Inherit:       eff.Inherit,
		Fresh:         eff.Fresh == "enabled",
		FreshQuery:    freshQuery(t),
		MaxTokens:     cfg.MaxTokens,
		Style:         style,
		MaxFileBytes:  cfg.DocFileBytes,
		RedactSecrets: cfg.RedactSecrets,
		RedactHint:    e.spell(FieldRedactSecrets),
		AllowSecrets:  !cfg.ScanSecrets,
		KeepGenerated: cfg.KeepGenerated,
		Hashes:        hashes,
	}
	// The template may only narrow the budget.
	if eff.MaxTokens > 0 && (opt.MaxTokens == 0 || eff.MaxTokens < opt.MaxTokens) {
		opt.MaxTokens = eff.MaxTokens
	}
	if listing {
		// A listing shows what the sources select, whatever the budget:
		// it was read and cut to the budget when one was set, so what
		// --paths listed changed with --max-tokens.
		opt.ListOnly, opt.MaxTokens = true, 0
	}
	if cfg.Tokenizer != "none" {
		c, err := tokens.New(cfg.Tokenizer)
		if err != nil {
			return opt, UsageError("%v", err)
		}
		if !opt.ListOnly {
			opt.Counter = c
			if dir, err := p.EnsureWorkspace("cache", "tokens"); err == nil {
				opt.Cache = tokens.OpenCache(dir)
			} else {
				ws.add(diag.Warning{Code: diag.WorkspaceUnavailable, Message: fmt.Sprintf("token cache off: %v", err)})
			}
			e.tokenizer = c.Name()
		}
	} else if opt.MaxTokens > 0 {
		return opt, UsageError("a token budget needs a tokenizer (%s is none)", e.name(FieldTokenizer))
	}
	if cfg.Audit && !opt.ListOnly { // a listing reads nothing: nothing to log
		opt.Audit = e.auditor(t.Name, ws)
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

func (e *Engine) saveCaches(opt contextgen.Options, ws *warnings) {
	if opt.Cache != nil {
		if err := opt.Cache.Save(); err != nil {
			ws.add(diag.Warning{Code: diag.CacheNotSaved, Message: err.Error()})
		}
	}
	if e.audit != nil {
		e.audit.close()
	}
}

// openIndex opens the lexical index and refreshes it (built on first use).
func (e *Engine) openIndex(ctx context.Context, ws *warnings) (*memory.Index, error) {
	ix, _, err := e.index(ctx, ws, false, nil)
	return ix, err
}

// auditLog appends one JSON line per file read to .taskctl/audit.jsonl
// (config: <audit>true</audit>): when, which command, task and source.
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

func (e *Engine) auditor(task string, ws *warnings) func(path, source string) {
	p, err := e.Project()
	if err != nil {
		return nil
	}
	dir, err := p.OpenWorkspace()
	if err != nil {
		ws.add(diag.Warning{Code: diag.AuditUnavailable, Message: err.Error()})
		return nil
	}
	defer dir.Close()
	// A workspace the user made (for config.xml) has no .gitignore:
	// init's keeps the log, like the rest of taskctl's state, out of git.
	if err := dir.WriteNew(".gitignore", []byte(WorkspaceGitignore), 0o644); err != nil && !errors.Is(err, fs.ErrExist) {
		ws.add(diag.Warning{Code: diag.AuditUnavailable, Message: "write .taskctl/.gitignore: " + err.Error()})
	}
	f, err := dir.OpenAppend("audit.jsonl", 0o644)
	if err != nil {
		ws.add(diag.Warning{Code: diag.AuditUnavailable, Message: err.Error()})
		return nil
	}
	e.audit = &auditLog{f: f}
	cmd := e.opts.Command
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

// WorkspaceGitignore is the .gitignore taskctl writes in .taskctl/: its own
// state stays out of git, what the user writes there does not.
const WorkspaceGitignore = `# taskctl's own state. config.xml and tasks/ are yours to commit.
index/
runs/
cache/
audit.jsonl
`
