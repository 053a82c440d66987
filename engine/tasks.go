package engine

import (
	"fmt"
	"path/filepath"
	"sort"

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
}

// ListTasks lists the tasks of the project's templates with their
// descriptions and inputs. A library file that does not validate is left
// out with a TEMPLATE_INVALID warning, as a lookup by name passes over it.
func (e *Engine) ListTasks() (*ListTasksResult, error) {
	p, err := e.Project()
	if err != nil {
		return nil, err
	}
	files, _ := filepath.Glob(filepath.Join(p.Workspace(), "tasks", "*.xml"))
	sort.Strings(files)
	res := &ListTasksResult{Tasks: []TaskInfo{}}
	for _, f := range files {
		data, err := readIn(p.Dir(), f)
		var tf *template.File
		var probs []diag.Problem
		if pr, ok := InputProblem(f, err); ok {
			probs = []diag.Problem{pr}
		} else if err != nil {
			probs = []diag.Problem{{File: f, Message: "cannot read: " + errText(err)}}
		} else {
			tf, probs = CheckTemplate(f, data)
		}
		if probs != nil {
			e.Warn(diag.Warning{Code: diag.TemplateInvalid, Path: f,
				Message: fmt.Sprintf("left out of the task list: %d problem(s); run taskctl validate on it", len(probs))})
			continue
		}
		for _, t := range tf.Tasks {
			res.Tasks = append(res.Tasks, taskInfo(f, t))
		}
	}
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
