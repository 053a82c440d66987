package main

import (
	"context"
	"fmt"
)

func validateCmd() *command {
	return &command{
		name:  "validate",
		usage: "FILE...",
		short: "check templates against the XSD and the rules it cannot express",
		long: `A file whose root element is <config> is checked as a configuration file
(against 'taskctl schema config'), any other as a template. Each valid file
prints "FILE: ok". Problems print as FILE:LINE:COL: message on
stderr, and the exit status is 2 when any file is invalid (5 when the only
problem is a FILE that does not exist).`,
		examples: []string{
			"taskctl validate .taskctl/tasks/*.xml",
			"taskctl validate review.xml --output json",
			"taskctl validate .taskctl/config.xml",
		},
		run: func(ctx context.Context, e *env, args []string) (any, error) {
			if len(args) == 0 {
				return nil, usageErr("validate needs at least one FILE")
			}
			res, err := e.eng.Validate(args)
			if res != nil {
				e.warn(res.Warnings) // kept with the verdicts when some failed
			}
			if e.json() {
				if err != nil {
					if res == nil {
						return nil, err
					}
					// data.files says which file failed and why.
					return res, &dataKept{err}
				}
				return res, nil
			}
			for _, f := range res.Files {
				if f.Valid {
					fmt.Fprintf(e.stdout, "%s: ok\n", f.Path)
				}
				writeProblems(e.stderr, f.Problems)
			}
			if err != nil {
				return nil, &printedError{err}
			}
			return res, nil
		},
	}
}
