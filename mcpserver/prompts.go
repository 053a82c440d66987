package mcpserver

import (
	"context"
	"sort"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/taskctl/taskctl/engine"
	"github.com/taskctl/taskctl/internal/diag"
)

// addPrompts makes each task of the project's task library a prompt
// (engine.Prompts: its arguments are the task's inputs), whose messages
// are what engine.Prompt composes.
func (s *Server) addPrompts() error {
	prompts, err := s.eng.Prompts() // before serving: nothing runs beside it
	s.eng.TakeWarnings()
	if err != nil {
		return err
	}
	for _, pi := range prompts {
		p := &mcp.Prompt{Name: pi.Name, Title: pi.Name, Description: pi.Description}
		for _, a := range pi.Args {
			p.Arguments = append(p.Arguments, &mcp.PromptArgument{Name: a.Name, Description: a.Description, Required: a.Required})
		}
		s.srv.AddPrompt(p, s.prompt(pi.File, pi.Name))
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
		release, err := s.exclusive(ctx)
		if err != nil {
			return nil, promptError(err, nil)
		}
		defer release()
		s.eng.TakeWarnings()
		s.eng.SyncChanges(ctx)
		res, err := s.eng.Prompt(ctx, engine.PromptRequest{Template: file, Task: name, Vars: vars})
		warns := s.eng.TakeWarnings()
		if err != nil {
			return nil, promptError(err, warns)
		}
		text := res.Text
		if len(warns) > 0 {
			text += "\n\n" + warningText(warns)
		}
		return &mcp.GetPromptResult{Description: res.Description, Messages: []*mcp.PromptMessage{
			{Role: "user", Content: &mcp.TextContent{Text: text}},
		}}, nil
	}
}

// promptError is the JSON-RPC error of a prompt that could not be made:
// invalid params when the arguments were wrong (a required input missing,
// an unknown one), an internal error otherwise; its message is the tool
// error's, "CODE: message".
func promptError(err error, warns []diag.Warning) error {
	code := int64(jsonrpc.CodeInternalError)
	if c := engine.Classify(err).Class; c == engine.ClassUsage || c == engine.ClassNotFound {
		code = jsonrpc.CodeInvalidParams
	}
	return &jsonrpc.Error{Code: code, Message: toolError(err, warns).Error()}
}
