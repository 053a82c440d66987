package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/spf13/pflag"
	"golang.org/x/term"

	"github.com/taskctl/taskctl/internal/diag"
	"github.com/taskctl/taskctl/memory"
	"github.com/taskctl/taskctl/project"
)

func searchCmd() *command {
	return &command{
		name:  "search",
		usage: `"TEXT" [--limit N] [--include GLOB]... [--exclude GLOB]... [--explain]`,
		short: "rank the project's files by relevance to a description",
		long: `Ranks the project's text files against TEXT — a phrase ("Python files related
to authentication") or a whole bug report — with a field-weighted BM25 over
paths, file names, identifiers and content. File-type words ("Go", "tests",
"docs") and path scopes ("in src/api", "under cmd/") narrow or boost the
ranking. The index under .taskctl/index/ is built on first use and refreshed
incrementally.`,
		examples: []string{
			`taskctl search "authentication middleware"`,
			`taskctl search "retry budget" --no-refresh   # many queries in a row: run 'taskctl index' first`,
			`taskctl search "flaky retry in the http client" --include 'pkg/**' --limit 5`,
			`taskctl search "$(cat bug-report.txt)" --explain`,
			`taskctl search "config loading" --output json`,
		},
		flags: func(fs *pflag.FlagSet, o *opts) {
			fs.IntVarP(&o.limit, "limit", "n", 10, "show at most `N` matches")
			fs.Float64Var(&o.minScore, "min-score", 0, "drop matches scoring below `S` (0..1)")
			fs.StringArrayVar(&o.include, "include", nil, "only rel paths matching `GLOB` (repeatable)")
			fs.StringArrayVar(&o.exclude, "exclude", nil, "skip rel paths matching `GLOB` (repeatable)")
			fs.BoolVar(&o.explain, "explain", false, "show matched terms per field and the best line")
			fs.BoolVar(&o.noRefresh, "no-refresh", false, "search the index as it is, without checking files for changes")
			fs.BoolVar(&o.strict, "strict", false, "fail (exit 3) on any warning")
		},
		run: func(ctx context.Context, e *env, args []string) (any, error) {
			if len(args) != 1 || strings.TrimSpace(args[0]) == "" {
				return nil, usageErr(`search needs exactly one non-empty "TEXT" (quote it)`)
			}
			if e.opts.limit <= 0 {
				return nil, usageErr("--limit must be positive")
			}
			if !(e.opts.minScore >= 0 && e.opts.minScore <= 1) { // NaN compares false
				return nil, usageErr("--min-score must be between 0 and 1")
			}
			include, err := e.scopeGlobs("include", e.opts.include)
			if err != nil {
				return nil, err
			}
			exclude, err := e.scopeGlobs("exclude", e.opts.exclude)
			if err != nil {
				return nil, err
			}
			var ix *memory.Index
			if e.opts.noRefresh {
				ix, err = e.openIndexOnly()
			} else {
				ix, _, err = e.index(ctx, false, nil)
			}
			if err != nil {
				return nil, err
			}
			p, _ := e.project()
			matches := ix.Search(args[0], memory.SearchOptions{
				Limit: e.opts.limit, MinScore: e.opts.minScore,
				Include: include, Exclude: exclude, Explain: e.opts.explain,
				Source: e.lineSource(p),
			})
			type match struct {
				Path   string        `json:"path"`
				Score  float64       `json:"score"`
				Reason memory.Reason `json:"reason"`
			}
			out := []match{}
			for _, m := range matches {
				out = append(out, match{Path: absRel(p, m.Rel), Score: m.Score, Reason: m.Reason})
			}
			if err := e.strictCheck(); err != nil {
				return nil, err
			}
			if !e.json() {
				for _, m := range matches {
					fmt.Fprintf(e.stdout, "%.4f  %s\n", m.Score, absRel(p, m.Rel))
					if e.opts.explain {
						writeExplain(e.stdout, m.Reason)
					} else if s := m.Reason.String(); s != "" {
						fmt.Fprintf(e.stdout, "        %s\n", s)
					}
				}
				if len(matches) == 0 {
					fmt.Fprintln(e.stderr, "taskctl: no file matches")
				}
			}
			return map[string]any{"query": args[0], "matches": out}, nil
		},
	}
}

func indexCmd() *command {
	return &command{
		name:  "index",
		usage: "[--rebuild] [--stats] [--watch]",
		short: "build or refresh the lexical index under .taskctl/index/",
		long: `Builds the index on first use and refreshes it incrementally afterwards:
unchanged files are not re-read, deleted files leave, renamed files move.
--rebuild starts from scratch. Reports files, terms, bytes and time.

--watch (Linux) then stays running: it follows changes through inotify,
keeps the index current, and answers the refresh that index, search and
assemble make before reading it, so that these no longer stat every file
of the project. Stop it with Ctrl-C.`,
		examples: []string{"taskctl index", "taskctl index --rebuild --stats --output json", "taskctl index --watch &"},
		flags: func(fs *pflag.FlagSet, o *opts) {
			fs.BoolVar(&o.rebuild, "rebuild", false, "discard the index and build it from scratch")
			fs.BoolVar(&o.stats, "stats", false, "also report what was re-read, reused, removed and skipped")
			fs.BoolVar(&o.watch, "watch", false, "keep the index current until interrupted, answering other commands' refreshes")
		},
		run: func(ctx context.Context, e *env, args []string) (any, error) {
			if len(args) > 0 {
				return nil, usageErr("index takes no arguments")
			}
			if e.opts.watch {
				return e.watchIndex(ctx)
			}
			_, st, err := e.indexOrStats(ctx, e.opts.rebuild, true, e.progress())
			if err != nil {
				return nil, err
			}
			data := map[string]any{
				"files": st.Files, "terms": st.Terms, "bytes": st.Bytes,
				"duration_ms": st.Duration.Milliseconds(),
			}
			if e.watched {
				data["watched"] = true
			}
			if e.opts.stats {
				data["reread"] = st.Reread
				data["reused"] = st.Reused
				data["removed"] = st.Removed
				data["skipped"] = st.Skipped
				data["index_bytes"] = st.IndexBytes
			}
			if !e.json() {
				fmt.Fprintf(e.stdout, "files: %d\nterms: %d\nbytes: %d\ntime:  %s\n", st.Files, st.Terms, st.Bytes,
					st.Duration.Round(time.Millisecond))
				if e.watched {
					fmt.Fprintf(e.stdout, "refreshed by the watcher (index --watch)\n")
				}
				if e.opts.stats {
					fmt.Fprintf(e.stdout, "reread: %d\nreused: %d\nremoved: %d\nskipped: %d\nindex_bytes: %d\n",
						st.Reread, st.Reused, st.Removed, st.Skipped, st.IndexBytes)
				}
			}
			return data, nil
		},
	}
}

// progress returns a progress callback that draws on stderr once indexing
// has taken more than a second, if stderr is a terminal.
func (e *env) progress() func(done, total int) {
	f, ok := e.stderr.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) || e.json() {
		return nil
	}
	start := time.Now()
	var last atomic.Int64
	return func(done, total int) {
		now := time.Since(start)
		if now < time.Second {
			return
		}
		if ms := now.Milliseconds(); ms-last.Load() < 100 && done != total {
			return
		} else {
			last.Store(ms)
		}
		fmt.Fprintf(f, "\rindexing %d/%d files", done, total)
		if done == total {
			fmt.Fprint(f, "\n")
		}
	}
}

// openIndexOnly opens the index without refreshing it; an index that was
// never built is built.
func (e *env) openIndexOnly() (*memory.Index, error) {
	p, err := e.project()
	if err != nil {
		return nil, err
	}
	ix, warns, err := memory.Open(filepath.Join(p.Workspace(), "index"))
	if err != nil || ix.Len() == 0 || len(warns) > 0 {
		ix, _, err = e.index(context.Background(), false, nil)
		return ix, err
	}
	return ix, nil
}

// index opens the project's index and refreshes it. With no progress
// callback it draws [env.progress], so that the first build behind search,
// assemble or a workflow step is not a silent wait on a terminal.
func (e *env) index(ctx context.Context, rebuild bool, progress func(done, total int)) (*memory.Index, memory.Stats, error) {
	return e.indexOrStats(ctx, rebuild, false, progress)
}

// indexOrStats is index; with stOnly, when a watcher brought the index up
// to date, it returns the index's stats without opening it (nil).
func (e *env) indexOrStats(ctx context.Context, rebuild, stOnly bool, progress func(done, total int)) (*memory.Index, memory.Stats, error) {
	if e.ix != nil && !rebuild {
		return e.ix, memory.Stats{}, nil
	}
	if progress == nil {
		progress = e.progress()
	}
	p, err := e.project()
	if err != nil {
		return nil, memory.Stats{}, err
	}
	// A project whose workspace cannot be written (read-only, another
	// user's) is still searched: its index is built in memory, with a
	// warning. 'taskctl index', whose job is the index on disk, fails.
	inMemory := func(err error) bool {
		if e.cmd.name == "index" || !errors.Is(err, fs.ErrPermission) && !errors.Is(err, syscall.EROFS) {
			return false
		}
		e.warn(diag.Warning{Code: diag.IndexNotSaved, Path: p.Workspace(),
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
		if st, ok := e.syncWatcher(ctx, p, dir, src.FilterID()); ok {
			var ix *memory.Index
			if !stOnly {
				var warns []diag.Warning
				ix, warns, err = memory.Open(dir)
				if err != nil || len(warns) > 0 || ix.Len() != st.Files {
					ix = nil // replaced or damaged since: refresh as usual
				}
			}
			if stOnly || ix != nil {
				e.indexWarnings(st)
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
	e.indexWarnings(st)
	e.ix = ix
	return ix, st, nil
}

// indexWarnings passes on the warnings of a refresh.
func (e *env) indexWarnings(st memory.Stats) {
	for _, w := range st.Warnings {
		e.warn(w)
	}
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
func (e *env) indexSource(p *project.Project) textSource {
	cfg, err := e.config()
	return textSource{memory.ProjectSource(p), err != nil || cfg.ScanSecrets}
}

// absRel turns a slash-separated path relative to the project dir into an
// absolute one.
func absRel(p *project.Project, rel string) string {
	return filepath.Join(p.Dir(), filepath.FromSlash(rel))
}

// scopeGlobs turns --include or --exclude globs into globs on slash paths
// relative to the project dir. As everywhere on the command line, a glob
// that starts with ./ or ../ is relative to the working dir and an absolute
// one is itself; any other glob is relative to the project dir. A malformed
// glob, or one outside the project, is a usage error.
func (e *env) scopeGlobs(flag string, globs []string) ([]string, error) {
	if len(globs) == 0 {
		return nil, nil
	}
	p, err := e.project()
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
				return nil, usageErr("--%s %q: outside the project dir %s", flag, g, p.Dir())
			}
			local = filepath.ToSlash(rel)
			if local == "." {
				local = "**"
			} else if st, err := os.Stat(abs); err == nil && st.IsDir() && !strings.ContainsAny(local, "*?[{") {
				// ./src names the directory: what it holds (a path
				// never equals it, so it matched nothing).
				local += "/**"
			}
		}
		local = dirGlob(local)
		if !doublestar.ValidatePattern(local) {
			return nil, usageErr("--%s %q: not a valid glob", flag, g)
		}
		out = append(out, local)
	}
	return out, nil
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

// writeExplain prints a match's reason in full: the matched terms per field,
// each term's share of the score, the filters and boosts, and the best line.
func writeExplain(w io.Writer, r memory.Reason) {
	for _, field := range []string{"path", "name", "ident", "content"} {
		if terms := r.Terms[field]; len(terms) > 0 {
			fmt.Fprintf(w, "        %-8s %s\n", field+":", strings.Join(terms, ", "))
		}
	}
	if len(r.Scores) > 0 {
		var parts []string
		for _, t := range sortedKeys(r.Scores) {
			parts = append(parts, fmt.Sprintf("%s=%.3f", t, r.Scores[t]))
		}
		fmt.Fprintf(w, "        %-8s %s\n", "scores:", strings.Join(parts, " "))
	}
	if len(r.Notes) > 0 {
		fmt.Fprintf(w, "        %-8s %s\n", "notes:", strings.Join(r.Notes, "; "))
	}
	if r.Line > 0 {
		fmt.Fprintf(w, "        line %d: %s\n", r.Line, r.Text)
	}
}
