package main

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/taskctl/taskctl/engine"
)

func configCmd() *command {
	return &command{
		name:  "config",
		usage: "",
		short: "print the effective configuration and where each value came from",
		long: `Configuration is read, lowest precedence first, from built-in defaults, the
user's $XDG_CONFIG_HOME/taskctl/config.xml, the project's .taskctl/config.xml,
the file named by --config, and flags. A template may only narrow the policy.
Config files are validated against 'taskctl schema config'.`,
		examples: []string{"taskctl config", "taskctl config --output json"},
		run: func(ctx context.Context, e *env, args []string) (any, error) {
			if len(args) > 0 {
				return nil, usageErr("config takes no arguments")
			}
			res, err := e.eng.Config()
			if err != nil {
				return nil, err
			}
			if e.meta == nil {
				e.meta = map[string]any{}
			}
			e.meta["config_sources"] = res.Sources
			if !e.json() {
				for _, k := range engine.Keys() {
					fmt.Fprintf(e.stdout, "%-26s %-24s # %s\n", k, printable(res.Values[k]), res.Sources[k])
				}
			}
			return res, nil
		},
	}
}

func printable(v any) string {
	switch x := v.(type) {
	case []string:
		if len(x) == 0 {
			return "[]"
		}
		return strings.Join(x, ",")
	case string:
		if x == "" {
			return `""`
		}
		return x
	case bool:
		return strconv.FormatBool(x)
	}
	return fmt.Sprint(v)
}
