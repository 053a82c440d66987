package sources

import (
	"context"
	"errors"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/taskctl/taskctl/command"
	"github.com/taskctl/taskctl/content/secrets"
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

// Options say how a task's sources are resolved. Project is required;
// everything else is optional.
type Options struct {
	Project *project.Project
	// Shell bounds each <command> (a source's command_timeout may only
	// narrow it); CommandDir is the directory commands run in ("": the
	// project dir, as for a template's, DESIGN §2).
	Shell      command.Limits
	CommandDir string

	// Index opens the lexical index; it is called at most once, and only
	// when the task needs it (a description source, fresh context, or
	// subset inheritance).
	Index func(ctx context.Context) (*memory.Index, error)

	// Inherited is the parent's context (workflows); Inherit, Fresh and
	// FreshQuery come from the task's effective context management.
	Inherited  []Parent
	Inherit    template.InheritMode
	Fresh      bool
	FreshQuery string

	// AllowSecrets keeps a file whose path holds a secret, and shows the
	// secrets of a match's best line.
	AllowSecrets bool
	// KeepGenerated keeps lock files, minified bundles and source maps
	// that a glob, a command or a description selects (PATH_GENERATED
	// otherwise); named literally, they are always kept.
	KeepGenerated bool
	// Exclude drops the files whose path matches one of its globs, from
	// every source, without a warning (see Excluded, with ExcludeFrom).
	Exclude     []string
	ExcludeFrom string
	// OutPath is the absolute path of the file the document is written
	// to: never a candidate (CONTEXT_DOCUMENT).
	OutPath string
}

// A Parent is a file of the parent's context that a step inherits.
type Parent struct {
	Path string // absolute
	Rel  string // slash-separated, relative to the project dir
}

// A Candidate is a resolved path waiting to be read: the resolver's record
// (which points into the list a source resolved: a glob's may hold every
// file of a tree), what selected it and how much of it a source asked for.
type Candidate struct {
	*project.Candidate
	Source template.SourceKind
	Score  *float64
	Reason *memory.Reason // why a description, fresh or subset match was chosen
	Read   ReadOptions
}

// ReadOptions are a <path>'s skip_lines, max_lines and max_bytes.
type ReadOptions struct {
	SkipLines, MaxLines int
	MaxBytes            int64
}

// Resolved is what a task's sources select, in merge order, and what
// resolving them said.
type Resolved struct {
	Candidates []Candidate
	Warnings   []diag.Warning
	// NotFiles are the paths of command output lines that name no file
	// (PATH_NOT_FOUND): a document's list of files left out skips them.
	NotFiles map[string]bool
}

// Resolve resolves every source of t (bound: template.Task.Bind) in merge
// order. The error is non-nil only when the whole resolution stops (no
// project, a cancelled context); everything else is a warning.
func Resolve(ctx context.Context, t *template.Task, opt Options) (*Resolved, error) {
	if opt.Project == nil {
		return nil, errors.New("contextgen: no project")
	}
	r := &resolver{ctx: ctx, t: t, opt: opt}
	r.collect()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return &Resolved{Candidates: r.candidates, Warnings: r.warnings, NotFiles: r.notFiles}, nil
}

// resolver resolves the sources of one task.
type resolver struct {
	ctx        context.Context
	t          *template.Task
	opt        Options
	seen       map[string]bool // the candidates' paths, made by add (see addExpanded)
	candidates []Candidate
	warnings   []diag.Warning

	indexOnce sync.Once
	index     *memory.Index
	indexErr  error

	notFiles map[string]bool
}

func (r *resolver) warn(w diag.Warning) { r.warnings = append(r.warnings, w) }

// add appends c unless a candidate of the same path is there already.
func (r *resolver) add(c Candidate) {
	if r.seen == nil {
		r.seen = make(map[string]bool, len(r.candidates)+1)
		for _, o := range r.candidates {
			r.seen[o.Path] = true
		}
	}
	if r.seen[c.Path] {
		return
	}
	r.seen[c.Path] = true
	if r.leftOut(c) {
		return
	}
	r.candidates = append(r.candidates, c)
}

// leftOut reports (and warns of) a candidate left out by its path alone:
// a name that holds a secret, the file the document is written to, or a
// generated file a glob, command or description selected.
func (r *resolver) leftOut(c Candidate) bool {
	if len(r.opt.Exclude) > 0 && Excluded(c.Rel, r.opt.Exclude, r.opt.ExcludeFrom) {
		return true
	}
	if r.secretName(c) {
		return true
	}
	if r.opt.OutPath != "" && c.Path == r.opt.OutPath {
		r.warn(diag.Warning{Code: diag.ContextDocument, Path: c.Path,
			Message: "the file this document is being written to: left out"})
		return true
	}
	if !r.opt.KeepGenerated && !c.NamedLiterally() && project.Generated(c.Rel) {
		r.warn(diag.Warning{Code: diag.PathGenerated, Path: c.Path,
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

// NamedLiterally reports whether c is a file its literal source named, not
// one a glob or a directory walk found: its spec has no glob character
// and ends in the file's own name.
func (c Candidate) NamedLiterally() bool {
	if c.Source != template.SourceLiteral || strings.ContainsAny(c.Spec, "*?[{") {
		return false
	}
	return path.Base(filepath.ToSlash(c.Spec)) == path.Base(c.Rel)
}

// secretName leaves c out, with SECRET_DETECTED and its path redacted, when
// its path holds a secret (a key ID as a file name), unless secrets are
// allowed: a name is content too.
func (r *resolver) secretName(c Candidate) bool {
	if r.opt.AllowSecrets || !NameHoldsSecret(c.Rel) {
		return false
	}
	r.warn(diag.Warning{Code: diag.SecretDetected, Path: secrets.RedactText(c.Path),
		Message: "its path holds a secret: file left out"})
	return true
}

// addExpanded adds the candidates of one Expand call. The first source's
// are taken as they are, without the index of paths add keeps: Expand
// yields each real path once, and a task of one glob over a whole tree
// would otherwise fill a map with every path only to find no repeat. add
// makes the index, from what was taken, when a second source comes.
func (r *resolver) addExpanded(cands []project.Candidate, ro ReadOptions) {
	r.candidates = slices.Grow(r.candidates, len(cands))
	if len(r.candidates) == 0 && r.seen == nil {
		for i := range cands {
			if cd := (Candidate{Candidate: &cands[i], Source: template.SourceLiteral, Read: ro}); !r.leftOut(cd) {
				r.candidates = append(r.candidates, cd)
			}
		}
		return
	}
	for i := range cands {
		r.add(Candidate{Candidate: &cands[i], Source: template.SourceLiteral, Read: ro})
	}
}

var sourceRank = map[template.SourceKind]int{template.SourceLiteral: 0, template.SourceCommand: 1, template.SourceDescription: 2}

// collect resolves every source in merge order.
func (r *resolver) collect() {
	srcs := append([]template.FileSource(nil), r.t.Sources...)
	sort.SliceStable(srcs, func(i, j int) bool { return sourceRank[srcs[i].Kind] < sourceRank[srcs[j].Kind] })
	for i := range srcs {
		if r.ctx.Err() != nil {
			return
		}
		switch s := &srcs[i]; s.Kind {
		case template.SourceCommand:
			r.command(s)
		case template.SourceDescription:
			r.description(s)
		default:
			r.literal(s)
		}
	}
	r.inherited()
	if r.opt.Fresh {
		r.fresh()
	}
}

// NameHoldsSecret reports whether the scanner finds a secret in a path (a
// key ID used as a file or directory name): such a name is content, kept
// out of documents, listings and the index like the secret it holds.
func NameHoldsSecret(rel string) bool {
	return secrets.HasKeyword(rel) && len(secrets.Scan([]byte(rel))) > 0
}

func short(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
