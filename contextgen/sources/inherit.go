package sources

import (
	"fmt"
	"strings"

	"github.com/taskctl/taskctl/internal/diag"
	"github.com/taskctl/taskctl/memory"
	"github.com/taskctl/taskctl/template"
)

// inherited adds the parent's files: all of them (full), or those the lexical
// matcher ranks relevant to the task's description (subset).
func (r *resolver) inherited() {
	switch r.opt.Inherit {
	case template.InheritFull:
		for _, f := range r.opt.Inherited {
			r.addInherited(f, nil, nil)
		}
	case template.InheritSubset:
		if len(r.opt.Inherited) == 0 {
			return
		}
		ix, err := r.openIndex()
		if err != nil {
			r.warn(diag.Warning{Code: diag.IndexUnavailable, Message: fmt.Sprintf("subset inheritance skipped: %v", err)})
			return
		}
		var include []string
		byRel := map[string]Parent{}
		for _, f := range r.opt.Inherited {
			include = append(include, "/"+escapeGlob(f.Rel)) // anchored: this file, not its namesakes below
			byRel[f.Rel] = f
		}
		kept := map[string]bool{}
		for _, m := range ix.Search(r.t.Description, memory.SearchOptions{Limit: len(include), Include: include,
			Source: lineSource{p: r.opt.Project, redact: !r.opt.AllowSecrets}}) {
			if f, ok := byRel[m.Rel]; ok && !kept[m.Rel] {
				kept[m.Rel] = true
				score := m.Score
				r.addInherited(f, &score, &m.Reason)
			}
		}
		r.unranked(kept)
	}
}

// unranked handles the parent files the index did not rank under subset
// inheritance. One the index holds did not match the step's description:
// it is left out. One the index does not hold (an explicitly named
// ignored file, a file newer than the index) is scored directly: the share
// of the description's terms its path and text contain. Every parent file
// left out is reported.
func (r *resolver) unranked(kept map[string]bool) {
	var rest []Parent
	for _, f := range r.opt.Inherited {
		if !kept[f.Rel] {
			rest = append(rest, f)
		}
	}
	if len(rest) == 0 {
		return
	}
	indexed := map[string]bool{}
	if ix, err := r.openIndex(); err == nil {
		paths, ok := ix.Files()
		for i, rel := range paths {
			indexed[rel] = ok[i]
		}
	}
	query := uniqueTerms(r.t.Description)
	src := lineSource{p: r.opt.Project, redact: !r.opt.AllowSecrets}
	for _, f := range rest {
		why := "no term of the step's description matches it"
		if !indexed[f.Rel] && len(query) > 0 {
			if score, reason, ok := scoreDirectly(src, f.Rel, query); ok {
				r.addInherited(f, &score, &reason)
				continue
			}
			why = "it is not in the index and its path and text hold no term of the step's description"
		}
		r.warn(diag.Warning{Code: diag.InheritNotRelevant, Path: f.Path,
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

func (r *resolver) addInherited(f Parent, score *float64, reason *memory.Reason) {
	c, w := r.opt.Project.ResolveFrom(r.opt.Project.Dir(), f.Rel)
	if w != nil {
		r.warn(*w)
		return
	}
	r.add(Candidate{Candidate: &c, Source: SourceInherited, Score: score, Reason: reason})
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
