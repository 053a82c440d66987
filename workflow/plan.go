package workflow

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/taskctl/taskctl/template"
)

const sequential = "sequential"

// Check reports the first reason root cannot run: tasks nested deeper than
// MaxDepth, steps under a task that is not sequential, two tasks
// with one name, or an input whose from names no step that finishes before
// it starts. template checks most of this with positions when it loads a
// file; Check repeats it for tasks built any other way.
func Check(root *template.Task) error { return check(root, nil) }

// check is Check for a run whose Options.Vars are given: an input bound to
// a step outside root (a step of a workflow run on its own) may take its
// value from given instead.
func check(root *template.Task, given map[string]string) error {
	done := map[string]bool{}
	seen := map[string]bool{}
	var walk func(t *template.Task, depth int) error
	walk = func(t *template.Task, depth int) error {
		if depth > MaxDepth {
			return fmt.Errorf("task %s is nested %d deep; the limit is %d", label(t, 0), depth, MaxDepth)
		}
		if !t.HasSteps() && len(t.Steps) > 0 {
			return fmt.Errorf("task %s: only a sequential task has steps (or a loop or a reduce, which hold theirs)", label(t, 0))
		}
		if err := checkFlow(t); err != nil {
			return err
		}
		if t.Name != "" {
			if seen[t.Name] {
				return fmt.Errorf("two tasks are named %q", t.Name)
			}
			seen[t.Name] = true
		}
		for _, in := range t.Inputs {
			if in.From == "" {
				continue
			}
			ref, err := parseRef(in.From)
			if err != nil {
				return fmt.Errorf("task %s: input %s: %v", label(t, 0), in.Name, err)
			}
			if !done[ref.step] {
				if _, ok := given[in.Name]; ok && !inside(root, ref.step) {
					continue
				}
				return &PendingError{Task: label(t, 0), Input: in.Name, From: in.From, Step: ref.step}
			}
		}
		for _, st := range t.Steps {
			if err := walk(st, depth+1); err != nil {
				return err
			}
		}
		if t.Name != "" {
			done[t.Name] = true
		}
		return nil
	}
	return walk(root, 1)
}

// label names a task in messages: its name, or "#N" by its step index.
func label(t *template.Task, index int) string {
	if t.Name != "" {
		return t.Name
	}
	if index > 0 {
		return "#" + strconv.Itoa(index)
	}
	return "(unnamed)"
}

// ref is a parsed from attribute: STEP.output, STEP.files, STEP.notes[.path],
// STEP.parsed[.path].
type ref struct {
	step, field string
	path        []string
}

func (r ref) String() string {
	return strings.Join(append([]string{r.step, r.field}, r.path...), ".")
}

func parseRef(s string) (ref, error) {
	parts := strings.Split(s, ".")
	if len(parts) < 2 || parts[0] == "" {
		return ref{}, fmt.Errorf("from=%q: want STEP.output, STEP.files, STEP.notes.KEY or STEP.parsed.PATH", s)
	}
	r := ref{step: parts[0], field: parts[1], path: parts[2:]}
	switch r.field {
	case "output", "files":
		if len(r.path) > 0 {
			return ref{}, fmt.Errorf("from=%q: %s has no fields", s, r.field)
		}
	case "notes", "parsed":
	default:
		return ref{}, fmt.Errorf("from=%q: unknown field %q (want output, files, notes or parsed)", s, r.field)
	}
	for _, p := range r.path {
		if p == "" {
			return ref{}, fmt.Errorf("from=%q: empty path segment", s)
		}
	}
	return r, nil
}

// inside reports whether a task named name is root or one of its steps.
func inside(root *template.Task, name string) bool {
	if root.Name == name {
		return true
	}
	for _, c := range root.Steps {
		if inside(c, name) {
			return true
		}
	}
	return false
}
