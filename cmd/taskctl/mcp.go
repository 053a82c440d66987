package main

import (
	"context"
	"errors"
	"io"
	"runtime/debug"

	"github.com/spf13/pflag"

	"github.com/taskctl/taskctl/engine"
	"github.com/taskctl/taskctl/mcpserver"
)

func mcpCmd() *command {
	return &command{
		name:  "mcp",
		usage: "[--workspace DIR]",
		short: "serve the project to an agent over MCP (stdio)",
		long: `Serves the project as a Model Context Protocol server on stdin and stdout,
for an agent's client to start (its config: {"command": "taskctl", "args":
["mcp", "--project-dir", "/path/to/project"]}). Tools: assemble, search,
list_tasks, validate, run (with the configured executor, or resume a run),
runs, read_file, list_directory, file_info, write_file,
edit_file, create_directory, copy_file, move_file, delete_file; each task of
.taskctl/tasks/*.xml is also a prompt. A relative path in a tool argument is
relative to the project dir, for reads and writes alike; writes go only to
the workspace (.taskctl/workspace, --workspace, or <workspace> in config) and
the <write_root> directories of config, and are logged in
.taskctl/audit.jsonl. The index stays open for the session and is
refreshed when a file changes. Logs and warnings go to stderr.`,
		examples: []string{
			`taskctl mcp --project-dir ~/src/app`,
			`npx @modelcontextprotocol/inspector --cli taskctl mcp --method tools/list`,
		},
		flags: func(fs *pflag.FlagSet, o *opts) {
			fs.StringVar(&o.workspace, "workspace", "", "write in `DIR` instead of .taskctl/workspace (inside the project)")
		},
		run: func(ctx context.Context, e *env, args []string) (any, error) {
			if len(args) != 0 {
				return nil, usageErr("mcp takes no arguments")
			}
			// A server lives as long as its client's session: collect
			// garbage as it comes, not only near the memory limit Main
			// sets for the commands that end as soon as their work is done.
			if e.getenv("GOGC") == "" {
				debug.SetGCPercent(100)
			}
			if err := e.eng.StartSession(ctx); err != nil {
				return nil, err
			}
			defer e.eng.Close()
			cfg, err := e.eng.Settings()
			if err != nil {
				return nil, err
			}
			srv, err := mcpserver.New(e.eng)
			if err != nil {
				return nil, err
			}
			srv.SetRunner(mcpserver.Runner{Supervisor: self(superviseCmd), SandboxHelper: self(engine.SandboxHelperArg)})
			// A write_file of a file at the size cap, JSON-escaped, must
			// fit in one message; a larger one is answered with an error.
			limit := max(16<<20, int(2*cfg.MaxFileBytes)+1<<20)
			t := &mcpserver.Transport{Reader: e.stdin, Writer: e.stdout, MaxFrame: limit}
			if err := srv.Run(ctx, t); err != nil && !errors.Is(err, io.EOF) && ctx.Err() == nil {
				return nil, err
			}
			return nil, ctx.Err()
		},
	}
}
