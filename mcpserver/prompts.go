package mcpserver

import (
	"context"
	"sort"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/taskctl/taskctl/engine"
)

// addPrompts makes each task of the project's task library a prompt: its
// arguments are the task's inputs (required when they have no default and
// are not bound from an earlier step), its messages the task's
// description, instructions and assembled context. A name met twice is
// served once, as a lookup by name finds the first.
func (s *Server) addPrompts() error {
	s.mu.Lock()
	tasks, err := s.eng.ListTasks()
	s.eng.TakeWarnings()
	s.mu.Unlock()
	if err != nil {
		return err
	}
	seen := map[string]bool{}
	for _, t := range tasks.Tasks {
		if seen[t.Name] {
			continue
		}
		seen[t.Name] = true
		p := &mcp.Prompt{Name: t.Name, Title: t.Name, Description: t.Description}
		for _, in := range t.Inputs {
			p.Arguments = append(p.Arguments, &mcp.PromptArgument{Name: in.Name, Description: in.Description,
				Required: !in.HasDefault && in.From == ""})
		}
		s.srv.AddPrompt(p, s.prompt(t.File, t.Name))
	}
	return nil
}

// prompt returns the handler of the prompt of task name in file.
func (s *Server) prompt(file, name string) mcp.PromptHandler {
	return func(ctx context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		vars := make([]string, 0, len(req.Params.Arguments))
		for k, v := range req.Params.Arguments {
			vars = append(vars, k+"="+v)
		}
		sort.Strings(vars)
		s.mu.Lock()
		defer s.mu.Unlock()
		s.eng.TakeWarnings()
		s.eng.SyncChanges(ctx)
		text, desc, err := promptText(ctx, s.eng, file, name, vars)
		warns := s.eng.TakeWarnings()
		if err != nil {
			return nil, toolError(err, warns)
		}
		if len(warns) > 0 {
			text += "\n\n" + warningText(warns)
		}
		return &mcp.GetPromptResult{Description: desc, Messages: []*mcp.PromptMessage{
			{Role: "user", Content: &mcp.TextContent{Text: text}},
		}}, nil
	}
}

// promptText is a task's description, instructions and context document
// (markdown), its inputs bound to vars.
func promptText(ctx context.Context, e *engine.Engine, file, name string, vars []string) (text, desc string, err error) {
	_, t, bound, err := e.LoadTask(file, name, vars)
	if err != nil {
		return "", "", err
	}
	bt, err := t.Bind(bound)
	if err != nil {
		return "", "", engine.UsageError("%v", err)
	}
	res, err := e.Assemble(ctx, engine.AssembleRequest{Template: file, Task: name, Vars: vars, Style: "markdown"})
	if err != nil {
		return "", "", err
	}
	var b strings.Builder
	b.WriteString(bt.Description + "\n")
	if bt.Instructions != "" {
		b.WriteString("\n" + bt.Instructions + "\n")
	}
	b.WriteString("\n")
	if err := res.Document.Render(&b, "markdown"); err != nil {
		return "", "", err
	}
	return b.String(), bt.Description, nil
}
