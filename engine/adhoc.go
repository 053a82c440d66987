package engine

import (
	"path/filepath"
	"strings"

	"github.com/taskctl/taskctl/command"
	"github.com/taskctl/taskctl/internal/diag"
	"github.com/taskctl/taskctl/template"
)

// AdHocTaskName is the name of the task taskctl assemble makes of the
// sources given on the command line.
const AdHocTaskName = "adhoc"

// adHocTask makes a task of the sources on the command line (--path,
// --command, --describe, paths on stdin), for a one-off context without a
// template, as repomix, code2prompt and files-to-prompt select files.
func (e *Engine) adHocTask(req AssembleRequest, ws *warnings) (*template.File, *template.Task, error) {
	if len(req.Exclude) > 0 && len(req.PathArgs)+len(req.StdinPaths)+len(req.Commands)+len(req.Describe) == 0 {
		return nil, nil, UsageError("%s leave files out of what %s select: give one of those", e.name(FieldExclude), e.name(FieldSources))
	}
	if len(req.PathArgs) == 0 && len(req.StdinPaths) == 0 && len(req.Commands) == 0 && len(req.Describe) == 0 {
		sources := e.spell(FieldSources)
		if sources == "" {
			return nil, nil, UsageError("assemble needs a task name or a template file")
		}
		return nil, nil, UsageError("assemble needs exactly one FILE or TASKNAME, or sources: %s", sources)
	}
	if req.Task != "" || len(req.Vars) > 0 || req.RunID != "" {
		return nil, nil, UsageError("%s, %s and %s name a template's task and inputs; without a template give %s",
			e.name(FieldTask), e.name(FieldVar), e.name(FieldRun), e.name(FieldSources))
	}
	if len(req.Commands) > 0 {
		p, err := e.Project()
		if err != nil {
			return nil, nil, err
		}
		if !within(p.WorkingDir(), p.Dir()) {
			return nil, nil, e.outsideProject(p)
		}
	}
	t := &template.Task{Name: AdHocTaskName, Type: "atomic", Description: "Files selected on the command line."}
	if len(req.Describe) > 0 {
		t.Description = strings.Join(req.Describe, "\n")
	}
	if len(req.PathArgs)+len(req.StdinPaths) > 0 {
		src := template.FileSource{Kind: template.SourceLiteral}
		for _, a := range req.PathArgs {
			src.Paths = append(src.Paths, template.PathSpec{Value: typedPath(a)})
		}
		stdin, err := e.stdinPaths(req.StdinPaths, ws)
		if err != nil {
			return nil, nil, err
		}
		for _, a := range stdin {
			src.Paths = append(src.Paths, template.PathSpec{Value: a})
		}
		t.Sources = append(t.Sources, src)
	}
	for _, c := range req.Commands {
		t.Sources = append(t.Sources, template.FileSource{Kind: template.SourceCommand, Command: c})
	}
	if req.Limit < 0 {
		return nil, nil, UsageError("%s must be positive, not %d", e.name(FieldLimit), req.Limit)
	}
	if req.Limit > 0 && len(req.Describe) == 0 {
		return nil, nil, UsageError("%s caps the matches of %s: give %[2]s TEXT", e.name(FieldLimit), e.name(FieldDescribe))
	}
	for _, d := range req.Describe {
		// The exclusions go to the search too, so that the limit counts
		// the matches kept.
		t.Sources = append(t.Sources, template.FileSource{Kind: template.SourceDescription, Description: d,
			Limit: req.Limit, Exclude: req.Exclude})
	}
	return &template.File{Tasks: []*template.Task{t}}, t, nil
}

// typedPath is a path or glob as the user typed it, in the form the
// resolver takes from the working dir: "src/**/*.go" typed in a
// subdirectory means that subdirectory's src/, not the project's (a bare
// path in a template is the project's, DESIGN §2).
func typedPath(s string) string {
	if s == "" || filepath.IsAbs(s) || s == "." || s == ".." || strings.HasPrefix(s, "./") || strings.HasPrefix(s, "../") {
		return s
	}
	return "./" + s
}

// stdinPaths makes the paths read from standard input specs of the
// literal source: from the working dir, as typed paths are; but a
// relative path that names nothing from there and a file from the
// project root is taken from the root, with one PATH_FROM_ROOT note:
// git diff --name-only and git status print paths from the repository's
// top, so "git diff --name-only | taskctl assemble -" run in a
// subdirectory named files under it twice (src/flask/src/flask/app.py).
func (e *Engine) stdinPaths(lines []string, ws *warnings) ([]string, error) {
	if len(lines) == 0 {
		return nil, nil
	}
	p, err := e.Project()
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(lines))
	var fromRoot []string
	for _, s := range lines {
		if _, w := p.ResolveFrom(p.WorkingDir(), s); w != nil && w.Code == diag.PathNotFound && !strings.ContainsAny(s, "*?[{") {
			if c, ok := command.FromRoot(p, p.WorkingDir(), s); ok {
				fromRoot = append(fromRoot, c.Rel)
				out = append(out, c.Path) // absolute: resolved where it was found
				continue
			}
		}
		out = append(out, typedPath(s))
	}
	if len(fromRoot) > 0 {
		ws.add(command.FromRootNote(p, fromRoot))
	}
	return out, nil
}
