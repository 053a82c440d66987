package engine

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/taskctl/taskctl/internal/diag"
	"github.com/taskctl/taskctl/internal/xmltext"
	"github.com/taskctl/taskctl/project"
	"github.com/taskctl/taskctl/root"
	"github.com/taskctl/taskctl/template"
)

// FileResult is one file's verdict from [Engine.Validate].
type FileResult struct {
	Path     string         `json:"path"`
	Valid    bool           `json:"valid"`
	Problems []diag.Problem `json:"problems"`
}

// ValidateResult is what [Engine.Validate] found, file by file.
type ValidateResult struct {
	Files []FileResult `json:"files"`
	Report
}

// Validate checks each file (a FILE argument: relative to the working
// dir) against the XSD and the rules it cannot express: a file whose root
// element is <config> as a configuration file, any other as a template.
// It returns every file's result; when any file has problems, also an
// *Error with all of them: TEMPLATE_NOT_FOUND (ClassNotFound) when every
// problem is a file that does not exist, else TEMPLATE_INVALID.
func (e *Engine) Validate(files []string) (*ValidateResult, error) {
	var ws warnings
	res, err := e.validate(files, &ws)
	if res != nil {
		// Every file's verdict is kept when some failed, with the
		// warnings.
		res.Warnings = ws
		return res, err
	}
	return nil, withWarnings(err, ws)
}

func (e *Engine) validate(files []string, ws *warnings) (*ValidateResult, error) {
	res := &ValidateResult{}
	var all []diag.Problem
	missing := 0
	names := &libraryNames{}
	for _, arg := range files {
		path, err := e.requestPath(arg)
		if err != nil {
			return nil, err
		}
		tf, probs, gone := e.validateFile(path, ws)
		if gone {
			missing++
		}
		if tf != nil {
			probs = names.add(path, tf.Tasks)
		}
		if probs == nil {
			probs = []diag.Problem{}
		}
		res.Files = append(res.Files, FileResult{Path: path, Valid: len(probs) == 0, Problems: probs})
		all = append(all, probs...)
	}
	if len(all) == 0 {
		return res, nil
	}
	bad := 0
	for _, r := range res.Files {
		if !r.Valid {
			bad++
		}
	}
	if bad == missing {
		// Nothing invalid, only files that are not there: as for
		// assemble, that is "not found" (exit 5).
		return res, &Error{Code: diag.TemplateNotFound, Class: ClassNotFound, Problems: all,
			Message: fmt.Sprintf("%d of %d file(s) not found", missing, len(res.Files))}
	}
	return res, &Error{Code: diag.TemplateInvalid, Class: ClassUsage, Problems: all,
		Message: fmt.Sprintf("%d of %d file(s) invalid", bad, len(res.Files))}
}

// validateFile returns the problems of one file, and whether it does not
// exist; for a valid template, the template.
func (e *Engine) validateFile(path string, ws *warnings) (tf *template.File, probs []diag.Problem, missing bool) {
	data, err := e.readArg(path)
	if errors.Is(err, root.ErrLeavesRoot) {
		return nil, []diag.Problem{{File: path, Message: "a symbolic link leading outside the project: never followed, not validated"}}, false
	}
	if p, ok := InputProblem(path, err); ok {
		return nil, []diag.Problem{p}, false
	}
	if err != nil {
		return nil, []diag.Problem{{File: path, Line: 0, Col: 0, Message: "cannot read: " + errText(err)}},
			errors.Is(err, fs.ErrNotExist)
	}
	if rootName(data) == "config" {
		return nil, CheckConfig(path, data), false
	}
	tf, probs = CheckTemplate(path, data)
	if probs != nil {
		return nil, probs, false
	}
	for _, w := range tf.Warnings {
		w.File = path
		ws.add(diag.At(w))
	}
	return tf, nil, false
}

// readArg reads a file named to validate. One that lies in the project
// (its task library, say) is the repository's and is read through the
// project, so that a symbolic link it commits to a file outside is not
// followed: validate would print the outside file's element names. One
// named outside the project is the user's choice and is read as named.
func (e *Engine) readArg(path string) ([]byte, error) {
	if p, err := e.Project(); err == nil && lexicallyWithin(path, p.Dir()) {
		return readIn(p.Dir(), path)
	}
	return ReadInput(path)
}

// lexicallyWithin reports whether path lies in dir by its components as
// written (no link evaluated).
func lexicallyWithin(path, dir string) bool {
	rel, err := filepath.Rel(dir, filepath.Clean(path))
	return err == nil && rel != ".." && !strings.HasPrefix(rel, "../") && !filepath.IsAbs(rel)
}

// libraryNames is where each task name of the valid templates validated so
// far is defined, by task library (a .taskctl/tasks/ directory, where
// assemble refuses a name two files define) and, under the key "", across
// all the files of one validate: "validate a.xml b.xml" with both naming
// "review" is two definitions of one task, which no lookup by name could
// tell apart. Outside a library, a second file that defines the task the
// same way (a copy, or the same template in another encoding) is no
// conflict.
type libraryNames struct {
	at   map[string]map[string]string // by library ("": the others), name -> FILE:LINE:COL
	same map[string]string            // name -> the first definition, as json, outside a library
}

// add records the names of file's tasks (and steps) and returns a problem
// for each name another file of its library defines, naming both places
// as assemble does.
func (n *libraryNames) add(file string, tasks []*template.Task) []diag.Problem {
	dir := filepath.Dir(file)
	where := dir
	if filepath.Base(dir) != "tasks" || filepath.Base(filepath.Dir(dir)) != project.WorkspaceName {
		dir, where = "", "the files validated together"
	}
	if n.at == nil {
		n.at, n.same = map[string]map[string]string{}, map[string]string{}
	}
	if n.at[dir] == nil {
		n.at[dir] = map[string]string{}
	}
	var probs []diag.Problem
	var visit func(ts []*template.Task)
	visit = func(ts []*template.Task) {
		for _, t := range ts {
			var def string
			if dir == "" {
				b, _ := json.Marshal(t)
				def = string(b)
			}
			first, dup := n.at[dir][t.Name]
			if dup && dir == "" && n.same[t.Name] == def {
				dup = false // a copy of the same definition
			} else if dup && !strings.HasPrefix(first, file+":") {
				probs = append(probs, diag.Problem{File: file, Line: t.Pos.Line, Col: t.Pos.Col,
					Message: fmt.Sprintf("task %q is also defined at %s: a task name must be unique across %s", t.Name, first, where)})
			} else if !dup {
				n.at[dir][t.Name] = fmt.Sprintf("%s:%d:%d", file, t.Pos.Line, t.Pos.Col)
				n.same[t.Name] = def
			}
			visit(t.Steps)
		}
	}
	visit(tasks)
	return probs
}

// rootName returns the local name of data's root element, or "" when data
// is not well-formed enough to tell.
func rootName(data []byte) string {
	if text, err := xmltext.Decode(data); err == nil {
		data = text // UTF-16, as schema and template read it
	}
	d := xml.NewDecoder(bytes.NewReader(data))
	for {
		t, err := d.Token()
		if err != nil {
			return ""
		}
		if se, ok := t.(xml.StartElement); ok {
			return se.Name.Local
		}
	}
}
