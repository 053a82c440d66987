package engine

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/taskctl/taskctl/internal/diag"
	"github.com/taskctl/taskctl/memory"
	"github.com/taskctl/taskctl/project"
)

// SearchRequest ranks the project's files against Query.
type SearchRequest struct {
	Query    string
	Limit    int     // at most this many matches (> 0)
	MinScore float64 // drop matches scoring below it (0..1)
	// Include and Exclude are globs as a user types them: ./ and ../ are
	// relative to the working dir, other relative ones to the project dir.
	Include, Exclude []string
	Explain          bool // matched terms per field and the best line
	NoRefresh        bool // search the index as it is
	// Here indexes the working dir when no project marker is found
	// above it; without it (or --project-dir) that is NO_PROJECT.
	Here bool
}

// Match is one ranked file.
type Match struct {
	Path   string        `json:"path"` // absolute
	Score  float64       `json:"score"`
	Reason memory.Reason `json:"reason"`
}

// SearchResult is what [Engine.Search] found, best first.
type SearchResult struct {
	Matches []Match `json:"matches"`
	Query   string  `json:"query"`
	Report
}

// Search ranks the project's text files against a description, through the
// index (refreshed first unless NoRefresh).
func (e *Engine) Search(ctx context.Context, req SearchRequest) (*SearchResult, error) {
	var ws warnings
	res, err := e.search(ctx, req, &ws)
	return done(res, err, ws)
}

func (e *Engine) search(ctx context.Context, req SearchRequest, ws *warnings) (*SearchResult, error) {
	if strings.TrimSpace(req.Query) == "" {
		return nil, UsageError(`search needs exactly one non-empty "TEXT" (quote it)`)
	}
	if req.Limit <= 0 {
		return nil, UsageError("%s must be positive", e.name(FieldLimit))
	}
	if !(req.MinScore >= 0 && req.MinScore <= 1) { // NaN compares false
		return nil, UsageError("%s must be between 0 and 1", e.name(FieldMinScore))
	}
	if err := e.requireProject(req.Here); err != nil {
		return nil, err
	}
	include, err := e.ScopeGlobs("include", req.Include)
	if err != nil {
		return nil, err
	}
	exclude, err := e.ScopeGlobs("exclude", req.Exclude)
	if err != nil {
		return nil, err
	}
	var ix *memory.Index
	if req.NoRefresh {
		ix, err = e.indexNoRefresh(ws)
	} else {
		ix, _, err = e.index(ctx, ws, false, nil)
	}
	if err != nil {
		return nil, err
	}
	p, _ := e.Project()
	matches := ix.Search(req.Query, memory.SearchOptions{
		Limit: req.Limit, MinScore: req.MinScore,
		Include: include, Exclude: exclude, Explain: req.Explain,
		Source: e.indexSource(p), // where best lines are read from
	})
	res := &SearchResult{Query: req.Query, Matches: []Match{}}
	for _, m := range matches {
		res.Matches = append(res.Matches, Match{Path: AbsRel(p, m.Rel), Score: m.Score, Reason: m.Reason})
	}
	return res, nil
}

// requireProject refuses to index a directory no marker names as a
// project unless asked to (here, or --project-dir): search in /tmp or a
// home directory created .taskctl/index there and indexed everything
// under it.
func (e *Engine) requireProject(here bool) error {
	if here || e.projectDir != "" {
		return nil
	}
	p, err := e.Project()
	if err != nil {
		return err
	}
	if p.Marker() != "" {
		return nil
	}
	msg := fmt.Sprintf("no project marker (%s) in %s or above it: search would index every file under %s into %s.",
		strings.Join(project.Markers(), ", "), p.Dir(), p.Dir(), filepath.Join(p.Workspace(), "index"))
	if pd, here := e.spell(FieldProjectDir), e.spell(FieldHere); pd != "" && here != "" {
		msg += fmt.Sprintf(" Give %s DIR, or %s to index %s", pd, here, p.Dir())
	} else {
		msg += " Open a project (a dir with a marker) instead"
	}
	return codedErr(diag.NoProject, ClassUsage, "%s", msg)
}
