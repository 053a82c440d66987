package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/pflag"
)

func completionCmd() *command {
	return &command{
		name:  "completion",
		usage: "bash|zsh|fish",
		short: "print a shell completion script",
		long: `Prints a completion script for the named shell. Load it with, for example:
  bash: source <(taskctl completion bash)
  zsh:  taskctl completion zsh > "${fpath[1]}/_taskctl"
  fish: taskctl completion fish > ~/.config/fish/completions/taskctl.fish`,
		examples: []string{"source <(taskctl completion bash)", "taskctl completion fish > ~/.config/fish/completions/taskctl.fish"},
		run: func(ctx context.Context, e *env, args []string) (any, error) {
			if len(args) != 1 {
				return nil, usageErr("completion needs one of bash, zsh, fish")
			}
			var b strings.Builder
			switch args[0] {
			case "bash":
				writeBash(&b)
			case "zsh":
				writeZsh(&b)
			case "fish":
				writeFish(&b)
			default:
				return nil, usageErr("unknown shell %q: want bash, zsh or fish", args[0])
			}
			if !e.json() {
				io.WriteString(e.stdout, b.String())
			}
			return map[string]string{"shell": args[0], "script": b.String()}, nil
		},
	}
}

// flagNames lists a command's long flags (with the global ones).
func flagNames(c *command) []*pflag.Flag {
	fs := newFlagSet(c.name)
	globalFlags(fs, &opts{})
	if c.flags != nil {
		c.flags(fs, &opts{})
	}
	var out []*pflag.Flag
	fs.VisitAll(func(f *pflag.Flag) { out = append(out, f) })
	return out
}

func commandNames() []string {
	var names []string
	for _, c := range commands() {
		names = append(names, c.name)
	}
	return names
}

// flagValues lists the values of flags that take one of a few words.
var flagValues = map[string]string{
	"output":    "text json",
	"style":     "xml markdown plain",
	"tokenizer": "o200k_base cl100k_base none",
}

// globalValueFlags lists the spellings of the global flags that take a
// value, so completion can step over "--cwd DIR" to find the command.
func globalValueFlags() []string {
	fs := newFlagSet("taskctl")
	globalFlags(fs, &opts{})
	var out []string
	fs.VisitAll(func(f *pflag.Flag) {
		if f.Value.Type() == "bool" {
			return
		}
		out = append(out, "--"+f.Name)
		if f.Shorthand != "" {
			out = append(out, "-"+f.Shorthand)
		}
	})
	return out
}

func writeBash(w io.Writer) {
	fmt.Fprintf(w, "# bash completion for taskctl\n_taskctl() {\n")
	fmt.Fprintf(w, "  local cur prev cmd i\n  cur=\"${COMP_WORDS[COMP_CWORD]}\"\n  prev=\"${COMP_WORDS[COMP_CWORD-1]}\"\n")
	// bash splits "--style=xml" into "--style" "=" "xml".
	fmt.Fprintf(w, "  if [[ \"$cur\" == = ]]; then cur=\"\"; fi\n")
	fmt.Fprintf(w, "  if [[ \"$prev\" == = ]] && (( COMP_CWORD > 1 )); then prev=\"${COMP_WORDS[COMP_CWORD-2]}\"; fi\n")
	// The command is the first word that is neither a flag nor the value
	// of a global flag given before it.
	fmt.Fprintf(w, "  cmd=\"\"\n  for ((i=1; i<COMP_CWORD; i++)); do\n    case \"${COMP_WORDS[i]}\" in\n")
	fmt.Fprintf(w, "      %s)\n        if [[ \"${COMP_WORDS[i+1]}\" == = ]]; then ((i+=2)); else ((i++)); fi;;\n", strings.Join(globalValueFlags(), "|"))
	fmt.Fprintf(w, "      -*) ;;\n      *) cmd=\"${COMP_WORDS[i]}\"; break;;\n    esac\n  done\n")
	fmt.Fprintf(w, "  case \"$prev\" in\n")
	for _, name := range sortedKeys(flagValues) {
		spell := "--" + name
		if name == "output" {
			spell += "|-o"
		}
		fmt.Fprintf(w, "    %s) COMPREPLY=($(compgen -W %q -- \"$cur\")); return;;\n", spell, flagValues[name])
	}
	fmt.Fprintf(w, "    --cwd|--project-dir) COMPREPLY=($(compgen -d -- \"$cur\")); return;;\n")
	fmt.Fprintf(w, "  esac\n")
	fmt.Fprintf(w, "  case \"$cmd\" in\n")
	fmt.Fprintf(w, "    \"\") if [[ \"$cur\" == -* ]]; then COMPREPLY=($(compgen -W %q -- \"$cur\")); else COMPREPLY=($(compgen -W %q -- \"$cur\")); fi; return;;\n",
		strings.Join(globalFlagSpellings(), " "), strings.Join(commandNames(), " ")+" help")
	fmt.Fprintf(w, "    help) COMPREPLY=($(compgen -W %q -- \"$cur\")); return;;\n", strings.Join(commandNames(), " "))
	for _, c := range commands() {
		var fl []string
		for _, f := range flagNames(c) {
			fl = append(fl, "--"+f.Name)
		}
		var args string
		switch c.name {
		case "completion":
			args = "bash zsh fish"
		case "schema":
			args = "template config"
		}
		other := `COMPREPLY=($(compgen -f -- "$cur"))`
		if args != "" {
			other = fmt.Sprintf("COMPREPLY=($(compgen -W %q -- \"$cur\"))", args)
		}
		fmt.Fprintf(w, "    %s)\n      if [[ \"$cur\" == -* ]]; then COMPREPLY=($(compgen -W %q -- \"$cur\")); else %s; fi;;\n",
			c.name, strings.Join(fl, " "), other)
	}
	fmt.Fprintf(w, "  esac\n}\ncomplete -o default -F _taskctl taskctl\n")
}

// globalFlagSpellings lists the global flags' long names.
func globalFlagSpellings() []string {
	fs := newFlagSet("taskctl")
	globalFlags(fs, &opts{})
	var out []string
	fs.VisitAll(func(f *pflag.Flag) { out = append(out, "--"+f.Name) })
	return out
}

func writeZsh(w io.Writer) {
	fmt.Fprintf(w, "#compdef taskctl\n# zsh completion for taskctl\n_taskctl() {\n  local -a cmds\n  cmds=(\n")
	for _, c := range commands() {
		fmt.Fprintf(w, "    %q\n", c.name+":"+c.short)
	}
	fmt.Fprintf(w, "  )\n  if (( CURRENT == 2 )); then\n    _describe 'command' cmds\n    return\n  fi\n  case \"${words[2]}\" in\n")
	for _, c := range commands() {
		fmt.Fprintf(w, "    %s)\n      _arguments \\\n", c.name)
		for _, f := range flagNames(c) {
			desc := strings.NewReplacer("[", "(", "]", ")", ":", " ", "`", "").Replace(f.Usage)
			fmt.Fprintf(w, "        %s \\\n", zshQuote("--"+f.Name+"["+desc+"]"))
		}
		fmt.Fprintf(w, "        '*:file:_files'\n      ;;\n")
	}
	fmt.Fprintf(w, "  esac\n}\ncompdef _taskctl taskctl\n")
}

func zshQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func writeFish(w io.Writer) {
	fmt.Fprintf(w, "# fish completion for taskctl\ncomplete -c taskctl -f\n")
	for _, c := range commands() {
		fmt.Fprintf(w, "complete -c taskctl -n __fish_use_subcommand -a %s -d %s\n", c.name, fishQuote(c.short))
	}
	for _, c := range commands() {
		for _, f := range flagNames(c) {
			fmt.Fprintf(w, "complete -c taskctl -n '__fish_seen_subcommand_from %s' -l %s -d %s\n", c.name, f.Name, fishQuote(f.Usage))
		}
	}
	fmt.Fprintf(w, "complete -c taskctl -n '__fish_seen_subcommand_from completion' -a 'bash zsh fish'\n")
	fmt.Fprintf(w, "complete -c taskctl -n '__fish_seen_subcommand_from validate assemble run' -F\n")
}

func fishQuote(s string) string {
	return "'" + strings.ReplaceAll(strings.ReplaceAll(s, `\`, `\\`), "'", `\'`) + "'"
}
