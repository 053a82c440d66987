package sources

import (
	"fmt"
	"strings"

	"github.com/taskctl/taskctl/internal/diag"
	"github.com/taskctl/taskctl/project"
	"github.com/taskctl/taskctl/template"
)

// literal expands path specs. Consecutive specs without read options go to
// the resolver together so their globs share one walk.
func (r *resolver) literal(s *template.FileSource) {
	p := r.opt.Project
	var batch []string
	flush := func(ro ReadOptions) {
		if len(batch) == 0 {
			return
		}
		cands, warns := p.Expand(r.ctx, batch)
		r.warnings = append(r.warnings, warns...)
		cands = r.capFiles(cands, s.MaxFiles, strings.Join(batch, " "))
		r.addExpanded(cands, ro)
		batch = batch[:0]
	}
	for _, ps := range s.Paths {
		ro := ReadOptions{SkipLines: ps.SkipLines, MaxLines: ps.MaxLines, MaxBytes: int64(ps.MaxBytes)}
		// A bound input (e.g. an earlier step's .files) may hold several
		// paths, one per line.
		var specs []string
		for _, line := range strings.Split(ps.Value, "\n") {
			if line = strings.TrimSpace(line); line != "" {
				specs = append(specs, line)
			}
		}
		if ro == (ReadOptions{}) {
			batch = append(batch, specs...)
			continue
		}
		flush(ReadOptions{})
		batch = append(batch, specs...)
		flush(ro)
	}
	flush(ReadOptions{})
}

// capFiles applies a source's max_files, which may only narrow the policy.
func (r *resolver) capFiles(c []project.Candidate, max int, what string) []project.Candidate {
	if max > 0 && len(c) > max {
		r.warn(diag.Warning{Code: diag.TooManyFiles,
			Message: fmt.Sprintf("%s matched %d files; kept the first %d (max_files)", what, len(c), max)})
		return c[:max]
	}
	return c
}
