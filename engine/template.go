package engine

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/taskctl/taskctl/internal/diag"
	"github.com/taskctl/taskctl/schema"
	"github.com/taskctl/taskctl/shellexec"
	"github.com/taskctl/taskctl/template"
)

// CheckTemplate validates data against the XSD and then decodes it. It
// returns the decoded file, or the problems found.
func CheckTemplate(file string, data []byte) (*template.File, []diag.Problem) {
	if err := schema.Template().Validate(file, data); err != nil {
		var ve *schema.ValidationError
		if errors.As(err, &ve) && len(ve.Problems) > 0 {
			return nil, ve.Problems
		}
		return nil, []diag.Problem{{File: file, Line: 1, Col: 1, Message: err.Error()}}
	}
	tf, err := template.Parse(file, data)
	if err != nil {
		var te *template.Error
		if errors.As(err, &te) && len(te.Problems) > 0 {
			return nil, te.Problems
		}
		return nil, []diag.Problem{{File: file, Line: 1, Col: 1, Message: err.Error()}}
	}
	probs := unnamedTasks(file, tf.Tasks)
	probs = append(probs, vetCommands(file, tf.Tasks)...)
	if probs != nil {
		return nil, probs
	}
	return tf, nil
}

// unnamedTasks refuses a task (or step) without a name: assemble's
// document, run's records and a step's from="NAME.output" all name it. The
// schema keeps the attribute optional (its own tests validate minimal
// unnamed tasks); before, such a task validated and assembled as task="".
func unnamedTasks(file string, tasks []*template.Task) []diag.Problem {
	var probs []diag.Problem
	for _, t := range tasks {
		if t.Name == "" {
			probs = append(probs, diag.Problem{File: file, Line: t.Pos.Line, Col: t.Pos.Col,
				Message: `task has no name: give it name="..." (assemble, run and a step's from= name it)`})
		}
		probs = append(probs, unnamedTasks(file, t.Steps)...)
	}
	return probs
}

// vetCommands checks every <command> of tasks (and their steps) as the
// restricted interpreter will before running it: a command it refuses (a
// write, rm, an unclosed quote) can never run, so the template is invalid,
// at the <command>'s line:col. validate said ok and assemble only warned
// COMMAND_DENIED with a position inside the command text.
func vetCommands(file string, tasks []*template.Task) []diag.Problem {
	var probs []diag.Problem
	for _, t := range tasks {
		for _, s := range t.Sources {
			if s.Kind != template.SourceCommand || s.Command == "" {
				continue
			}
			if err := shellexec.Vet(s.Command); err != nil {
				probs = append(probs, diag.Problem{File: file, Line: s.CommandPos.Line, Col: s.CommandPos.Col,
					Message: "command refused: " + err.Error()})
			}
		}
		probs = append(probs, vetCommands(file, t.Steps)...)
	}
	return probs
}

// A LoadedTask is a task found by LoadTask: its file, the task and its
// inputs' values.
type LoadedTask struct {
	File *template.File
	Task *template.Task
	Vars map[string]string
	Report
}

// LoadTask reads the template named by arg (a path or a task name), picks
// the task (taskName, the name arg found, or the file's only task) and
// parses the KEY=VALUE pairs of vars (--var).
func (e *Engine) LoadTask(arg, taskName string, vars []string) (*LoadedTask, error) {
	var ws warnings
	tf, t, bound, err := e.loadTask(&ws, arg, taskName, vars)
	return done(&LoadedTask{File: tf, Task: t, Vars: bound}, err, ws)
}

// loadTask is LoadTask, its warnings given to ws.
func (e *Engine) loadTask(ws *warnings, arg, taskName string, vars []string) (*template.File, *template.Task, map[string]string, error) {
	bound, err := e.parseVars(vars)
	if err != nil {
		return nil, nil, nil, err
	}
	if err := e.typedPaths(bound); err != nil {
		return nil, nil, nil, err
	}
	tf, byName, err := e.loadTemplate(ws, arg)
	if err != nil {
		return nil, nil, nil, err
	}
	t, err := pickTask(tf, byName, taskName, e.name(FieldTask))
	if err != nil {
		return nil, nil, nil, err
	}
	declared := t.Declared()
	fromSteps := boundOnly(t)
	for _, k := range slices.Sorted(maps.Keys(bound)) {
		switch {
		case !declared[k]:
			ws.add(diag.Warning{Code: diag.UnknownVar, Path: tf.Path,
				Message: fmt.Sprintf("%s %s: task %q declares no input of that name", e.name(FieldVar), k, t.Name)})
		case fromSteps[k] != "":
			// A from binding to a step of this run wins over --var; the
			// value was dropped without a word.
			ws.add(diag.Warning{Code: diag.UnknownVar, Path: tf.Path,
				Message: fmt.Sprintf("%s %s: not used: every input of that name is bound from an earlier step (%s)", e.name(FieldVar), k, fromSteps[k])})
		}
	}
	return tf, t, bound, nil
}

// boundOnly returns the input names of t and its steps that --var cannot
// set, each with one of its from bindings: every input of that name is
// bound from a step inside t, whose result wins. (An input bound from a
// step outside t, as when t is a step run on its own, takes --var.)
func boundOnly(t *template.Task) map[string]string {
	inside := map[string]bool{}
	var names func(x *template.Task)
	names = func(x *template.Task) {
		inside[x.Name] = true
		for _, s := range x.Steps {
			names(s)
		}
	}
	names(t)
	bound, free := map[string]string{}, map[string]bool{}
	var visit func(x *template.Task)
	visit = func(x *template.Task) {
		for _, in := range x.Inputs {
			step, _, _ := strings.Cut(in.From, ".")
			if in.From != "" && inside[step] {
				bound[in.Name] = in.From
			} else {
				free[in.Name] = true
			}
		}
		for _, s := range x.Steps {
			visit(s)
		}
	}
	visit(t)
	for k := range free {
		delete(bound, k)
	}
	return bound
}

// loadTemplate reads a template named by path, or finds the file under
// <project>/.taskctl/tasks/ that defines a task of that name. It returns the
// decoded file and, when arg was a task name, that name.
func (e *Engine) loadTemplate(ws *warnings, arg string) (*template.File, string, error) {
	path, err := e.requestPath(arg)
	if err != nil {
		return nil, "", err
	}
	st, err := os.Stat(path)
	if err == nil && st.IsDir() {
		return nil, "", UsageError("%s is a directory, not a template", path)
	}
	if err == nil {
		tf, err := e.readTemplate(ws, path)
		return tf, "", err
	}
	if looksLikePath(arg) {
		return nil, "", codedErr(diag.TemplateNotFound, ClassNotFound, "template %s: no such file", path)
	}
	// A task name: look it up in the project's task library.
	lib, err := e.TaskLibrary()
	if err != nil {
		return nil, "", err
	}
	if i, t := lib.Lookup(arg); t != nil {
		f := lib.Files[i]
		if probs := alsoDefined(arg, f.Path, t, lib.Files[i+1:]); probs != nil {
			return nil, "", Invalid(f.Path, probs)
		}
		// A broken file does not hide the tasks of the others; it only
		// matters if the task is not found elsewhere.
		for _, b := range lib.Broken(i) {
			ws.add(diag.Warning{Code: diag.TemplateInvalid, Path: b.Path, Message: "skipped while looking for task " + arg + ": run taskctl validate on it"})
		}
		for _, w := range f.Template.Warnings {
			w.File = f.Path
			ws.add(diag.At(w))
		}
		return f.Template, arg, nil
	}
	if broken := lib.Broken(-1); len(broken) > 0 {
		var paths []string
		var probs []diag.Problem
		for _, b := range broken {
			paths = append(paths, b.Path)
			probs = append(probs, b.Problems...)
		}
		return nil, "", Invalid(strings.Join(paths, ", "), probs)
	}
	var known []string
	for _, f := range lib.Files {
		for _, t := range f.Template.Tasks {
			known = append(known, t.Name)
		}
	}
	msg := fmt.Sprintf("no template file %s and no task %q in %s", path, arg, lib.Dir)
	if len(known) > 0 {
		msg += " (tasks there: " + strings.Join(known, ", ") + ")"
	}
	return nil, "", codedErr(diag.TaskNotFound, ClassNotFound, "%s", msg)
}

// alsoDefined looks for task name in the library files after first (the one
// that defines it, at t: later): a name two files define is ambiguous, as it is
// within one file. Before, the first file in name order won without a word.
// Files that do not parse are passed over here, as they are once the task
// is found.
func alsoDefined(name, first string, t *template.Task, later []LibraryFile) []diag.Problem {
	var probs []diag.Problem
	for _, f := range later {
		if f.Template == nil {
			continue
		}
		if o := f.Template.Lookup(name); o != nil {
			probs = append(probs, diag.Problem{File: f.Path, Line: o.Pos.Line, Col: o.Pos.Col,
				Message: fmt.Sprintf("task %q is also defined at %s:%d:%d: a task name must be unique across %s", name, first, t.Pos.Line, t.Pos.Col, filepath.Dir(f.Path))})
		}
	}
	return probs
}

func looksLikePath(s string) bool {
	return strings.ContainsAny(s, `/\`) || strings.HasSuffix(strings.ToLower(s), ".xml")
}

// readTemplate reads and checks one template file.
func (e *Engine) readTemplate(ws *warnings, path string) (*template.File, error) {
	data, err := ReadInput(path)
	if p, ok := InputProblem(path, err); ok {
		return nil, Invalid(path, []diag.Problem{p})
	}
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, codedErr(diag.TemplateNotFound, ClassNotFound, "template %s: no such file", path)
		}
		if errors.Is(err, errNotRegular) {
			return nil, codedErr(diag.TemplateInvalid, ClassUsage, "template %s: not a regular file", path)
		}
		return nil, fmt.Errorf("read template: %w", err)
	}
	tf, probs := CheckTemplate(path, data)
	if probs != nil {
		return nil, Invalid(path, probs)
	}
	for _, w := range tf.Warnings {
		w.File = path
		ws.add(diag.At(w))
	}
	return tf, nil
}

// pickTask chooses the task to work on: the task asked for, the name the
// template was found by, or the file's only top-level task. field is how
// the door names the task of a request.
func pickTask(tf *template.File, byName, asked, field string) (*template.Task, error) {
	name := asked
	if name == "" {
		name = byName
	}
	if name != "" {
		t := tf.Lookup(name)
		if t == nil {
			return nil, codedErr(diag.TaskNotFound, ClassNotFound, "%s: no task named %q (tasks: %s)",
				tf.Path, name, strings.Join(taskNames(tf), ", "))
		}
		return t, nil
	}
	if len(tf.Tasks) == 1 {
		return tf.Tasks[0], nil
	}
	return nil, UsageError("%s holds %d tasks; choose one with %s (%s)", tf.Path, len(tf.Tasks), field,
		strings.Join(taskNames(tf), ", "))
}

func taskNames(tf *template.File) []string {
	var out []string
	var walk func(ts []*template.Task)
	walk = func(ts []*template.Task) {
		for _, t := range ts {
			if t.Name != "" {
				out = append(out, t.Name)
			}
			walk(t.Steps)
		}
	}
	walk(tf.Tasks)
	return out
}

// typedPaths rewrites each --var value that starts with "./" or "../" (or
// is "." or "..") as the path the user meant: resolved against the working
// dir and handed to the template relative to the project dir (DESIGN §2),
// so {{area}} in a <path> and $area in a <command>, which both work from
// the project dir, name the place the user typed. A path outside the
// project becomes absolute, which the resolver refuses like any other.
func (e *Engine) typedPaths(vars map[string]string) error {
	for k, v := range vars {
		if v != "." && v != ".." && !strings.HasPrefix(v, "./") && !strings.HasPrefix(v, "../") {
			continue
		}
		p, err := e.Project()
		if err != nil {
			return err
		}
		abs := filepath.Join(p.WorkingDir(), v)
		rel, err := filepath.Rel(p.Dir(), abs)
		if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
			vars[k] = abs
			continue
		}
		if strings.HasSuffix(v, "/") && rel != "." {
			rel += "/"
		}
		vars[k] = filepath.ToSlash(rel)
	}
	return nil
}

// parseVars turns the K=V inputs of a request into a map. A name given
// twice is a usage error, whatever the values: the last one silently won.
// The error names the variable, not its values (a value may be a secret).
func (e *Engine) parseVars(list []string) (map[string]string, error) {
	field := e.name(FieldVar)
	vars := make(map[string]string, len(list))
	for _, kv := range list {
		k, v, ok := strings.Cut(kv, "=")
		switch {
		case !ok:
			return nil, UsageError("%s with no '=': want KEY=VALUE", field)
		case k == "":
			return nil, UsageError("%s with an empty name: want KEY=VALUE", field)
		}
		if _, dup := vars[k]; dup {
			name := k
			if strings.ContainsFunc(name, unicode.IsControl) {
				name = strconv.Quote(name)
			}
			return nil, UsageError("%s %s is given more than once; give each name one value", field, name)
		}
		vars[k] = v
	}
	return vars, nil
}
