package main

import (
	"context"
	"fmt"
	"runtime/debug"

	"github.com/spf13/pflag"

	"github.com/taskctl/taskctl/schema"
)

// version is the release this source tree describes.
const version = "0.1.0"

func toolVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return version
}

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
				fmt.Fprintf(e.stdout, "taskctl %s\n", toolVersion())
			}
			return map[string]string{"version": toolVersion()}, nil
		},
	}
}

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
			var s *schema.Schema
			switch which {
			case "template":
				s = schema.Template()
			case "config":
				s = schema.Config()
			default:
				return nil, usageErr("unknown schema %q: want template or config", which)
			}
			if !e.json() {
				e.stdout.Write(s.Source())
			}
			return map[string]string{"schema": which, "xsd": string(s.Source())}, nil
		},
	}
}

func rootCmd() *command {
	return &command{
		name:  "root",
		usage: "",
		short: "print the project dir, working dir, workspace and the marker that decided",
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
			p, err := e.project()
			if err != nil {
				return nil, err
			}
			marker := p.Marker()
			if marker == "" {
				marker = "none"
				if e.opts.projectDir != "" {
					marker = "--project-dir"
				}
			}
			if !e.json() {
				fmt.Fprintf(e.stdout, "project_dir: %s\nworking_dir: %s\nworkspace:   %s\nmarker:      %s\n",
					p.Dir(), p.WorkingDir(), p.Workspace(), marker)
			}
			return map[string]string{
				"project_dir": p.Dir(),
				"working_dir": p.WorkingDir(),
				"workspace":   p.Workspace(),
				"marker":      marker,
			}, nil
		},
	}
}
