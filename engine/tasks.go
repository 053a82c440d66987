package engine

import (
	"fmt"

	"github.com/taskctl/taskctl/internal/diag"
	"github.com/taskctl/taskctl/template"
)

// TaskInfo is one task of the project's task library: what a front door
// lists for a user (or an MCP client) to pick from.
type TaskInfo struct {
	Name        string      `json:"name"`
	Type        string      `json:"type"` // atomic or sequential
	Description string      `json:"description"`
	File        string      `json:"file"` // absolute
	Line        int         `json:"line"`
	Inputs      []InputInfo `json:"inputs"`
	Steps       []string    `json:"steps,omitempty"` // a sequential task's step names, in order
}

// InputInfo is one declared input of a task.
type InputInfo struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	Default     string `json:"default,omitempty"`
	HasDefault  bool   `json:"has_default"`
	From        string `json:"from,omitempty"` // STEP.OUTPUT it is bound from in a workflow
}

// ListTasksResult is every top-level task of .taskctl/tasks/*.xml, in file
// and document order.
type ListTasksResult struct {
	Tasks []TaskInfo `json:"tasks"`
	Report
}

// ListTasks lists the tasks of the project's templates with their
// descriptions and inputs. A library file that does not validate is left
// out with a TEMPLATE_INVALID warning, as a lookup by name passes over it.
func (e *Engine) ListTasks() (*ListTasksResult, error) {
	lib, err := e.TaskLibrary()
	if err != nil {
		return nil, err
	}
	res := &ListTasksResult{Tasks: []TaskInfo{}}
	var ws warnings
	for _, f := range lib.Files {
		if f.Template == nil {
			ws.add(diag.Warning{Code: diag.TemplateInvalid, Path: f.Path,
				Message: fmt.Sprintf("left out of the task list: %d problem(s); run taskctl validate on it", len(f.Problems))})
			continue
		}
		for _, t := range f.Template.Tasks {
			res.Tasks = append(res.Tasks, taskInfo(f.Path, t))
		}
	}
	res.Warnings = ws
	return res, nil
}

func taskInfo(file string, t *template.Task) TaskInfo {
	ti := TaskInfo{Name: t.Name, Type: t.Type, Description: t.Description, File: file, Line: t.Pos.Line,
		Inputs: []InputInfo{}}
	if ti.Type == "" {
		ti.Type = "atomic"
	}
	for _, in := range t.Inputs {
		ti.Inputs = append(ti.Inputs, InputInfo{Name: in.Name, Description: in.Doc, Default: in.Default,
			HasDefault: in.HasDefault, From: in.From})
	}
	for _, s := range t.Steps {
		ti.Steps = append(ti.Steps, s.Name)
	}
	return ti
}
