package engine

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/taskctl/taskctl/content/secrets"
	"github.com/taskctl/taskctl/contextgen"
	"github.com/taskctl/taskctl/internal/diag"
	"github.com/taskctl/taskctl/memory"
	"github.com/taskctl/taskctl/project"
)

// textSource is what the index is built from and what search reads a
// match's best line from: memory.ProjectSource (a memory.CachingSource and
// BufferedSource) with each file's text as contextgen.Text makes it, the
// one source of a file's decoded, redacted text (assemble's best lines read
// the same), so a reason never prints a secret that assemble would have
// kept out. It is a memory.FilteringSource: the index
// reads a file as it is, to see whether it changed, and decodes and scans
// only the files it analyses again.
type textSource struct {
	memory.CachingSource
	redact bool
}

// Walk is the project's walk without the files whose path holds a secret
// (a key ID as a file name): a name is content too, and a file the index
// never holds is a name search never prints (#21).
func (s textSource) Walk(ctx context.Context, fn func(rel string, size int64, mtime time.Time) error) error {
	return s.CachingSource.Walk(ctx, s.names(fn))
}

// Head and Log pass on the project's commit history, which the index
// learns term associations from (memory.HistorySource); their messages
// go through Filter too.
func (s textSource) Head() (string, error) {
	if h, ok := s.CachingSource.(memory.HistorySource); ok {
		return h.Head()
	}
	return "", nil
}

func (s textSource) Log(ctx context.Context, head, since string, fn func(memory.LogCommit) (bool, error)) (bool, error) {
	if h, ok := s.CachingSource.(memory.HistorySource); ok {
		return h.Log(ctx, head, since, fn)
	}
	return false, nil
}

// WalkCached is Walk given an earlier walk's state.
func (s textSource) WalkCached(ctx context.Context, prev []byte, fn func(rel string, size int64, mtime time.Time) error) ([]byte, error) {
	return s.CachingSource.WalkCached(ctx, prev, s.names(fn))
}

// names wraps fn to pass over paths holding a secret, when secrets are
// scanned.
func (s textSource) names(fn func(string, int64, time.Time) error) func(string, int64, time.Time) error {
	if !s.redact {
		return fn
	}
	return func(rel string, size int64, mtime time.Time) error {
		if contextgen.NameHoldsSecret(rel) {
			return nil
		}
		return fn(rel, size, mtime)
	}
}

func (s textSource) ReadFileInto(rel string, size int64, buf []byte) ([]byte, error) {
	if b, ok := s.CachingSource.(memory.BufferedSource); ok {
		return b.ReadFileInto(rel, size, buf)
	}
	return s.CachingSource.ReadFile(rel)
}

func (s textSource) Filter(data []byte) []byte {
	text, _ := contextgen.Text(data, s.redact)
	return text
}

// FilterID changes with what Filter does, and with the set of secret
// rules: an index built before a rule was added is scanned again.
func (s textSource) FilterID() string {
	if !s.redact {
		return "text"
	}
	return "text, redact-secrets " + strings.Join(secrets.Rules(), ",")
}

// indexNoRefresh opens the index without refreshing it; an index that was
// never built is built.
func (e *Engine) indexNoRefresh(ws *warnings) (*memory.Index, error) {
	p, err := e.Project()
	if err != nil {
		return nil, err
	}
	ix, warns, err := memory.Open(filepath.Join(p.Workspace(), "index"))
	if err != nil || ix.Len() == 0 || len(warns) > 0 {
		ix, _, err = e.index(context.Background(), ws, false, nil)
		return ix, err
	}
	return ix, nil
}

// index opens the project's index and refreshes it (rebuilds it, with
// rebuild), once per Engine. With no progress callback it reports to
// Options.Progress, so that the first build behind search, assemble or a
// workflow step is not a silent wait on a terminal. A project whose
// workspace cannot be written is indexed in memory, with a warning, unless
// the operation is the index itself.
func (e *Engine) index(ctx context.Context, ws *warnings, rebuild bool, progress func(done, total int)) (*memory.Index, memory.Stats, error) {
	return e.indexOrStats(ctx, ws, rebuild, false, progress)
}

// indexOrStats is Index; with stOnly, when a watcher brought the index up
// to date, it returns the index's stats without opening it (nil).
func (e *Engine) indexOrStats(ctx context.Context, ws *warnings, rebuild, stOnly bool, progress func(done, total int)) (*memory.Index, memory.Stats, error) {
	if e.ix != nil && !rebuild {
		return e.ix, memory.Stats{}, nil
	}
	if progress == nil {
		progress = e.opts.Progress
	}
	p, err := e.Project()
	if err != nil {
		return nil, memory.Stats{}, err
	}
	// A project whose workspace cannot be written (read-only, another
	// user's) is still searched: its index is built in memory, with a
	// warning. 'taskctl index', whose job is the index on disk, fails.
	inMemory := func(err error) bool {
		if e.opts.Command == "index" || !errors.Is(err, fs.ErrPermission) && !errors.Is(err, syscall.EROFS) {
			return false
		}
		ws.add(diag.Warning{Code: diag.IndexNotSaved, Path: p.Workspace(),
			Message: fmt.Sprintf("the index cannot be kept (%v): built in memory for this command", err)})
		return true
	}
	dir, err := p.EnsureWorkspace("index")
	if err != nil {
		if !inMemory(err) {
			return nil, memory.Stats{}, fmt.Errorf("index: %w", err)
		}
		dir = ""
	}
	src := e.indexSource(p)
	// A watcher (index --watch) brings the index up to date without a
	// walk of the project.
	if dir != "" && !rebuild {
		if st, ok := e.syncWatcher(ctx, ws, p, dir, src.FilterID()); ok {
			var ix *memory.Index
			if !stOnly {
				var warns []diag.Warning
				ix, warns, err = memory.Open(dir)
				if err != nil || len(warns) > 0 || ix.Len() != st.Files {
					ix = nil // replaced or damaged since: refresh as usual
				}
			}
			if stOnly || ix != nil {
				ws.addAll(st.Warnings)
				e.ix, e.watched = ix, true
				return ix, st, nil
			}
		}
	}
	// memory.Update reads the index while the project is walked.
	ix, st, err := memory.Update(ctx, dir, src, rebuild, progress)
	if err != nil && dir != "" && inMemory(err) {
		ix, st, err = memory.Update(ctx, "", e.indexSource(p), rebuild, progress)
	}
	if err != nil {
		return nil, st, fmt.Errorf("index: %w", err)
	}
	ws.addAll(st.Warnings)
	e.ix = ix
	return ix, st, nil
}

// indexSource is what the index is built from: the project's files through
// memory.ProjectSource (the project's walker, walk cache and reader, so the
// index sees exactly the files the policy allows), decoded as assemble
// decodes them (UTF-16 and the rest) and with the secrets the scanner finds
// redacted (as search's best lines are) unless the configuration turns the
// secret scan off, so that .taskctl/index never holds a secret as a term.
// The index hashes a file as read and filters only what it analyses
// (memory.FilteringSource), and it records the filter: turning the scan on
// or off analyses every file again.
func (e *Engine) indexSource(p *project.Project) textSource {
	cfg, err := e.Settings()
	return textSource{memory.ProjectSource(p), err != nil || cfg.ScanSecrets}
}

// AbsRel turns a slash-separated path relative to the project dir into an
// absolute one.
func AbsRel(p *project.Project, rel string) string {
	return filepath.Join(p.Dir(), filepath.FromSlash(rel))
}

// ScopeGlobs turns --include or --exclude globs into globs on slash paths
// relative to the project dir. As everywhere on the command line, a glob
// that starts with ./ or ../ is relative to the working dir and an absolute
// one is itself; any other glob is relative to the project dir. A malformed
// glob, or one outside the project, is a usage error.
func (e *Engine) ScopeGlobs(flag string, globs []string) ([]string, error) {
	if len(globs) == 0 {
		return nil, nil
	}
	p, err := e.Project()
	if err != nil {
		return nil, err
	}
	root := p.Dir()
	if r, err := filepath.EvalSymlinks(root); err == nil {
		root = r
	}
	out := make([]string, 0, len(globs))
	for _, g := range globs {
		local := filepath.ToSlash(g)
		if filepath.IsAbs(g) || local == "." || local == ".." || strings.HasPrefix(local, "./") || strings.HasPrefix(local, "../") {
			abs := g
			if !filepath.IsAbs(g) {
				wd := e.workingDir
				if w, err := filepath.EvalSymlinks(wd); err == nil {
					wd = w
				}
				abs = filepath.Join(wd, g)
			}
			rel, err := filepath.Rel(root, abs)
			if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
				return nil, UsageError("--%s %q: outside the project dir %s", flag, g, p.Dir())
			}
			local = filepath.ToSlash(rel)
			if local == "." {
				local = "**"
			} else if !strings.ContainsAny(local, "*?[{") && isProjectDir(p, abs) {
				// ./src names the directory: what it holds (a path
				// never equals it, so it matched nothing).
				local += "/**"
			}
		}
		local = dirGlob(local)
		if !doublestar.ValidatePattern(local) {
			return nil, UsageError("--%s %q: not a valid glob", flag, g)
		}
		out = append(out, local)
	}
	return out, nil
}

// isProjectDir reports whether abs is a directory of the project, judged
// by its root as every path is: a link out of the project is none, and
// what lies outside is not looked at.
func isProjectDir(p *project.Project, abs string) bool {
	_, w := p.ResolveFrom(filepath.Dir(abs), abs)
	return w != nil && w.Code == diag.PathIsDir
}

// dirGlob turns a glob ending in / ("src/", the way a directory is named)
// into one for what the directory holds ("src/**"): file paths never end in
// /, so it matched nothing.
func dirGlob(g string) string {
	if t := strings.TrimRight(g, "/"); t != "" && t != g {
		return t + "/**"
	}
	return g
}

// IndexResult is what 'taskctl index' reports: the index's size and the
// time the refresh took; with stats, what it re-read, reused, removed and
// skipped; Watched when a watcher (index --watch) brought it up to date.
type IndexResult struct {
	Bytes      int64  `json:"bytes"`
	DurationMS int64  `json:"duration_ms"`
	Files      int    `json:"files"`
	IndexBytes *int64 `json:"index_bytes,omitempty"`
	Removed    *int   `json:"removed,omitempty"`
	Reread     *int   `json:"reread,omitempty"`
	Reused     *int   `json:"reused,omitempty"`
	Skipped    *int   `json:"skipped,omitempty"`
	Terms      int    `json:"terms"`
	Watched    bool   `json:"watched,omitempty"`

	// Stats are the refresh's own figures.
	Stats memory.Stats `json:"-"`
	Report
}

// IndexRequest asks for a refresh of the index on disk.
type IndexRequest struct {
	Rebuild bool // discard the index and build it from scratch
	Stats   bool // report what was re-read, reused, removed and skipped
}

// RefreshIndex builds or refreshes the index under .taskctl/index/; a
// workspace that cannot be written is an error here.
func (e *Engine) RefreshIndex(ctx context.Context, req IndexRequest) (*IndexResult, error) {
	var ws warnings
	_, st, err := e.indexOrStats(ctx, &ws, req.Rebuild, true, e.opts.Progress)
	if err != nil {
		return nil, withWarnings(err, ws)
	}
	res := &IndexResult{Bytes: st.Bytes, DurationMS: st.Duration.Milliseconds(), Files: st.Files,
		Terms: st.Terms, Watched: e.watched, Stats: st}
	if req.Stats {
		res.IndexBytes, res.Removed, res.Reread = &st.IndexBytes, &st.Removed, &st.Reread
		res.Reused, res.Skipped = &st.Reused, &st.Skipped
	}
	res.Warnings = ws
	return res, nil
}
