package engine

import (
	"path/filepath"
	"sort"

	"github.com/taskctl/taskctl/internal/diag"
	"github.com/taskctl/taskctl/template"
)

// A TaskLibrary is the project's task library, <project>/.taskctl/tasks/
// *.xml, each file read and checked once, in file name order: the one place
// the library is scanned (listing its tasks, finding a task by name, its
// MCP prompts).
type TaskLibrary struct {
	Dir   string // the library's directory, absolute
	Files []LibraryFile
}

// A LibraryFile is one file of the library: its template, or the problems
// that keep it out (it does not validate, or cannot be read).
type LibraryFile struct {
	Path     string
	Template *template.File // nil when Problems
	Problems []diag.Problem
}

// TaskLibrary reads the project's task library.
func (e *Engine) TaskLibrary() (*TaskLibrary, error) {
	p, err := e.Project()
	if err != nil {
		return nil, err
	}
	lib := &TaskLibrary{Dir: filepath.Join(p.Workspace(), "tasks")}
	files, _ := filepath.Glob(filepath.Join(lib.Dir, "*.xml"))
	sort.Strings(files)
	for _, f := range files {
		lf := LibraryFile{Path: f}
		data, err := readIn(p.Dir(), f)
		if pr, ok := InputProblem(f, err); ok {
			lf.Problems = []diag.Problem{pr}
		} else if err != nil {
			// A directory, a FIFO or an unreadable file among the library
			// files is one broken file: it does not hide the others' tasks.
			lf.Problems = []diag.Problem{{File: f, Message: "cannot read: " + errText(err)}}
		} else {
			lf.Template, lf.Problems = CheckTemplate(f, data)
			if lf.Problems != nil {
				lf.Template = nil
			}
		}
		lib.Files = append(lib.Files, lf)
	}
	return lib, nil
}

// Lookup returns the index of the first file (in name order) that defines
// task name, and the task; -1 when no file that validates does.
func (l *TaskLibrary) Lookup(name string) (int, *template.Task) {
	for i, f := range l.Files {
		if f.Template == nil {
			continue
		}
		if t := f.Template.Lookup(name); t != nil {
			return i, t
		}
	}
	return -1, nil
}

// Broken returns the files that do not validate among the first n files
// (all of them when n < 0).
func (l *TaskLibrary) Broken(n int) []LibraryFile {
	if n < 0 || n > len(l.Files) {
		n = len(l.Files)
	}
	var out []LibraryFile
	for _, f := range l.Files[:n] {
		if f.Template == nil {
			out = append(out, f)
		}
	}
	return out
}
