package mcpserver

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/taskctl/taskctl/engine"
	"github.com/taskctl/taskctl/internal/diag"
)

// addPrompts makes each task of the project's task library a prompt
// (engine.Prompts: its arguments are the task's inputs), whose messages
// are what engine.Prompt composes. Prompts of tasks that are gone are
// removed; the SDK tells the clients (notifications/prompts/list_changed)
// when the list changed.
func (s *Server) addPrompts() error {
	// Taken before the library is read: a change made while it is read
	// differs from it, and the watch makes the prompts again.
	sig := librarySignature(s.taskDir())
	s.library.Store(&sig)
	prompts, err := s.eng.Prompts()
	if err != nil {
		return err
	}
	seen := map[string]bool{}
	for _, pi := range prompts {
		seen[pi.Name] = true
		p := &mcp.Prompt{Name: pi.Name, Title: pi.Name, Description: pi.Description}
		for _, a := range pi.Args {
			p.Arguments = append(p.Arguments, &mcp.PromptArgument{Name: a.Name, Description: a.Description, Required: a.Required})
		}
		s.srv.AddPrompt(p, s.prompt(pi.File, pi.Name))
	}
	var gone []string
	for name := range s.prompts {
		if !seen[name] {
			gone = append(gone, name)
		}
	}
	if len(gone) > 0 {
		s.srv.RemovePrompts(gone...)
	}
	s.prompts = seen
	return nil
}

// taskPoll is how often the server looks at the task library for changes.
const taskPoll = time.Second

// watchTasks keeps the prompts current while ctx lasts: when a file of
// the task library (.taskctl/tasks/*.xml) appears, changes or goes, the
// prompts are made again. The library is one small directory, so it is
// looked at (names, sizes, times) every taskPoll, on every platform, and
// compared with the library the prompts were last made from, so a change
// made before the watch started is seen too.
func (s *Server) watchTasks(ctx context.Context) {
	dir := s.taskDir()
	tick := time.NewTicker(taskPoll)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		if librarySignature(dir) == *s.library.Load() {
			continue
		}
		release, err := s.exclusive(ctx)
		if err != nil {
			return
		}
		if err := s.addPrompts(); err != nil {
			fmt.Fprintf(os.Stderr, "taskctl: prompts not updated: %v\n", err)
		}
		release()
	}
}

// taskDir is the directory of the task library.
func (s *Server) taskDir() string {
	p, err := s.eng.Project()
	if err != nil {
		return ""
	}
	return filepath.Join(p.Workspace(), "tasks")
}

// librarySignature is what of the task library tells a change: each
// XML file's name, size and modification time (lstat: nothing is
// followed).
func librarySignature(dir string) string {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return ""
	}
	var b strings.Builder
	for _, e := range ents {
		if !strings.HasSuffix(e.Name(), ".xml") {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue
		}
		fmt.Fprintf(&b, "%s %d %d\n", e.Name(), info.Size(), info.ModTime().UnixNano())
	}
	return b.String()
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
		s.eng.SyncChanges(ctx)
		res, err := s.eng.Prompt(ctx, engine.PromptRequest{Template: file, Task: name, Vars: vars})
		if err != nil {
			return nil, promptError(err, engine.WarningsOf(err))
		}
		text := res.Text
		if len(res.Warnings) > 0 {
			text += "\n\n" + warningText(res.Warnings)
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
