package main

import (
	"bufio"
	"context"

	"github.com/spf13/pflag"

	"github.com/taskctl/taskctl/contextgen"
	"github.com/taskctl/taskctl/internal/diag"
)

func execCmd() *command {
	return &command{
		name:  "exec",
		usage: "'COMMAND' [--var K=V]... [--strict]",
		short: "run a command exactly as a template's <command> would and print the paths it selects",
		long: `Runs COMMAND in taskctl's restricted read-only interpreter (real shell syntax;
pipes, &&, ||, if/for, $(...); in-process find, grep, ls, cat, head, tail, wc,
sort, uniq, cut, tr, sed, xargs, basename, dirname, echo, printf and
git ls-files) from the working dir, resolves every line it prints against the
dir the command ran in, and prints the absolute paths that pass the policy.
Writes, redirections other than to /dev/null, eval, exec, background jobs and
paths outside the project are refused. Inputs given with --var are shell
variables ($name), never shell syntax.`,
		examples: []string{
			`taskctl exec 'find ./src -name "*.py" | grep -v __pycache__'`,
			`taskctl exec 'git ls-files "*.go"'`,
			`taskctl exec 'grep -rl TODO $area' --var area=src`,
			`taskctl exec 'grep -rlZ TODO .' --output json`,
		},
		flags: func(fs *pflag.FlagSet, o *opts) {
			fs.StringArrayVar(&o.vars, "var", nil, "set shell variable `KEY=VALUE` (repeatable, once per KEY)")
			fs.BoolVar(&o.strict, "strict", false, "fail (exit 3) on any warning")
		},
		run: func(ctx context.Context, e *env, args []string) (any, error) {
			if len(args) != 1 {
				return nil, usageErr("exec needs exactly one COMMAND (quote it)")
			}
			vars, err := parseVars(e.opts.vars)
			if err != nil {
				return nil, err
			}
			cfg, err := e.config()
			if err != nil {
				return nil, err
			}
			p, err := e.project()
			if err != nil {
				return nil, err
			}
			if !within(p.WorkingDir(), p.Dir()) {
				return nil, usageErr("the working dir %s is outside the project dir %s: a command runs inside the project (give --cwd a dir in it)", p.WorkingDir(), p.Dir())
			}
			res, ws, err := contextgen.RunCommand(ctx, p, args[0], vars, contextgen.ShellLimits{
				Timeout: cfg.CommandTimeout, MaxBytes: cfg.CommandMaxBytes, MaxLines: cfg.CommandMaxLines,
			})
			if err != nil {
				// A command that cannot run at all is this command's failure,
				// not a warning: exit 2 with COMMAND_DENIED (or 1 otherwise).
				// COMMAND_FAILED is a warning code; an error's code is one
				// of the documented set (README, DESIGN §7).
				ce := &cliError{code: diag.Error, exit: exitError, msg: err.Error()}
				if ws[0].Code == diag.CommandDenied {
					ce.code, ce.exit = diag.CommandDenied, exitUsage
				}
				return nil, ce
			}
			for _, w := range ws {
				e.warn(w)
			}
			paths := []string{}
			cands, warns := contextgen.ResolveRecords(p, res.Records)
			for _, w := range warns {
				e.warn(w)
			}
			for _, c := range cands {
				paths = append(paths, c.Path)
			}
			if err := e.strictCheck(); err != nil {
				return nil, err
			}
			if !e.json() {
				w := bufio.NewWriterSize(e.stdout, 64<<10)
				for _, path := range paths {
					w.WriteString(path)
					w.WriteByte('\n')
				}
				if err := w.Flush(); err != nil {
					return nil, err
				}
			}
			return map[string]any{"command": args[0], "paths": paths, "exit_status": res.ExitStatus}, nil
		},
	}
}
