package main

import (
	"context"
	"fmt"

	"github.com/taskctl/taskctl/engine"
)

func versionCmd() *command {
	return &command{
		name:     "version",
		usage:    "",
		short:    "print taskctl's version",
		examples: []string{"taskctl version", "taskctl version --output json"},
		run: func(ctx context.Context, e *env, args []string) (any, error) {
			if len(args) > 0 {
				return nil, usageErr("version takes no arguments")
			}
			if !e.json() {
				fmt.Fprintf(e.stdout, "taskctl %s\n", engine.Version())
			}
			return map[string]string{"version": engine.Version()}, nil
		},
	}
}
