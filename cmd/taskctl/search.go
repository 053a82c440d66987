package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/pflag"

	"github.com/taskctl/taskctl/engine"
)

func searchCmd() *command {
	return &command{
		name:  "search",
		usage: `TEXT... [--limit N] [--include GLOB]... [--exclude GLOB]... [--explain]`,
		short: "rank the project's files by relevance to a description",
		long: `Ranks the project's text files against TEXT (several words are one query,
quoted or not) — a phrase ("Python files related
to authentication") or a whole bug report — with a field-weighted BM25 over
paths, file names, identifiers and content. File-type words ("Go", "tests",
"docs") and path scopes ("in src/api", "under cmd/") narrow or boost the
ranking. The index under .taskctl/index/ is built on first use and refreshed
incrementally.`,
		examples: []string{
			`taskctl search "authentication middleware"`,
			`taskctl search session cookie signing`,
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
			fs.BoolVar(&o.here, "here", false, "with no project marker found, index the working dir (else: NO_PROJECT, exit 2)")
		},
		run: func(ctx context.Context, e *env, args []string) (any, error) {
			// Unquoted words are one query, as grep -F takes none but
			// every search box does: search session cookie signing.
			query := strings.Join(args, " ")
			if strings.TrimSpace(query) == "" {
				return nil, usageErr(`search needs a non-empty TEXT`)
			}
			res, err := e.eng.Search(ctx, engine.SearchRequest{Query: query, Limit: e.opts.limit,
				MinScore: e.opts.minScore, Include: e.opts.include, Exclude: e.opts.exclude,
				Explain: e.opts.explain, NoRefresh: e.opts.noRefresh, Here: e.opts.here})
			if err != nil {
				return nil, err
			}
			e.warn(res.Warnings)
			if err := e.strictCheck(); err != nil {
				return nil, err
			}
			if !e.json() {
				writeMatches(e.stdout, res.Matches, e.opts.explain)
				if len(res.Matches) == 0 {
					fmt.Fprintln(e.stderr, "taskctl: no file matches")
				}
			}
			return res, nil
		},
	}
}

// writeMatches prints matches as text: score and path, then the reason.
func writeMatches(w io.Writer, matches []engine.Match, explain bool) {
	for _, m := range matches {
		fmt.Fprintf(w, "%.4f  %s\n", m.Score, m.Path)
		if explain {
			writeExplain(w, m.Reason)
		} else if s := m.Reason.String(); s != "" {
			fmt.Fprintf(w, "        %s\n", s)
		}
	}
}

// writeExplain prints a match's reason in full: the matched terms per field,
// each term's share of the score, the filters and boosts, the best unit's
// lines and the best line.
func writeExplain(w io.Writer, r engine.Reason) {
	for _, field := range []string{"path", "name", "ident", "content", "history"} {
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
	if r.Lines[0] > 0 {
		unit := ""
		if r.Unit != "" {
			unit = " (" + r.Unit + ")"
		}
		fmt.Fprintf(w, "        lines %d-%d%s\n", r.Lines[0], r.Lines[1], unit)
	}
	if r.Line > 0 {
		fmt.Fprintf(w, "        line %d: %s\n", r.Line, r.Text)
	}
}
