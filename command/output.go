package command

import (
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	"github.com/taskctl/taskctl/content/secrets"
	"github.com/taskctl/taskctl/internal/diag"
	"github.com/taskctl/taskctl/project"
	"github.com/taskctl/taskctl/root"
	"github.com/taskctl/taskctl/shellexec"
)

// notFoundSummary is how many PATH_NOT_FOUND warnings of one command are
// shown one by one; more become one warning.
const notFoundSummary = 5

// SummarizeNotFound folds the PATH_NOT_FOUND warnings of one command's
// output into one when there are more than a few: grep -r WORD dir without
// -l prints "FILE:LINE" lines, and each became a warning of its own (172
// for one grep of flask) with no hint of what was meant.
func SummarizeNotFound(ws []diag.Warning) []diag.Warning {
	n, grepLike := 0, 0
	var first string
	for _, w := range ws {
		if w.Code == diag.PathNotFound {
			if n == 0 {
				first = w.Path
			}
			n++
			if strings.Contains(filepath.Base(w.Path), ":") || strings.Contains(w.Message, grepLikeNote) {
				grepLike++
			}
		}
	}
	if n <= notFoundSummary {
		return ws
	}
	// A line that may be text the command read is not quoted (see
	// ResolveOutput): then neither is the first.
	msg := fmt.Sprintf("%d lines the command printed name no file (not shown: they may be text it read)", n)
	if first != "" {
		msg = fmt.Sprintf("%d lines the command printed name no file (the first: %s)", n, short(first, 120))
	}
	if grepLike*2 > n {
		msg += `; they look like grep's "FILE:TEXT" lines: grep -l (or -rl) prints the names of the files that match`
	}
	out := make([]diag.Warning, 0, len(ws)-n+1)
	done := false
	for _, w := range ws {
		switch {
		case w.Code != diag.PathNotFound:
			out = append(out, w)
		case !done:
			out = append(out, diag.Warning{Code: diag.PathNotFound, Message: msg})
			done = true
		}
	}
	return out
}

// ResolveOutput is ResolveRecords for what res printed, quoting its lines
// that are not paths (with their secrets redacted) only when they cannot be
// a file's content: no command of the run read one (res.ReadContent is
// false: echo of inputs, find, ls), or the policy allows sensitive files
// (the user's own config said content may be shown). A line in which the
// output, scanned as one document, holds a secret is never quoted.
func ResolveOutput(p *project.Project, res *shellexec.Result) ([]project.Candidate, []diag.Warning) {
	return resolveRecords(p, res.Records, !res.ReadContent || p.Policy().AllowSensitive)
}

// ResolveRecords resolves what a command printed, each record against the
// directory of the command that printed it, on all cores. It keeps the
// records' order, drops duplicates (by real path) and returns a warning for
// each record the resolver refused. A record that is not a path of the
// project (no such file, not a path, outside) may be text the command read:
// its warning gives its line number, never its text (see ResolveOutput).
func ResolveRecords(p *project.Project, recs []shellexec.Record) ([]project.Candidate, []diag.Warning) {
	return resolveRecords(p, recs, false)
}

func resolveRecords(p *project.Project, recs []shellexec.Record, quote bool) ([]project.Candidate, []diag.Warning) {
	out := resolveEach(p, recs)
	var warns []diag.Warning
	var fromRoot []string
	for _, r := range out {
		if r.fromRoot {
			fromRoot = append(fromRoot, r.c.Rel)
		}
	}
	if len(fromRoot) > 0 {
		warns = append(warns, FromRootNote(p, fromRoot))
	}
	cands, ws := sortRecords(p, recs, out, quote)
	return cands, append(warns, ws...)
}

// resolvedRecord is one record of a command's output resolved: a
// candidate, or the warning that refused it.
type resolvedRecord struct {
	c        project.Candidate
	w        *diag.Warning
	fromRoot bool // named nothing from its dir; taken from the root
}

// resolveEach resolves every record from its dir (or, when it names
// nothing there, from the project root), on all cores for a long output.
func resolveEach(p *project.Project, recs []shellexec.Record) []resolvedRecord {
	out := make([]resolvedRecord, len(recs))
	workers := min(runtime.GOMAXPROCS(0), max(1, len(recs)/256))
	var wg sync.WaitGroup
	for k := range workers {
		wg.Go(func() {
			for i := k; i < len(recs); i += workers {
				out[i].c, out[i].w = p.ResolveFrom(recs[i].Dir, recs[i].Text)
				if out[i].w != nil && out[i].w.Code == diag.PathNotFound {
					if c, ok := FromRoot(p, recs[i].Dir, recs[i].Text); ok {
						out[i].c, out[i].w, out[i].fromRoot = c, nil, true
					}
				}
			}
		})
	}
	wg.Wait()
	return out
}

// sortRecords turns the resolved records into the candidates (each path
// once, in output order) and the warnings: a line that is not a path of
// the project is counted, never quoted (unless quote and it holds no
// secret); a path of the project the policy refuses is quoted, its
// secrets redacted; what lies inside .git/ or .taskctl/ is one warning a
// directory.
func sortRecords(p *project.Project, recs []shellexec.Record, out []resolvedRecord, quote bool) ([]project.Candidate, []diag.Warning) {
	var cands []project.Candidate
	var warns []diag.Warning
	seen := make(map[string]bool, len(recs))
	// What a recursive command prints from .git/ or .taskctl/ (find .
	// -type f, grep -rl WORD . once an index exists) is one warning for
	// each such directory, not one for each of its files.
	type excluded struct {
		at    int // its warning in warns
		n     int
		first string
	}
	inside := map[string]*excluded{}
	rules := make([][]string, len(recs)) // the secret rules found in each record, scanned as one document
	for _, r := range out {
		if r.w != nil && !projectPath(r.w.Code) {
			rules = outputSecrets(recs)
			break
		}
	}
	for i, r := range out {
		switch {
		case r.w != nil && !projectPath(r.w.Code) && (!quote || len(rules[i]) > 0):
			// A line that is not a path of the project may be any text
			// the command read (cat, grep without -l, tr, cut): it is
			// counted, never quoted, whole or in part.
			warns = append(warns, outputLineWarning(i, r.w.Code, recs, rules))
		case r.w != nil && r.w.Code == diag.PathIgnored:
			if rel, err := filepath.Rel(p.Dir(), r.w.Path); err == nil {
				if dir := root.AlwaysExcludedDir(filepath.ToSlash(rel)); dir != "" {
					if e := inside[dir]; e != nil {
						e.n++
						continue
					}
					inside[dir] = &excluded{at: len(warns), n: 1, first: r.w.Path}
				}
			}
			fallthrough
		case r.w != nil:
			// A path of the project (ignored, sensitive, a directory):
			// quoted, as a name the project holds, never a secret in it.
			w := *r.w
			w.Path, w.Message = secrets.RedactText(w.Path), secrets.RedactText(w.Message)
			warns = append(warns, w)
		case !seen[r.c.Path]:
			seen[r.c.Path] = true
			cands = append(cands, r.c)
		}
	}
	for dir, e := range inside {
		if e.n > 1 {
			warns[e.at] = diag.Warning{Code: diag.PathIgnored, Path: filepath.Join(p.Dir(), filepath.FromSlash(dir)),
				Message: fmt.Sprintf("%d paths the command printed are inside %s/, which is always excluded (the first: %s)", e.n, dir, e.first)}
		}
	}
	return cands, warns
}

// FromRoot resolves text, a relative path that named nothing from dir (a
// subdirectory of the project), from the project root: git diff
// --name-only and git status print paths from the repository's top,
// wherever they run, and a pipe (| cut -c4-) or a shell's stdin loses
// where they came from. It is the file there, if there is one.
func FromRoot(p *project.Project, dir, text string) (project.Candidate, bool) {
	if filepath.IsAbs(text) || dir == p.Dir() || !within(dir, p.Dir()) {
		return project.Candidate{}, false
	}
	c, w := p.ResolveFrom(p.Dir(), text)
	return c, w == nil
}

// FromRootNote is the one PATH_FROM_ROOT warning for the paths (relative
// to the project) that FromRoot took from the root.
func FromRootNote(p *project.Project, rels []string) diag.Warning {
	verb := "were"
	if len(rels) == 1 {
		verb = "was"
	}
	msg := fmt.Sprintf("%d %s named nothing from the working dir and %s taken from the project root, as git prints them",
		len(rels), plural(len(rels), "path"), verb)
	if len(rels) > 1 {
		msg += fmt.Sprintf(" (the first: %s)", rels[0])
	}
	path := rels[0]
	return diag.Warning{Code: diag.PathFromRoot, Path: filepath.Join(p.Dir(), filepath.FromSlash(path)), Message: msg}
}

// within reports whether dir is root or lies below it, by components.
func within(dir, root string) bool {
	rel, err := filepath.Rel(root, dir)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, "../") && !filepath.IsAbs(rel)
}

// short is s on one line, cut to at most n bytes, marking the cut.
func short(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// plural is word for n, with an s unless n is 1.
func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}
