package sources

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/taskctl/taskctl/content/encoding"
	"github.com/taskctl/taskctl/content/secrets"
	"github.com/taskctl/taskctl/internal/diag"
	"github.com/taskctl/taskctl/memory"
	"github.com/taskctl/taskctl/project"
	"github.com/taskctl/taskctl/template"
)

func (r *resolver) openIndex() (*memory.Index, error) {
	r.indexOnce.Do(func() {
		if r.opt.Index == nil {
			r.indexErr = errors.New("no index configured")
			return
		}
		r.index, r.indexErr = r.opt.Index(r.ctx)
	})
	return r.index, r.indexErr
}

// search runs a description query and adds its matches.
func (r *resolver) search(query string, source template.SourceKind, so memory.SearchOptions) {
	p := r.opt.Project
	ix, err := r.openIndex()
	if err != nil {
		r.warn(diag.Warning{Code: diag.IndexUnavailable, Message: fmt.Sprintf("%s source skipped: %v", source, err)})
		return
	}
	so.Source = lineSource{p: r.opt.Project, redact: !r.opt.AllowSecrets}
	matches := ix.Search(query, so)
	if len(matches) == 0 {
		r.warn(diag.Warning{Code: diag.DescriptionNoMatch, Message: fmt.Sprintf("%s %q matched no file", source, short(query, 80))})
		return
	}
	for _, m := range matches {
		c, w := p.ResolveFrom(p.Dir(), m.Rel)
		if w != nil {
			r.warn(*w)
			continue
		}
		score := m.Score
		r.add(Candidate{Candidate: &c, Source: source, Score: &score, Reason: &m.Reason})
	}
}

// lineSource is what a match's best line is read from: the project's file,
// read through the path resolver and decoded as the document decodes it,
// with every secret the scanner finds redacted (unless secrets are allowed
// in the document), so that a reason never shows what the document would
// leave out. It only reads; the index walks the project itself.
type lineSource struct {
	p      *project.Project
	redact bool
}

func (s lineSource) Walk(context.Context, func(string, int64, time.Time) error) error {
	return errors.New("contextgen: a line source does not walk")
}

func (s lineSource) Root() string { return s.p.Dir() }

func (s lineSource) ReadFile(rel string) ([]byte, error) {
	c, w := s.p.ResolveFrom(s.p.Dir(), rel)
	if w != nil {
		return nil, errors.New(w.Message)
	}
	pf, w := s.p.Confined().Read(c.Path)
	if w != nil {
		return nil, errors.New(w.Message)
	}
	if pf.Binary {
		return nil, errors.New("binary file")
	}
	text, ok := Text(pf.Content, s.redact)
	if !ok {
		return nil, errors.New("binary file")
	}
	return text, nil
}

// Text is a file's content as the index and the matches' best lines see
// it: decoded as assemble decodes it (UTF-16 and other encodings to UTF-8;
// ok is false for binary content) and, with redact, every secret the
// scanner finds replaced by "[REDACTED:<rule>]" followed by the newlines
// the secret spanned, so that line numbers still point into the file on
// disk.
func Text(data []byte, redact bool) (text []byte, ok bool) {
	text, enc := encoding.Decode(data)
	if enc.Binary {
		return nil, false
	}
	if redact {
		if finds := secrets.Scan(text); len(finds) > 0 {
			text = secrets.RedactLines(text, finds)
		}
	}
	return text, true
}

func (r *resolver) description(s *template.FileSource) {
	limit := s.Limit
	if limit <= 0 {
		limit = 10
	}
	if max := r.opt.Project.Policy().MaxFiles; s.MaxFiles > 0 && s.MaxFiles < limit {
		limit = s.MaxFiles
	} else if limit > max {
		limit = max
	}
	r.search(s.Description, template.SourceDescription, memory.SearchOptions{
		Limit: limit, MinScore: s.MinScore, Include: s.Include, Exclude: s.Exclude,
	})
}

func (r *resolver) fresh() {
	q := strings.TrimSpace(r.opt.FreshQuery)
	if q == "" {
		q = r.t.Description
	}
	r.search(q, SourceFresh, memory.SearchOptions{Limit: 10})
}
