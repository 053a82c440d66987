package template

import (
	"fmt"
	"strings"
)

// maxBound bounds the bytes {{...}} substitution may produce in one Bind.
// Defaults that use one another twice over double at every input; without a
// bound, forty of them ask for a terabyte.
const maxBound = 64 << 20

// Bind returns a deep copy of t with {{name}} substituted in its text
// (description, instructions, path values and description sources — never in
// <command>). A value comes from vars, else from the input's default, in
// which the other inputs are substituted whatever order they are declared in
// (a default that leads back to its own input takes that input's value from
// the tasks around, else is an error; Parse refuses such defaults). The
// inputs of the sequential tasks around t are visible too: their values from
// vars, else the values Bind gave their task, else their defaults. An input
// of t with neither a var nor a default nor a from binding is an
// *InputError. An input bound with from and not in vars is pending: it is
// substituted with "<pending: FROM>" (the workflow engine supplies its value
// through vars when the step runs). Steps are copied but not bound: each is
// bound when its turn comes.
//
// A var that no input visible in t declares is ignored, not an error: the
// workflow engine passes the same vars to every step, and a var may be meant
// for another one. To tell a user about a var nothing declares (a mistyped
// --var would otherwise do nothing at all), compare its keys with those of
// Declared, as the CLI does (a warning, UNKNOWN_VAR; --strict makes it
// fatal).
//
// The bound values of t's inputs and of the inputs around it are returned
// by Vars; commands read them as shell variables.
func (t *Task) Bind(vars map[string]string) (*Task, error) {
	c, err := t.bind(vars)
	if err != nil {
		if _, ok := err.(*InputError); ok {
			return nil, err
		}
		return nil, fmt.Errorf("task %q: %w", t.Name, err)
	}
	return c, nil
}

func (t *Task) bind(vars map[string]string) (*Task, error) {
	sub := &substituter{budget: maxBound}
	vals := map[string]string{}
	// Enclosing tasks first, so t's own inputs win.
	var chain []*Task
	for x := t.parent; x != nil; x = x.parent {
		chain = append(chain, x)
	}
	for i := len(chain) - 1; i >= 0; i-- {
		x := chain[i]
		defs := map[string]string{}
		for _, in := range x.Inputs {
			// A var wins even over the value the task was bound with:
			// that value may be pending, and the var is its result.
			if v, ok := vars[in.Name]; ok {
				vals[in.Name] = v
			} else if v, ok := x.bound[in.Name]; ok {
				vals[in.Name] = v
			} else if in.HasDefault {
				defs[in.Name] = in.Default
			}
		}
		if err := sub.defaults(x.Inputs, defs, vals); err != nil {
			return nil, err
		}
	}
	defs := map[string]string{}
	for _, in := range t.Inputs {
		switch v, ok := vars[in.Name]; {
		case ok:
			vals[in.Name] = v
		case in.HasDefault:
			defs[in.Name] = in.Default
		case in.From != "":
			vals[in.Name] = "<pending: " + in.From + ">"
		default:
			if _, outer := vals[in.Name]; outer {
				continue
			}
			return nil, &InputError{Task: t.Name, Input: in.Name, Pos: in.Pos, File: t.file()}
		}
	}
	if err := sub.defaults(t.Inputs, defs, vals); err != nil {
		return nil, err
	}
	c := t.clone(t.parent)
	c.bound = vals
	var err error
	lookup := func(name string) (string, bool) {
		v, ok := vals[name]
		return v, ok
	}
	text := func(field *string, what string) {
		if err == nil {
			if *field, err = sub.text(*field, lookup); err != nil {
				err = fmt.Errorf("%s is %w", what, err)
			}
		}
	}
	text(&c.Description, "description")
	text(&c.Instructions, "instructions")
	for i := range c.Sources {
		s := &c.Sources[i]
		for j := range s.Paths {
			text(&s.Paths[j].Value, "path")
		}
		text(&s.Description, "description source")
	}
	if err != nil {
		return nil, err
	}
	return c, nil
}

// Vars returns the values Bind gave t's inputs and those of the tasks around
// it; nil before Bind.
func (t *Task) Vars() map[string]string {
	if t.bound == nil {
		return nil
	}
	out := make(map[string]string, len(t.bound))
	for k, v := range t.bound {
		out[k] = v
	}
	return out
}

// Declared reports every input name visible anywhere in t: its own, those of
// its steps (recursively) and those of the tasks around it. The CLI uses it to
// spot a --var no input declares.
func (t *Task) Declared() map[string]bool {
	out := scope(t)
	walk(t.Steps, func(s *Task) {
		for _, in := range s.Inputs {
			out[in.Name] = true
		}
	})
	return out
}

// substituter replaces {{name}} references within a budget of bytes.
type substituter struct{ budget int }

// text replaces each {{name}} in s for which value has a value.
func (sub *substituter) text(s string, value func(name string) (string, bool)) (string, error) {
	if !strings.Contains(s, "{{") {
		return s, nil
	}
	over := false
	out := varRE.Re().ReplaceAllStringFunc(s, func(m string) string {
		v, ok := value(varRE.Re().FindStringSubmatch(m)[1])
		if !ok || over {
			return m
		}
		if sub.budget -= len(v); sub.budget < 0 {
			over = true
			return m
		}
		return v
	})
	if over {
		return "", fmt.Errorf("longer than Bind allows (%d bytes in all) after {{...}} substitution", maxBound)
	}
	return out, nil
}

// defaults puts into vals the inputs of defs (name to default), each default
// substituted with vals and with the other defaults, whichever of inputs is
// declared first. A reference that leads back to the default being resolved
// takes the value from the tasks around, if any, else is an error.
func (sub *substituter) defaults(inputs []Input, defs, vals map[string]string) error {
	const resolving, done = 1, 2
	state := map[string]int{}
	var err error
	var resolve func(name string) (string, bool)
	resolve = func(name string) (string, bool) {
		switch state[name] {
		case done:
			return vals[name], true
		case resolving:
			// A default that leads back to its own input: the value
			// from around the task, if any. (Parse refuses the
			// others; a Task built by hand may still hold one.)
			v, ok := vals[name]
			if !ok && err == nil {
				err = fmt.Errorf("default of input %q leads back to itself: its value would never be known", name)
			}
			return v, ok
		}
		state[name] = resolving
		v, e := sub.text(defs[name], func(ref string) (string, bool) {
			if _, ok := defs[ref]; ok {
				return resolve(ref)
			}
			v, ok := vals[ref]
			return v, ok
		})
		if e != nil && err == nil {
			err = fmt.Errorf("default of input %q is %w", name, e)
		}
		vals[name], state[name] = v, done
		return v, err == nil
	}
	for _, in := range inputs {
		if _, ok := defs[in.Name]; ok && err == nil {
			resolve(in.Name)
		}
	}
	return err
}

// clone deep-copies t and its steps, giving the copy parent.
func (t *Task) clone(parent *Task) *Task {
	c := *t
	c.parent = parent
	c.Inputs = append([]Input(nil), t.Inputs...)
	c.Context.Inherit = clonePtr(t.Context.Inherit)
	c.Context.Accumulate = clonePtr(t.Context.Accumulate)
	c.Context.Format = clonePtr(t.Context.Format)
	c.Context.Fresh = clonePtr(t.Context.Fresh)
	c.Sources = make([]FileSource, len(t.Sources))
	for i, s := range t.Sources {
		s.Paths = append([]PathSpec(nil), s.Paths...)
		s.Include = append([]string(nil), s.Include...)
		s.Exclude = append([]string(nil), s.Exclude...)
		c.Sources[i] = s
	}
	if t.Output != nil {
		o := *t.Output
		c.Output = &o
	}
	c.Steps = nil
	for _, s := range t.Steps {
		c.Steps = append(c.Steps, s.clone(&c))
	}
	return &c
}

func clonePtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

func (t *Task) file() string { return rootOf(t).path }
