package main

import (
	"context"
	"fmt"

	"github.com/spf13/pflag"
)

func rootCmd() *command {
	return &command{
		name:  "root",
		usage: "",
		short: "print the project dir, working dir, workspace, state dir and the marker that decided",
		long: `The project dir is found upward from the working dir: the nearest .git, else
package.json, else the first of pyproject.toml Cargo.toml go.mod pom.xml
build.gradle .taskctl (plus markers from config), else the working dir itself.
--project-dir overrides the search.`,
		examples: []string{"taskctl root", "taskctl --cwd src/api root --output json"},
		flags:    func(fs *pflag.FlagSet, o *opts) {},
		run: func(ctx context.Context, e *env, args []string) (any, error) {
			if len(args) > 0 {
				return nil, usageErr("root takes no arguments")
			}
			res, err := e.eng.Root()
			if err != nil {
				return nil, err
			}
			e.warn(res.Warnings)
			if !e.json() {
				fmt.Fprintf(e.stdout, "project_dir: %s\nworking_dir: %s\nworkspace:   %s\nstate_dir:   %s\nmarker:      %s\n",
					res.ProjectDir, res.WorkingDir, res.Workspace, res.StateDir, res.Marker)
			}
			return res, nil
		},
	}
}
