package main

import (
	"context"
	"fmt"

	"github.com/spf13/pflag"
)

func trustCmd() *command {
	return &command{
		name:  "trust",
		usage: "",
		short: "trust the project's .taskctl/config.xml as it is now",
		long: `The project's own .taskctl/config.xml comes with the repository, not from you:
until you trust it, it may only narrow the policy (more excludes, lower caps,
safeguards on) and may not name an executor, an allowed root or a marker;
each setting it cannot set is a CONFIG_UNTRUSTED warning. 'taskctl trust'
records the file's sha256 under your config dir ($XDG_CONFIG_HOME/taskctl/
trusted); a change to the file makes it untrusted again.`,
		examples: []string{"taskctl trust", "taskctl --project-dir ~/src/app trust --output json"},
		flags:    func(fs *pflag.FlagSet, o *opts) {},
		run: func(ctx context.Context, e *env, args []string) (any, error) {
			if len(args) > 0 {
				return nil, usageErr("trust takes no arguments")
			}
			res, err := e.eng.Trust()
			if err != nil {
				return nil, err
			}
			if !e.json() {
				fmt.Fprintf(e.stdout, "%s: trusted (sha256 %s)\n", res.Path, res.SHA256)
				for _, p := range res.Pinned {
					fmt.Fprintf(e.stdout, "%s: pinned, the executor runs it (sha256 %s)\n", p.Path, p.SHA256)
				}
			}
			return res, nil
		},
	}
}
