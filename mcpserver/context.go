package mcpserver

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/taskctl/taskctl/engine"
	"github.com/taskctl/taskctl/internal/diag"
)

// AssembleIn is the input of the assemble tool.
type AssembleIn struct {
	Task      string            `json:"task" jsonschema:"a task name of the project's task library, a template file (relative to the project dir, or absolute), or FILE:TASK"`
	Vars      map[string]string `json:"vars,omitempty" jsonschema:"the task's inputs, name to value"`
	Style     string            `json:"style,omitempty" jsonschema:"document style: xml, markdown or plain (default: the config's, xml)"`
	MaxTokens int               `json:"max_tokens,omitempty" jsonschema:"token budget for the whole document; whole files that do not fit are left out"`
	PathsOnly bool              `json:"paths_only,omitempty" jsonschema:"list the selected files' absolute paths, read nothing"`
}

// SearchIn is the input of the search tool.
type SearchIn struct {
	Query   string   `json:"query" jsonschema:"a description of what you look for, or a whole bug report"`
	Limit   int      `json:"limit,omitempty" jsonschema:"at most this many matches (default 10)"`
	Include []string `json:"include,omitempty" jsonschema:"only files whose path relative to the project matches one of these globs"`
	Exclude []string `json:"exclude,omitempty" jsonschema:"leave out files whose path relative to the project matches one of these globs"`
}

// ValidateIn is the input of the validate tool.
type ValidateIn struct {
	Path string `json:"path" jsonschema:"a template or config file: relative to the project dir, or absolute"`
}

// NoInput is the input of a tool that takes none.
type NoInput struct{}

func (s *Server) addContextTools() {
	addTool(s, &mcp.Tool{Name: "assemble", Annotations: readOnly, Title: "Assemble a task's context",
		Description: "Resolve a task's file sources (paths, globs, read-only commands, descriptions) and return its context document: every file's absolute path, provenance and content. Files left out are warnings with a stable code."},
		s.assemble)
	addTool(s, &mcp.Tool{Name: "search", Annotations: readOnly, Title: "Search the project",
		Description: "Rank the project's text files against a description or a bug report (BM25 over paths, names, identifiers, content, with definitions); each match has a score in [0,1] and the reason."},
		s.search)
	addTool(s, &mcp.Tool{Name: "list_tasks", Annotations: readOnly, Title: "List tasks",
		Description: "Every task of the project's task library (.taskctl/tasks/*.xml) with its description and inputs."},
		s.listTasks)
	addTool(s, &mcp.Tool{Name: "validate", Annotations: readOnly, Title: "Validate a template",
		Description: "Check a template or config file against taskctl's XSD and rules; problems are given at file:line:col. " + pathRule},
		s.validate)
}

func (s *Server) assemble(ctx context.Context, req *mcp.CallToolRequest, in AssembleIn) (*mcp.CallToolResult, any, error) {
	defer progress(ctx, req, "assemble")()
	vars := make([]string, 0, len(in.Vars))
	for k, v := range in.Vars {
		vars = append(vars, k+"="+v)
	}
	sort.Strings(vars)
	res, out, err := call(ctx, s, func(e *engine.Engine) (any, string, []diag.Warning, error) {
		tmpl, task, err := templateArg(e, in.Task)
		if err != nil {
			return nil, "", nil, err
		}
		e.SyncChanges(ctx)
		res, err := e.Assemble(ctx, engine.AssembleRequest{Template: tmpl, Task: task, Vars: vars, Style: in.Style,
			Paths: in.PathsOnly, MaxTokens: in.MaxTokens})
		if err != nil {
			return nil, "", nil, err
		}
		if l := res.Listing; l != nil {
			var b strings.Builder
			for _, f := range l.Files {
				b.WriteString(f.Path + "\n")
			}
			return engine.PathList(l), b.String(), res.Warnings, nil
		}
		doc := res.Document
		var b strings.Builder
		if err := doc.Render(&b, res.Style); err != nil {
			return nil, "", nil, err
		}
		return doc, b.String(), res.Warnings, nil
	})
	if err != nil {
		return nil, nil, err
	}
	// Two shapes (the document, or the paths of paths_only): the
	// structured content is set here, not by the SDK from a type.
	if err := structured(res, out); err != nil {
		return nil, nil, err
	}
	return res, nil, nil
}

func (s *Server) search(ctx context.Context, req *mcp.CallToolRequest, in SearchIn) (*mcp.CallToolResult, *engine.SearchResult, error) {
	defer progress(ctx, req, "search")()
	if in.Limit < 0 {
		return nil, nil, &ToolError{Code: diag.ArgInvalid, Message: fmt.Sprintf("limit must be positive, not %d", in.Limit)}
	}
	if in.Limit == 0 {
		in.Limit = 10
	}
	return call(ctx, s, func(e *engine.Engine) (*engine.SearchResult, string, []diag.Warning, error) {
		e.SyncChanges(ctx)
		res, err := e.Search(ctx, engine.SearchRequest{Query: in.Query, Limit: in.Limit, Include: in.Include, Exclude: in.Exclude})
		if err != nil {
			return nil, "", nil, err
		}
		var b strings.Builder
		for _, m := range res.Matches {
			fmt.Fprintf(&b, "%.4f  %s\n", m.Score, m.Path)
			if r := m.Reason.String(); r != "" {
				fmt.Fprintf(&b, "        %s\n", r)
			}
		}
		if len(res.Matches) == 0 {
			b.WriteString("no file matches\n")
		}
		return res, b.String(), res.Warnings, nil
	})
}

// progress tells a client that asked for progress (a progressToken in the
// request) that a long call started (progress 0, and what it waits for),
// and, through the function returned, that it ended (1 of 1).
func progress(ctx context.Context, req *mcp.CallToolRequest, what string) (done func()) {
	if req == nil || req.Session == nil || req.Params == nil || req.Params.GetProgressToken() == nil {
		return func() {}
	}
	tok := req.Params.GetProgressToken()
	_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: tok, Progress: 0, Total: 1,
		Message: what + ": waiting for the index and reading files"})
	return func() {
		_ = req.Session.NotifyProgress(context.WithoutCancel(ctx), &mcp.ProgressNotificationParams{ProgressToken: tok,
			Progress: 1, Total: 1, Message: what + ": done"})
	}
}

func (s *Server) listTasks(ctx context.Context, _ *mcp.CallToolRequest, _ NoInput) (*mcp.CallToolResult, *engine.ListTasksResult, error) {
	return call(ctx, s, func(e *engine.Engine) (*engine.ListTasksResult, string, []diag.Warning, error) {
		res, err := e.ListTasks()
		if err != nil {
			return nil, "", nil, err
		}
		return res, tasksText(res), res.Warnings, nil
	})
}

func tasksText(res *engine.ListTasksResult) string {
	var b strings.Builder
	for _, t := range res.Tasks {
		fmt.Fprintf(&b, "%s (%s, %s:%d): %s\n", t.Name, t.Type, t.File, t.Line, t.Description)
		for _, in := range t.Inputs {
			fmt.Fprintf(&b, "    input %s", in.Name)
			if in.HasDefault {
				fmt.Fprintf(&b, " (default %q)", in.Default)
			}
			if in.Description != "" {
				fmt.Fprintf(&b, ": %s", in.Description)
			}
			b.WriteString("\n")
		}
	}
	if len(res.Tasks) == 0 {
		b.WriteString("no task in .taskctl/tasks/*.xml\n")
	}
	return b.String()
}

// validate answers a file with problems with its problems (valid: false),
// not a tool error: they are what was asked for.
func (s *Server) validate(ctx context.Context, _ *mcp.CallToolRequest, in ValidateIn) (*mcp.CallToolResult, *engine.ValidateResult, error) {
	return call(ctx, s, func(e *engine.Engine) (*engine.ValidateResult, string, []diag.Warning, error) {
		if _, err := e.ProjectFile(in.Path); err != nil {
			return nil, "", nil, err
		}
		res, err := e.Validate([]string{in.Path})
		if err != nil && res == nil {
			return nil, "", nil, err
		}
		if err != nil && engine.Classify(err).Code != diag.TemplateInvalid {
			return nil, "", res.Warnings, err
		}
		var b strings.Builder
		for _, f := range res.Files {
			if f.Valid {
				fmt.Fprintf(&b, "%s: valid\n", f.Path)
			}
			for _, p := range f.Problems {
				b.WriteString(p.String() + "\n")
			}
		}
		return res, b.String(), res.Warnings, nil
	})
}

// templateArg splits the assemble tool's task argument: a task name of
// the library, a template file, or FILE:TASK (a file that exists, then a
// task of it). A file must lie in the project (engine.ProjectFile).
func templateArg(e *engine.Engine, arg string) (tmpl, task string, err error) {
	if i := strings.LastIndexByte(arg, ':'); i > 0 {
		if isFile, err := e.ProjectFile(arg[:i]); isFile || err != nil {
			return arg[:i], arg[i+1:], err
		}
	}
	_, err = e.ProjectFile(arg)
	return arg, "", err
}
