package main

import (
	"bufio"
	"context"

	"github.com/spf13/pflag"

	"github.com/taskctl/taskctl/engine"
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
variables ($name), never shell syntax. A command that exits non-zero (but
grep's 1, "no match") is EXEC_FAILED, exit 1; the paths it printed are
still printed.`,
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
			res, err := e.eng.Exec(ctx, engine.ExecRequest{Command: args[0], Vars: e.opts.vars})
			if err != nil && res == nil {
				return nil, err
			}
			e.warn(res.Warnings) // a failed command's too
			if serr := e.strictCheck(); serr != nil {
				return nil, serr // --strict: any warning, a failure's too, is exit 3
			}
			if !e.json() {
				w := bufio.NewWriterSize(e.stdout, 64<<10)
				for _, path := range res.Paths {
					w.WriteString(path)
					w.WriteByte('\n')
				}
				if err := w.Flush(); err != nil {
					return nil, err
				}
			}
			if err != nil {
				// EXEC_FAILED: the paths are printed (in json, in
				// error.details) and the exit status is 1.
				return nil, err
			}
			return res, nil
		},
	}
}
