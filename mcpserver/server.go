package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/taskctl/taskctl/engine"
	"github.com/taskctl/taskctl/internal/diag"
)

// A Server serves one engine over MCP.
type Server struct {
	// excl holds the one context operation (assemble, search, list_tasks,
	// validate, a prompt) that runs on eng at a time; a call cancelled
	// while it waits stops waiting. File operations run beside it and
	// each other on forks of eng (engine.Engine.Fork).
	excl chan struct{}
	eng  *engine.Engine
	srv  *mcp.Server

	projDir string     // the project dir, a relative path's base
	roots   rootsCache // the client's roots, by session

	errs    []error         // building the tools' schemas
	prompts map[string]bool // the names of the prompts served
	// library is the task library's signature (librarySignature) when
	// the prompts were last made; the watch compares with it.
	library atomic.Pointer[string]

	runner Runner // what the run tool starts executors with
}

// New builds the server of eng: its tools, and a prompt for each task of
// the project's task library. From now on eng resolves a relative path of
// a request against the project dir (engine.Engine.ResolveFromProject). eng should have started a session
// (engine.Engine.StartSession); the server does not close it.
func New(eng *engine.Engine) (*Server, error) {
	eng.ResolveFromProject()  // a client has no working dir
	eng.SpellWith(argumentOf) // nor flags
	// Load what the file operations' forks share, before any runs.
	if _, err := eng.Settings(); err != nil {
		return nil, err
	}
	if _, err := eng.Project(); err != nil {
		return nil, err
	}
	// Opened once here; a failure (a workspace config cannot be) is each
	// file call's error, as it was before.
	_, _ = eng.FS()
	p, _ := eng.Project()
	s := &Server{eng: eng, excl: make(chan struct{}, 1), projDir: p.Dir()}
	s.srv = mcp.NewServer(&mcp.Implementation{Name: "taskctl", Title: "taskctl", Version: engine.Version()},
		s.options())
	s.srv.AddReceivingMiddleware(codedToolErrors, s.rootsGuard)
	s.addContextTools()
	s.addFileTools()
	s.addRunTools()
	if err := errors.Join(s.errs...); err != nil {
		return nil, err
	}
	if err := s.addPrompts(); err != nil {
		return nil, err
	}
	return s, nil
}

// arguments are how the server names the fields of a request that the
// engine's messages name (engine.Field): by the tool arguments that set
// them. A setting is named by its config key (the user's config sets it);
// a field no tool takes is left out of the message.
var arguments = map[engine.Field]string{
	engine.FieldVar:    "vars",
	engine.FieldTask:   "task",
	engine.FieldResume: "resume",
	engine.FieldLimit:  "limit",
}

// argumentOf is the server's spelling of an engine field
// (engine.Options.Spell).
func argumentOf(f engine.Field) string {
	if a, ok := arguments[f]; ok {
		return a
	}
	if strings.Contains(string(f), ".") {
		return string(f) // a setting: its config key
	}
	return ""
}

// instructions tell the client what the server is for and where it writes.
const instructions = `taskctl serves one project: assemble a task's context (assemble, list_tasks,
prompts), rank its files for a description (search), check templates (validate), run a task
with the executor the user configured or resume a run (run), see recorded runs (runs), and
read, list and describe its files. Writes (write_file, edit_file, create_directory, copy_file,
move_file, delete_file) go only to the workspace (.taskctl/workspace/ unless configured) and
to the write roots the user configured. A relative path is relative to the project dir, for
reads and writes alike, and every path a tool returns can be passed to any tool as it is.`

// MCP returns the SDK's server, to connect to a transport.
func (s *Server) MCP() *mcp.Server { return s.srv }

// Run serves one session over t until the client goes away or ctx is
// done, keeping the prompts current with the task library.
func (s *Server) Run(ctx context.Context, t mcp.Transport) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go s.watchTasks(ctx)
	return s.srv.Run(ctx, t)
}

// An op is one operation of a tool on an engine: its structured output,
// its text and the warnings of the engine's result. A failure's warnings
// travel with its error (engine.WarningsOf), or with a result the engine
// returned beside it.
type op[Out any] func(e *engine.Engine) (Out, string, []diag.Warning, error)

// call runs one context operation on the server's engine, alone, and
// turns its outcome into a tool result (see outcome).
func call[Out any](ctx context.Context, s *Server, do op[Out]) (*mcp.CallToolResult, Out, error) {
	var zero Out
	release, err := s.exclusive(ctx)
	if err != nil {
		return nil, zero, toolError(err, nil)
	}
	defer release()
	return outcome(s.eng, do)
}

// fileCall runs one file operation on a fork of the server's engine,
// beside the other calls (see outcome).
func fileCall[Out any](ctx context.Context, s *Server, do op[Out]) (*mcp.CallToolResult, Out, error) {
	var zero Out
	if err := ctx.Err(); err != nil {
		return nil, zero, toolError(err, nil)
	}
	e, err := s.eng.Fork()
	if err != nil {
		return nil, zero, toolError(err, nil)
	}
	return outcome(e, do)
}

// outcome runs do on e and makes a tool result of it: text (with the
// warnings after it) and the warnings in _meta, the operation's own and
// no other's. A failure is an error whose text starts with the code,
// which the SDK sends as a tool error.
func outcome[Out any](e *engine.Engine, do op[Out]) (*mcp.CallToolResult, Out, error) {
	out, text, warns, err := do(e)
	if err != nil {
		var zero Out
		return nil, zero, toolError(err, append(warns, engine.WarningsOf(err)...))
	}
	return result(text, warns), out, nil
}

// exclusive waits for the server's engine, or for ctx to end (the call
// cancelled); release gives the engine back.
func (s *Server) exclusive(ctx context.Context) (release func(), err error) {
	select {
	case s.excl <- struct{}{}:
		return func() { <-s.excl }, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// result is a tool result of text and warnings.
func result(text string, warns []diag.Warning) *mcp.CallToolResult {
	res := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}
	if len(warns) > 0 {
		res.Meta = mcp.Meta{"taskctl/warnings": warns}
		res.Content = append(res.Content, &mcp.TextContent{Text: warningText(warns)})
	}
	return res
}

func warningText(warns []diag.Warning) string {
	var b strings.Builder
	b.WriteString("warnings:\n")
	for _, w := range warns {
		fmt.Fprintf(&b, "%s\n", w) // diag.Warning.String, as the CLI prints it
	}
	return b.String()
}

// A ToolError is a failed tool call: its text is "CODE: message", and
// the problems of an invalid template follow, one a line.
type ToolError struct {
	Code     diag.Code
	Message  string
	Problems []diag.Problem
	Warnings []diag.Warning
}

func (e *ToolError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s", e.Code, e.Message)
	for _, p := range e.Problems {
		b.WriteString("\n" + p.String())
	}
	if len(e.Warnings) > 0 {
		b.WriteString("\n" + strings.TrimRight(warningText(e.Warnings), "\n"))
	}
	return b.String()
}

func toolError(err error, warns []diag.Warning) error {
	ce := engine.Classify(err)
	return &ToolError{Code: ce.Code, Message: ce.Message, Problems: ce.Problems, Warnings: warns}
}

// codePrefix is how every tool error starts: its stable code.
var codePrefix = regexp.MustCompile(`^[A-Z][A-Z0-9_]*: `)

// codedToolErrors gives the tool errors the SDK makes itself (arguments
// that do not match the input schema, or that do not decode) the code
// of every tool error, ARG_INVALID, so that a client can tell them by
// their first word as it tells the others.
func codedToolErrors(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		tr, ok := res.(*mcp.CallToolResult)
		if err != nil || !ok || !tr.IsError || len(tr.Content) == 0 {
			return res, err
		}
		if t, ok := tr.Content[0].(*mcp.TextContent); ok && !codePrefix.MatchString(t.Text) {
			msg := strings.ReplaceAll(t.Text, "<invalid reflect.Value>", "null")
			t.Text = string(diag.ArgInvalid) + ": " + strings.TrimPrefix(msg, "validating \"arguments\": ")
		}
		return res, err
	}
}

// structured sets a result's structured content to v, for the tools whose
// output has more than one shape (assemble with and without paths_only).
func structured(res *mcp.CallToolResult, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	res.StructuredContent = json.RawMessage(data)
	return nil
}
