package template

import (
	"errors"
	"fmt"

	"github.com/taskctl/taskctl/internal/diag"
	"github.com/taskctl/taskctl/internal/lazyregexp"
	"github.com/taskctl/taskctl/internal/xmltext"
)

// Parse decodes a template file and checks the rules the XSD cannot hold:
// unique task names, the source attribute matching the child of file_paths,
// context-management exclusivity, every {{var}} declared (a step may use the
// inputs of the sequential tasks around it), no {{...}} inside <command>,
// steps only on sequential tasks (nesting at most MaxDepth), unique input
// names, and input bindings (from) naming a step that finishes earlier. If
// there is an error, it is an *Error listing every problem with file:line:col.
// Parse never panics, whatever data holds.
//
// data is UTF-8, with or without a byte-order mark, or UTF-16 with one, as
// package schema reads it (internal/xmltext decodes it for both).
func Parse(filename string, data []byte) (*File, error) {
	data, err := xmltext.Decode(data)
	if err != nil {
		p := diag.Problem{File: filename, Line: 1, Col: 1, Message: err.Error()}
		var xe *xmltext.Error
		if errors.As(err, &xe) {
			p.Line, p.Col, p.Message = xe.Line, xe.Col, xe.Msg
		}
		return nil, &Error{Problems: []diag.Problem{p}}
	}
	d := &decoder{file: filename, data: data, pos: &positioner{data: data}, nodes: map[Pos]*node{}}
	root, off, err := parseTree(data, d.pos, d.nodes)
	if err != nil {
		d.errorAt(off, "%v", err)
		return nil, &Error{Problems: d.resolve(d.problems)}
	}
	f := &File{Path: filename}
	switch root.name {
	case "task":
		f.Tasks = []*Task{d.task(root, nil, 1)}
	case "tasks":
		for _, n := range root.all("task") {
			f.Tasks = append(f.Tasks, d.task(n, nil, 1))
		}
		if len(f.Tasks) == 0 {
			d.errorf(root.pos, "<tasks> holds no <task>")
		}
	default:
		d.errorf(root.pos, "root element <%s>: want <task> or <tasks>", root.name)
		return nil, &Error{Problems: d.resolve(d.problems)}
	}
	d.check(f)
	f.Warnings = d.resolve(d.warnings)
	if len(d.problems) > 0 {
		return nil, &Error{Problems: d.resolve(d.problems)}
	}
	return f, nil
}

var varRE = lazyregexp.New(`\{\{\s*([^{}\s]*)\s*\}\}`)
var identRE = lazyregexp.New(`^[A-Za-z_][A-Za-z0-9_-]*$`)
var fromRE = lazyregexp.New(`^([A-Za-z_][A-Za-z0-9_-]*)\.(output|files|notes(\.[^.\s]+)*|parsed(\.[^.\s]+)*)$`)

func (d *decoder) check(f *File) {
	names := map[string]Pos{}
	walk(f.Tasks, func(t *Task) {
		if t.Name == "" {
			return
		}
		if p, dup := names[t.Name]; dup {
			d.errorAt(d.attrOff(t.Pos, "name"), "task name %q is already used by the task at line %d, column %d", t.Name, p.Line, p.Col)
			return
		}
		names[t.Name] = t.Pos
	})
	d.number(f)
	for _, t := range f.Tasks {
		d.checkTask(t)
	}
}

// span places a task in the pre-order of its top-level task: pre is its own
// index, end the last index of its subtree.
type span struct {
	root     *Task
	pre, end int
}

// number gives every task its span and indexes the tasks by name (the first
// of a name; duplicates are reported), so that checking a from binding costs
// the same whatever the size of the file.
func (d *decoder) number(f *File) {
	d.spans = map[*Task]span{}
	d.named = map[string]*Task{}
	for _, r := range f.Tasks {
		n := 0
		var visit func(t *Task)
		visit = func(t *Task) {
			pre := n
			n++
			if _, ok := d.named[t.Name]; !ok && t.Name != "" {
				d.named[t.Name] = t
			}
			for _, s := range t.Steps {
				visit(s)
			}
			d.spans[t] = span{root: r, pre: pre, end: n - 1}
		}
		visit(r)
	}
}

// scope returns the input names visible in t: its own and those of the
// sequential tasks around it.
func scope(t *Task) map[string]bool {
	s := map[string]bool{}
	for x := t; x != nil; x = x.parent {
		for _, in := range x.Inputs {
			s[in.Name] = true
		}
	}
	return s
}

// finishesBefore reports whether the task named step finishes before t
// starts: it is an earlier sibling of t or of a sequential task around t, or
// inside one. In pre-order, that is a task of the same top-level task whose
// whole subtree comes before t.
func (d *decoder) finishesBefore(step string, t *Task) (found, before bool) {
	y, ok := d.named[step]
	if !ok || d.spans[y].root != d.spans[t].root {
		return false, false
	}
	return true, d.spans[y].end < d.spans[t].pre
}

// checkTask checks one task and then its steps: its head, its inputs and
// their bindings, the variables its text uses, its sources, its context
// settings and its output format.
func (d *decoder) checkTask(t *Task) {
	d.checkHead(t)
	d.checkInputs(t)
	vis := scope(t)
	d.checkVars(vis, t.Description, d.textAt(t.DescriptionPos), "description")
	d.checkVars(vis, t.Instructions, d.textAt(t.InstructionsPos), "instructions")
	for _, in := range t.Inputs {
		if in.HasDefault {
			d.checkVars(vis, in.Default, d.valueAt(in.Pos, "default"), fmt.Sprintf("default of input %q", in.Name))
		}
	}
	d.checkDefaultCycles(t)
	d.checkSources(t, vis)
	d.checkContext(t)
	if t.Output != nil {
		switch t.Output.Type {
		case "json", "text":
		default:
			d.errorAt(d.attrOff(t.Output.Pos, "type"), "output_format type=%q: want json or text", t.Output.Type)
		}
	}
	d.checkFlow(t)
	for _, s := range t.Steps {
		d.checkTask(s)
	}
}

// checkHead checks the task's description, type and role.
func (d *decoder) checkHead(t *Task) {
	if t.Description == "" {
		d.errorf(t.Pos, "task %q has an empty <description>", t.Name)
	}
	switch t.Type {
	case TypeAtomic, TypeSequential, TypeLoop, TypeReduce:
	default:
		d.errorAt(d.attrOff(t.Pos, "type"), "task type %q: want atomic, sequential, director_evaluator_loop or reduce", t.Type)
	}
	if t.Role != "" && t.Type != TypeAtomic {
		d.errorAt(d.attrOff(t.Pos, "type"), "<%s> is an atomic task, not %s", t.Role, t.Type)
	}
}

// checkInputs checks the inputs' names and that each from= names a step
// that finishes before t starts.
func (d *decoder) checkInputs(t *Task) {
	seen := map[string]bool{}
	for _, in := range t.Inputs {
		if !identRE.Re().MatchString(in.Name) {
			d.errorAt(d.attrOff(in.Pos, "name"), "input name %q: want a letter or _ then letters, digits, _ or -", in.Name)
		}
		if seen[in.Name] {
			d.errorAt(d.attrOff(in.Pos, "name"), "input %q is declared twice", in.Name)
		}
		seen[in.Name] = true
		if in.From != "" {
			d.checkBinding(t, in)
		}
	}
}

// checkBinding checks the from= of one input of t.
func (d *decoder) checkBinding(t *Task, in Input) {
	from := d.attrOff(in.Pos, "from")
	if in.HasDefault {
		d.errorAt(d.attrOff(in.Pos, "default"), "input %q has both from and default: a bound input takes its value from the step", in.Name)
	}
	m := fromRE.Re().FindStringSubmatch(in.From)
	if m == nil {
		d.errorAt(from, "input %q: from=%q: want STEP.output, STEP.files, STEP.notes.KEY or STEP.parsed.a.b", in.Name, in.From)
		return
	}
	step := m[1]
	found, before := d.finishesBefore(step, t)
	switch {
	case step == t.Name:
		d.errorAt(from, "input %q: from=%q names the task itself", in.Name, in.From)
	case before && d.insideFlow(d.named[step], t) != nil:
		flow := d.insideFlow(d.named[step], t)
		d.errorAt(from, "input %q: from=%q names step %q of %s %q, which runs it many times: bind %s.output (its result) instead", in.Name, in.From, step, flow.Type, flow.Name, flow.Name)
	case before:
	case found:
		d.errorAt(from, "input %q: from=%q names step %q, which does not finish before this task starts", in.Name, in.From, step)
	default:
		d.errorAt(from, "input %q: from=%q names no step %q", in.Name, in.From, step)
	}
}

// checkVars reports the {{...}} of text that name no input in vis; off
// gives the offset in the data of byte i of text.
func (d *decoder) checkVars(vis map[string]bool, text string, off func(i int) int64, where string) {
	for _, m := range varRE.Re().FindAllStringSubmatchIndex(text, -1) {
		name := text[m[2]:m[3]]
		if !identRE.Re().MatchString(name) {
			d.errorAt(off(m[0]), "%s: {{%s}} is not a valid variable name", where, name)
			continue
		}
		if !vis[name] {
			d.errorAt(off(m[0]), "%s uses {{%s}}, which is not a declared input", where, name)
		}
	}
}

// checkSources checks the task's file_paths: no empty path, command or
// description, and no {{...}} inside a command (inputs are shell variables
// there).
func (d *decoder) checkSources(t *Task, vis map[string]bool) {
	for _, s := range t.Sources {
		for _, p := range s.Paths {
			if p.Value == "" {
				d.errorf(p.Pos, "empty <path>")
			}
			d.checkVars(vis, p.Value, d.textAt(p.Pos), "path")
		}
		if s.Kind == SourceCommand {
			at := d.textAt(s.CommandPos)
			for _, m := range varRE.Re().FindAllStringSubmatchIndex(s.Command, -1) {
				name := s.Command[m[2]:m[3]]
				hint := fmt.Sprintf("read the input as the shell variable \"$%s\"", name)
				if !identRE.Re().MatchString(name) {
					hint = "read inputs as shell variables, e.g. \"$name\""
				}
				d.errorAt(at(m[0]), "%s is not substituted inside <command>: %s", s.Command[m[0]:m[1]], hint)
			}
			if s.Command == "" && len(s.Paths) == 0 && s.Description == "" {
				d.errorf(s.Pos, "empty <command>")
			}
		}
		if s.Kind == SourceDescription {
			d.checkVars(vis, s.Description, d.textAt(s.DescriptionPos), "description source")
			if s.Description == "" && len(s.Paths) == 0 && s.Command == "" {
				d.errorf(s.Pos, "empty <description> in file_paths")
			}
		}
	}
}

// checkContext checks the task's context settings against each other, and
// warns of a task whose context will be empty.
func (d *decoder) checkContext(t *Task) {
	c := t.EffectiveContext()
	cp := t.Context.Pos
	if cp.Line == 0 {
		cp = t.Pos
	}
	if c.Fresh == "enabled" && c.Inherit != InheritNone {
		// Fresh is disabled by default, so it was set: point there.
		d.errorf(t.Context.FreshPos, "fresh_context=enabled needs inherit_context=none (it is %s): a task either inherits its parent's context or looks for fresh context", c.Inherit)
	}
	if t.Context.Format != nil && !c.Accumulate && t.Context.Accumulate != nil {
		d.warnf(t.Context.FormatPos, diag.ContextUnusedSetting, "accumulation_format is set but accumulate_data is false")
	}
	if c.Inherit == InheritNone && !c.Accumulate && !seesEarlierResults(t) && c.Fresh == "disabled" && len(t.Sources) == 0 && t.Type == "atomic" {
		d.warnf(cp, diag.EmptyContext, "task %q inherits nothing, accumulates nothing, has fresh context disabled and no file_paths: its context will be empty", t.Name)
	}
}

// checkDefaultCycles reports a default that leads back to its own input
// through the defaults of its task ({{a}} in the default of a, or a → b →
// a), unless the tasks around declare that input: then the reference means
// their value, as Bind takes it.
func (d *decoder) checkDefaultCycles(t *Task) {
	defs := map[string]int{} // name → index in t.Inputs
	for i, in := range t.Inputs {
		if _, dup := defs[in.Name]; in.HasDefault && !dup {
			defs[in.Name] = i
		}
	}
	if len(defs) == 0 {
		return
	}
	outer := map[string]bool{}
	if t.parent != nil {
		outer = scope(t.parent)
	}
	const resolving, done = 1, 2
	state := map[string]int{}
	var visit func(name string)
	visit = func(name string) {
		state[name] = resolving
		in := t.Inputs[defs[name]]
		reported := false
		for _, m := range varRE.Re().FindAllStringSubmatchIndex(in.Default, -1) {
			ref := in.Default[m[2]:m[3]]
			if _, ok := defs[ref]; !ok {
				continue
			}
			switch state[ref] {
			case resolving:
				if !outer[ref] && !reported {
					reported = true // once an input is enough
					d.errorAt(d.valueAt(in.Pos, "default")(m[0]),
						"default of input %q leads back to input %q through {{%s}}: the value would never be known", name, ref, ref)
				}
			case 0:
				visit(ref)
			}
		}
		state[name] = done
	}
	for _, in := range t.Inputs {
		if _, ok := defs[in.Name]; ok && state[in.Name] == 0 {
			visit(in.Name)
		}
	}
}

// insideFlow returns the loop or reduce that holds step when t is not
// inside it too: a step t cannot bind, since the loop (the reduce) runs it
// many times; nil otherwise.
func (d *decoder) insideFlow(step, t *Task) *Task {
	if step == nil {
		return nil
	}
	for p := step.parent; p != nil; p = p.parent {
		if p.Type != TypeLoop && p.Type != TypeReduce {
			continue
		}
		for x := t; x != nil; x = x.parent {
			if x == p {
				return nil
			}
		}
		return p
	}
	return nil
}

func rootOf(t *Task) *Task {
	for t.parent != nil {
		t = t.parent
	}
	return t
}

// InputError is a required input that nothing sets.
type InputError struct {
	Task, Input string
	File        string
	Pos         Pos
}

func (e *InputError) Error() string {
	return fmt.Sprintf("missing required input %q of task %q (declared at %s:%d:%d): set it with --var %s=VALUE",
		e.Input, e.Task, e.File, e.Pos.Line, e.Pos.Col, e.Input)
}

// seesEarlierResults reports whether t's prompt holds the results of steps
// that finished before it (a previous_outputs section): its enclosing
// sequential task accumulates, and t or a sequential task around it has an
// earlier sibling. This is how the workflow engine hands history down.
func seesEarlierResults(t *Task) bool {
	if t.parent == nil || !t.parent.EffectiveContext().Accumulate {
		return false
	}
	for x := t; x.parent != nil; x = x.parent {
		if len(x.parent.Steps) > 0 && x.parent.Steps[0] != x {
			return true
		}
	}
	return false
}
