package sources

import (
	"fmt"
	"time"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/taskctl/taskctl/command"
	"github.com/taskctl/taskctl/internal/diag"
	"github.com/taskctl/taskctl/project"
	"github.com/taskctl/taskctl/template"
)

func (r *resolver) filter(rel string, include, exclude []string) bool {
	if len(include) > 0 {
		ok := false
		for _, g := range include {
			if m, _ := doublestar.Match(g, rel); m {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	for _, g := range exclude {
		if m, _ := doublestar.Match(g, rel); m {
			return false
		}
	}
	return true
}

// command runs a restricted shell command and resolves each record it prints.
func (r *resolver) command(s *template.FileSource) {
	p := r.opt.Project
	warned := len(r.warnings)
	// A template's command runs in the project dir (DESIGN §2): what it
	// selects does not depend on where taskctl was started.
	dir := r.opt.CommandDir
	if dir == "" {
		dir = p.Dir()
	}
	res, ws, err := command.Run(r.ctx, p, dir, s.Command, command.Vars(r.t.Vars()), r.shellLimits(s))
	r.warnings = append(r.warnings, ws...)
	if err != nil || res == nil {
		return
	}
	var cands []project.Candidate
	resolved, warns := command.ResolveOutput(p, res)
	r.warnings = append(r.warnings, command.SummarizeNotFound(warns)...)
	for _, w := range warns {
		if w.Code == diag.PathNotFound && w.Path != "" {
			// A line of output that names no file: any text the command
			// read (cat .env, grep without -l). The warning shows it to
			// the user; the document, which goes to a model, does not
			// list it as a file left out.
			if r.notFiles == nil {
				r.notFiles = map[string]bool{}
			}
			r.notFiles[w.Path] = true
		}
	}
	for _, c := range resolved {
		if r.filter(c.Rel, s.Include, s.Exclude) {
			cands = append(cands, c)
		}
	}
	max := p.Policy().MaxFiles
	if s.MaxFiles > 0 && s.MaxFiles < max {
		max = s.MaxFiles
	}
	cands = r.capFiles(cands, max, "command")
	for i := range cands {
		r.add(Candidate{Candidate: &cands[i], Source: template.SourceCommand})
	}
	if len(cands) == 0 && len(r.warnings) == warned {
		// As a glob that matches nothing (GLOB_NO_MATCH): a source that
		// selected nothing, and said nothing else about why, says so,
		// and --strict fails on it.
		r.warn(diag.Warning{Code: diag.CommandNoMatch,
			Message: fmt.Sprintf("command %q selected no file", short(s.Command, 80))})
	}
}

func (r *resolver) shellLimits(s *template.FileSource) command.Limits {
	l := r.opt.Shell
	if s.CommandTimeout > 0 {
		if d := time.Duration(s.CommandTimeout) * time.Second; l.Timeout == 0 || d < l.Timeout {
			l.Timeout = d
		}
	}
	return l
}
