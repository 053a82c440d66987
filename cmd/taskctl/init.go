package main

import (
	"context"
	"fmt"

	"github.com/spf13/pflag"
)

func initCmd() *command {
	return &command{
		name:  "init",
		usage: "[--force]",
		short: "scaffold .taskctl/ (config.xml, tasks/ with an example, .gitignore) in the project",
		long: `Creates <project>/.taskctl/ with a commented config.xml, a tasks/ folder holding
an example task library, and a .gitignore that keeps taskctl's own state
(index, runs, caches) out of version control while config.xml and tasks/ can
be committed. Existing files are kept unless --force is given; the catch-all
.gitignore an earlier command put in the workspace is replaced. Running init
again changes nothing. Nothing is written outside .taskctl/.`,
		examples: []string{"taskctl init", "taskctl --project-dir ~/src/app init"},
		flags: func(fs *pflag.FlagSet, o *opts) {
			fs.BoolVar(&o.force, "force", false, "overwrite existing files")
		},
		run: func(ctx context.Context, e *env, args []string) (any, error) {
			if len(args) > 0 {
				return nil, usageErr("init takes no arguments")
			}
			res, err := e.eng.Init(e.opts.force)
			if err != nil {
				return nil, err
			}
			if !e.json() {
				for _, r := range res.Files {
					fmt.Fprintf(e.stdout, "%s: %s\n", r.Path, r.Status)
				}
			}
			return res, nil
		},
	}
}
