package template

import (
	"strconv"
	"strings"
)

// The elements of a director_evaluator_loop and of a reduce task, in the
// order the schema wants them after <output_format>.
var (
	loopElements   = []string{"max_iterations", "time_budget", "director", "script_execution", "evaluator"}
	reduceElements = []string{"items", "inner_task", "reduction_task"}
)

// Implicit inputs: what a task's role gives it each time it runs.
var implicitInputs = map[string][]Input{
	RoleDirector: {
		{Name: "iteration", Doc: "the number of this iteration, from 1"},
		{Name: "max_iterations", Doc: "the most iterations the loop runs"},
		{Name: "feedback", Doc: "the evaluator's feedback on the previous iteration (empty on the first)"},
	},
	RoleEvaluator: {
		{Name: "iteration", Doc: "the number of this iteration, from 1"},
		{Name: "director_output", Doc: "what the director printed in this iteration"},
	},
	RoleInner: {
		{Name: "item", Doc: "the item this run of the task is for"},
		{Name: "item_index", Doc: "the item's place in the list, from 1"},
	},
	RoleReduction: {
		{Name: "item_count", Doc: "how many items the list held"},
	},
}

// scriptInputs are the evaluator's implicit inputs when its loop runs a
// script.
var scriptInputs = []Input{
	{Name: "script_command", Doc: "the script's command line"},
	{Name: "script_exit_status", Doc: "the script's exit status, or \"timeout\""},
	{Name: "script_stdout", Doc: "what the script printed on stdout (capped)"},
	{Name: "script_stderr", Doc: "what the script printed on stderr (capped)"},
}

// addImplicit appends the inputs t's role gives it that its template does
// not declare; each has the empty default, so Bind never wants a value for
// it, and the workflow engine sets it as the task runs.
func addImplicit(t *Task, extra []Input, at Pos) {
	for _, in := range extra {
		declared := false
		for _, x := range t.Inputs {
			declared = declared || x.Name == in.Name
		}
		if declared {
			continue
		}
		in.HasDefault, in.Implicit, in.Pos = true, true, at
		t.Inputs = append(t.Inputs, in)
	}
}

// role decodes the task element n (a <director>, <evaluator>, <inner_task>
// or <reduction_task>) as an atomic task of role in t.
func (d *decoder) role(n *node, t *Task, depth int, role string) *Task {
	if depth+1 > MaxDepth {
		d.errorf(n.pos, "task nested %d deep: the limit is %d", depth+1, MaxDepth)
		return nil
	}
	c := d.task(n, t, depth+1)
	c.Role = role
	addImplicit(c, implicitInputs[role], n.pos)
	t.Steps = append(t.Steps, c)
	return c
}

// loop decodes the elements of a director_evaluator_loop.
func (d *decoder) loop(n *node, t *Task, depth int) {
	spec := &LoopSpec{MaxIterations: DefaultMaxIterations, Pos: t.Pos}
	t.Loop = spec
	if c := n.child("max_iterations"); c != nil {
		spec.Pos = c.pos
		spec.MaxIterations = d.intText(c, 1, MaxIterationsLimit)
	}
	if c := n.child("time_budget"); c != nil {
		spec.TimeBudget = d.intText(c, 1, 1<<30)
	}
	dir, ev := n.child("director"), n.child("evaluator")
	if dir == nil || ev == nil {
		d.errorf(t.Pos, "director_evaluator_loop %q needs a <director> and an <evaluator>", t.Name)
	}
	if c := n.child("script_execution"); c != nil {
		s := &ScriptSpec{Pos: c.pos}
		if cmd := c.child("command"); cmd != nil {
			s.Command = strings.TrimSpace(cmd.text.String())
			s.Pos = cmd.pos
			s.Timeout = d.intAttr(cmd, "timeout", 1)
		}
		if s.Command == "" {
			d.errorf(s.Pos, "<script_execution> needs a non-empty <command>")
		}
		spec.Script = s
	}
	if dir != nil {
		d.role(dir, t, depth, RoleDirector)
	}
	if ev != nil {
		if e := d.role(ev, t, depth, RoleEvaluator); e != nil {
			if spec.Script != nil {
				addImplicit(e, scriptInputs, ev.pos)
			}
			switch {
			case e.Output == nil:
				// The verdict is JSON whether or not the template says so.
				e.Output = &OutputFormat{Type: "json", Schema: "object", Pos: ev.pos}
			case e.Output.Type != "json":
				d.errorAt(d.attrOff(e.Output.Pos, "type"), "an evaluator's output_format is json (a verdict {\"success\": bool, \"feedback\": string}), not %q", e.Output.Type)
			}
		}
	}
	d.noElements(n, t, reduceElements)
}

// reduce decodes the elements of a reduce task.
func (d *decoder) reduce(n *node, t *Task, depth int) {
	spec := &ReduceSpec{Parallelism: DefaultParallelism, MaxTokens: DefaultReduceTokens, Pos: t.Pos}
	t.Reduce = spec
	if c := n.child("items"); c != nil {
		spec.Pos = c.pos
		v, _ := c.attr("source")
		spec.Source = strings.TrimSpace(v)
		spec.From, _ = c.attr("from")
		spec.From = strings.TrimSpace(spec.From)
		spec.Var, _ = c.attr("var")
		spec.Var = strings.TrimSpace(spec.Var)
		if p := d.intAttr(c, "parallelism", 1); p > 0 {
			spec.Parallelism = p
		}
		if m := d.intAttr(c, "max_tokens", 1); m > 0 {
			spec.MaxTokens = m
		}
		spec.MaxItems = d.intAttr(c, "max_items", 1)
	} else {
		d.errorf(t.Pos, "reduce task %q needs <items>", t.Name)
	}
	in, red := n.child("inner_task"), n.child("reduction_task")
	if in == nil || red == nil {
		d.errorf(t.Pos, "reduce task %q needs an <inner_task> and a <reduction_task>", t.Name)
	}
	if in != nil {
		d.role(in, t, depth, RoleInner)
	}
	if red != nil {
		d.role(red, t, depth, RoleReduction)
	}
	d.noElements(n, t, loopElements)
}

// noFlowElements reports the loop and reduce elements of a task of another
// type.
func (d *decoder) noFlowElements(n *node, t *Task) {
	d.noElements(n, t, loopElements)
	d.noElements(n, t, reduceElements)
}

func (d *decoder) noElements(n *node, t *Task, names []string) {
	for _, name := range names {
		if c := n.child(name); c != nil {
			want := TypeLoop
			if name == "items" || name == "inner_task" || name == "reduction_task" {
				want = TypeReduce
			}
			d.errorf(c.pos, "<%s> is only allowed on type=%q tasks (task %q is %s)", name, want, t.Name, t.Type)
		}
	}
}

// intText reads the integer text of n, which must lie in [lo, hi].
func (d *decoder) intText(n *node, lo, hi int) int {
	v := strings.TrimSpace(n.text.String())
	i, err := strconv.Atoi(v)
	if err != nil || i < lo || i > hi {
		d.errorf(n.pos, "<%s>%s</%s>: want an integer from %d to %d", n.name, v, n.name, lo, hi)
		return lo
	}
	return i
}

// checkFlow checks what a loop or a reduce says of other tasks: the step a
// reduce's lines come from and the input its var items are.
func (d *decoder) checkFlow(t *Task) {
	r := t.Reduce
	if r == nil {
		return
	}
	at := d.at(r.Pos)
	switch r.Source {
	case ItemsFiles:
		if len(t.Sources) == 0 {
			d.errorAt(at, "items source=\"files\" lists the files of the reduce task's own <file_paths>, and %q has none", t.Name)
		}
	case ItemsLines:
		m := fromRE.Re().FindStringSubmatch(r.From)
		if m == nil {
			d.errorAt(d.attrOff(r.Pos, "from"), "items source=\"lines\" needs from=\"STEP.output\" (or .notes.KEY, .parsed.a.b, .files), not %q", r.From)
			break
		}
		if found, before := d.finishesBefore(m[1], t); !before {
			what := "names no step"
			if found {
				what = "names a step that does not finish before this task starts:"
			}
			d.errorAt(d.attrOff(r.Pos, "from"), "items from=%q %s %q", r.From, what, m[1])
		}
	case ItemsVar:
		if !scope(t)[r.Var] {
			d.errorAt(d.attrOff(r.Pos, "var"), "items source=\"var\" var=%q: no input of that name is declared on this task or around it", r.Var)
		}
	default:
		d.errorAt(d.attrOff(r.Pos, "source"), "items source=%q: want files, lines or var", r.Source)
	}
	if r.Source != ItemsLines && r.From != "" {
		d.errorAt(d.attrOff(r.Pos, "from"), "items from applies only to source=\"lines\"")
	}
	if r.Source != ItemsVar && r.Var != "" {
		d.errorAt(d.attrOff(r.Pos, "var"), "items var applies only to source=\"var\"")
	}
	if r.Parallelism > MaxParallelism {
		d.errorAt(d.attrOff(r.Pos, "parallelism"), "items parallelism=%d: the most is %d", r.Parallelism, MaxParallelism)
	}
}
