package main

import (
	"context"
	"fmt"
	"runtime"

	"github.com/taskctl/taskctl/engine"
)

func versionCmd() *command {
	return &command{
		name:     "version",
		usage:    "",
		short:    "print taskctl's version, the commit it was built from and the Go release",
		examples: []string{"taskctl version", "taskctl version --output json"},
		run: func(ctx context.Context, e *env, args []string) (any, error) {
			if len(args) > 0 {
				return nil, usageErr("version takes no arguments")
			}
			commit := engine.Commit()
			if !e.json() {
				if commit == "" {
					commit = "unknown (built without VCS information: go run, or -buildvcs=false)"
				}
				fmt.Fprintf(e.stdout, "taskctl %s\ncommit: %s\ngo: %s\n", engine.Version(), commit, runtime.Version())
			}
			return map[string]string{"version": engine.Version(), "commit": engine.Commit(), "go": runtime.Version()}, nil
		},
	}
}
