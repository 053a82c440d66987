package mcpserver

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sort"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/taskctl/taskctl/engine"
	"github.com/taskctl/taskctl/internal/diag"
)

// RunIn is the input of the run tool.
type RunIn struct {
	Task   string            `json:"task,omitempty" jsonschema:"a task name of the project's task library, a template file (relative to the project dir, or absolute), or FILE:TASK; with resume, the run's own by default"`
	Vars   map[string]string `json:"vars,omitempty" jsonschema:"the task's inputs, name to value"`
	Resume string            `json:"resume,omitempty" jsonschema:"the ID of a run of the same task (or latest) to resume: the outputs of its finished steps whose prompts are unchanged are reused, the rest run"`
	DryRun bool              `json:"dry_run,omitempty" jsonschema:"plan the run and assemble each step's context; execute nothing"`
}

// RunsIn is the input of the runs tool.
type RunsIn struct {
	RunID string `json:"run_id,omitempty" jsonschema:"a run's ID (or latest) to show as a tree of its steps, iterations and verdicts; without it, the list of runs"`
}

// Runner is what the run tool needs of the program serving it: the
// command lines of the executors' supervisor and sandbox helper (taskctl
// itself with its hidden arguments; nil for none).
type Runner struct {
	Supervisor, SandboxHelper []string
}

// SetRunner sets what the run tool starts executors with; call it
// before the server serves.
func (s *Server) SetRunner(r Runner) { s.runner = r }

func (s *Server) addRunTools() {
	// A run's executors are the user's programs: they may change
	// anything they can reach (an open world).
	addTool(s, &mcp.Tool{Name: "run", Title: "Run a task or workflow",
		Annotations: &mcp.ToolAnnotations{DestructiveHint: ptr(true), OpenWorldHint: ptr(true)},
		Description: "Run a task, workflow, loop or reduce with the executor the user configured (run.executor; a client cannot name one), or resume an earlier run. Script steps run only when the user's config allows them (run.allow_scripts). Returns the run's record; the other context tools (assemble, search, list_tasks, validate) wait while it runs, the file tools do not."},
		s.run)
	addTool(s, &mcp.Tool{Name: "runs", Title: "List or show runs", Annotations: readOnly,
		Description: "List the recorded runs, or show one (run_id) as a tree of its steps, loop iterations, verdicts, reduce items and timing."},
		s.runs)
}

func (s *Server) run(ctx context.Context, _ *mcp.CallToolRequest, in RunIn) (*mcp.CallToolResult, any, error) {
	vars := make([]string, 0, len(in.Vars))
	for k, v := range in.Vars {
		vars = append(vars, k+"="+v)
	}
	sort.Strings(vars)
	res, out, err := call(ctx, s, func(e *engine.Engine) (any, string, []diag.Warning, error) {
		tmpl, task := "", ""
		if in.Task != "" || in.Resume == "" {
			var err error
			if tmpl, task, err = templateArg(e, in.Task); err != nil {
				return nil, "", nil, err
			}
		}
		rr, err := e.Run(ctx, engine.RunRequest{Template: tmpl, Task: task, Vars: vars, DryRun: in.DryRun,
			Resume: in.Resume, Supervisor: s.runner.Supervisor, SandboxHelper: s.runner.SandboxHelper})
		if err != nil {
			var ee *engine.Error
			if errors.As(err, &ee) {
				if r, ok := ee.Details.(*engine.RunResult); ok {
					var b bytes.Buffer
					_ = engine.WriteRunTree(&b, r.Record)
					ee.Message += "\n" + b.String()
				}
			}
			return nil, "", nil, err
		}
		var b bytes.Buffer
		if rr.DryRun {
			err = engine.WriteRunPlan(&b, rr.Record)
		} else {
			err = engine.WriteRunTree(&b, rr.Record)
		}
		return rr.Record, b.String(), rr.Warnings, err
	})
	if err != nil {
		return nil, nil, err
	}
	if err := structured(res, out); err != nil {
		return nil, nil, err
	}
	return res, nil, nil
}

func (s *Server) runs(ctx context.Context, _ *mcp.CallToolRequest, in RunsIn) (*mcp.CallToolResult, any, error) {
	res, out, err := call(ctx, s, func(e *engine.Engine) (any, string, []diag.Warning, error) {
		if in.RunID != "" {
			rec, err := e.ShowRun(in.RunID)
			if err != nil {
				return nil, "", nil, err
			}
			var b bytes.Buffer
			err = engine.WriteRunTree(&b, rec)
			return rec, b.String(), nil, err
		}
		list, err := e.Runs()
		if err != nil {
			return nil, "", nil, err
		}
		var b bytes.Buffer
		for _, r := range list {
			fmt.Fprintf(&b, "%s  %-11s %s  %dms\n", r.ID, r.Status, r.Task, r.DurationMS)
		}
		if len(list) == 0 {
			b.WriteString("no runs\n")
		}
		return map[string]any{"runs": list}, b.String(), nil, nil
	})
	if err != nil {
		return nil, nil, err
	}
	if err := structured(res, out); err != nil {
		return nil, nil, err
	}
	return res, nil, nil
}
