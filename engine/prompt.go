package engine

import (
	"context"
	"strings"
)

// A PromptInfo is a task of the library offered as a prompt: its
// arguments are the task's inputs.
type PromptInfo struct {
	Name        string
	Description string
	File        string // the library file that defines it
	Args        []PromptArg
}

// A PromptArg is one argument of a prompt: an input of its task, required
// when it has no default and is not bound from an earlier step.
type PromptArg struct {
	Name, Description string
	Required          bool
}

// Prompts lists the library's tasks as prompts. A name met twice is
// offered once, as a lookup by name finds the first. A library file that
// does not validate offers no prompt and says nothing here (ListTasks
// warns of it; a prompt of its task fails naming it).
func (e *Engine) Prompts() ([]PromptInfo, error) {
	tasks, err := e.ListTasks()
	if err != nil {
		return nil, err
	}
	var out []PromptInfo
	seen := map[string]bool{}
	for _, t := range tasks.Tasks {
		if seen[t.Name] {
			continue
		}
		seen[t.Name] = true
		p := PromptInfo{Name: t.Name, Description: t.Description, File: t.File}
		for _, in := range t.Inputs {
			p.Args = append(p.Args, PromptArg{Name: in.Name, Description: in.Description,
				Required: !in.HasDefault && in.From == ""})
		}
		out = append(out, p)
	}
	return out, nil
}

// PromptRequest names a prompt's task and binds its inputs.
type PromptRequest struct {
	Template string   // the library file
	Task     string   // the task
	Vars     []string // KEY=VALUE inputs
}

// PromptResult is a prompt's text: the task's description, instructions
// and context document (markdown), its inputs bound.
type PromptResult struct {
	Text        string
	Description string
	Report
}

// Prompt composes the prompt of a task.
func (e *Engine) Prompt(ctx context.Context, req PromptRequest) (*PromptResult, error) {
	var ws warnings
	res, err := e.prompt(ctx, req, &ws)
	return done(res, err, ws)
}

func (e *Engine) prompt(ctx context.Context, req PromptRequest, ws *warnings) (*PromptResult, error) {
	// What loading the task says, assembling it says again: once is
	// enough.
	var loading warnings
	_, t, bound, err := e.loadTask(&loading, req.Template, req.Task, req.Vars)
	if err != nil {
		return nil, withWarnings(err, loading)
	}
	bt, err := t.Bind(bound)
	if err != nil {
		return nil, e.bindError(err)
	}
	res, err := e.assemble(ctx, AssembleRequest{Template: req.Template, Task: req.Task, Vars: req.Vars, Style: "markdown"}, ws)
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	b.WriteString(bt.Description + "\n")
	if bt.Instructions != "" {
		b.WriteString("\n" + bt.Instructions + "\n")
	}
	b.WriteString("\n")
	if err := res.Document.Render(&b, "markdown"); err != nil {
		return nil, err
	}
	return &PromptResult{Text: b.String(), Description: bt.Description}, nil
}
