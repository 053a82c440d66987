package main

import (
	"context"
	"io"

	"github.com/taskctl/taskctl/engine"
)

func schemaCmd() *command {
	return &command{
		name:  "schema",
		usage: "[template|config]",
		short: "print the XSD that templates (or config files) are validated against",
		long: `Prints the embedded XML Schema. Point your editor at it to get completion and
validation while you write templates.`,
		examples: []string{"taskctl schema > taskctl.xsd", "taskctl schema config"},
		run: func(ctx context.Context, e *env, args []string) (any, error) {
			which := "template"
			if len(args) > 1 {
				return nil, usageErr("schema takes at most one argument")
			}
			if len(args) == 1 {
				which = args[0]
			}
			res, err := engine.Schema(which)
			if err != nil {
				return nil, err
			}
			if !e.json() {
				io.WriteString(e.stdout, res.XSD)
			}
			return res, nil
		},
	}
}
