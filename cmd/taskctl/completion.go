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
  zsh:  mkdir -p ~/.zfunc && taskctl completion zsh > ~/.zfunc/_taskctl
        (and fpath=(~/.zfunc $fpath) before compinit in ~/.zshrc)
  fish: mkdir -p ~/.config/fish/completions && taskctl completion fish > ~/.config/fish/completions/taskctl.fish`,
		examples: []string{"source <(taskctl completion bash)", "mkdir -p ~/.config/fish/completions && taskctl completion fish > ~/.config/fish/completions/taskctl.fish"},
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
	fs.VisitAll(func(f *pflag.Flag) {
		if !f.Hidden {
			out = append(out, f)
		}
	})
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
	fmt.Fprintf(w, "    --config) COMPREPLY=($(compgen -f -- \"$cur\")); return;;\n")
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
		if c.name == "assemble" || c.name == "run" {
			// The task names of the project's library, then files.
			other = `COMPREPLY=($(compgen -W "$(taskctl assemble --list-tasks 2>/dev/null)" -- "$cur") $(compgen -f -- "$cur"))`
		}
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
	fmt.Fprintf(w, "#compdef taskctl\n# zsh completion for taskctl\n_taskctl() {\n")
	fmt.Fprintf(w, "  local curcontext=\"$curcontext\" state line ret=1\n  typeset -A opt_args\n  local -a globals cmds\n")
	fmt.Fprintf(w, "  globals=(\n")
	g := newFlagSet("taskctl")
	globalFlags(g, &opts{})
	global := map[string]bool{}
	g.VisitAll(func(f *pflag.Flag) {
		global[f.Name] = true
		fmt.Fprintf(w, "    %s\n", zshFlag(f))
	})
	fmt.Fprintf(w, "  )\n  cmds=(\n")
	for _, c := range commands() {
		fmt.Fprintf(w, "    %s\n", zshQuote(c.name+":"+c.short))
	}
	fmt.Fprintf(w, "    'help:show a command'\\''s flags and examples'\n  )\n")
	// The global flags (and their values) may come before the command;
	// after it, the words are shifted so that $words[1] is the command.
	fmt.Fprintf(w, "  _arguments -C $globals ': :->command' '*:: :->args' && ret=0\n")
	fmt.Fprintf(w, "  case $state in\n    command) _describe -t commands 'taskctl command' cmds && ret=0 ;;\n")
	fmt.Fprintf(w, "    args)\n      curcontext=\"${curcontext%%:*:*}:taskctl-$words[1]:\"\n      case $words[1] in\n")
	for _, c := range commands() {
		fmt.Fprintf(w, "        %s)\n          _arguments $globals", c.name)
		for _, f := range flagNames(c) {
			if !global[f.Name] {
				fmt.Fprintf(w, " \\\n            %s", zshFlag(f))
			}
		}
		switch c.name {
		case "completion":
			fmt.Fprintf(w, " \\\n            '1:shell:(bash zsh fish)'")
		case "schema":
			fmt.Fprintf(w, " \\\n            '1:schema:(template config)'")
		case "validate", "assemble", "run":
			fmt.Fprintf(w, " \\\n            '*:file:_files'")
		default:
			fmt.Fprintf(w, " \\\n            '*: :'")
		}
		fmt.Fprintf(w, " && ret=0 ;;\n")
	}
	fmt.Fprintf(w, "        help) _describe -t commands 'taskctl command' cmds && ret=0 ;;\n")
	fmt.Fprintf(w, "      esac ;;\n  esac\n  return ret\n}\n")
	// Autoloaded from $fpath the file is the function's body: complete now.
	// Sourced, it registers the function.
	fmt.Fprintf(w, "if [ \"$funcstack[1]\" = \"_taskctl\" ]; then\n  _taskctl \"$@\"\nelse\n  compdef _taskctl taskctl\nfi\n")
}

// zshFlag is f as an _arguments spec: its names, description, and for a
// flag with a value, what completes the value.
func zshFlag(f *pflag.Flag) string {
	desc := "[" + strings.NewReplacer("[", "(", "]", ")", ":", " ", "`", "", "'", "").Replace(f.Usage) + "]"
	var value string
	if f.Value.Type() != "bool" {
		switch {
		case flagValues[f.Name] != "":
			value = ":" + f.Name + ":(" + flagValues[f.Name] + ")"
		case f.Name == "cwd" || f.Name == "project-dir":
			value = ":dir:_files -/"
		case f.Name == "config":
			value = ":file:_files"
		default:
			value = ":" + f.Name + ": "
		}
	}
	repeat := ""
	if strings.HasSuffix(f.Value.Type(), "Array") || strings.HasSuffix(f.Value.Type(), "Slice") {
		repeat = "*"
	}
	if f.Shorthand != "" {
		return zshQuote("(-"+f.Shorthand+" --"+f.Name+")") + "{-" + f.Shorthand + ",--" + f.Name + "}" + zshQuote(desc+value)
	}
	return zshQuote(repeat + "--" + f.Name + desc + value)
}

func zshQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func writeFish(w io.Writer) {
	fmt.Fprintf(w, "# fish completion for taskctl\ncomplete -c taskctl -f\n")
	// A command is offered until one is on the line; the value of a global
	// flag before it ("--cwd DIR") does not count as one.
	names := strings.Join(commandNames(), " ") + " help"
	for _, c := range commands() {
		fmt.Fprintf(w, "complete -c taskctl -n 'not __fish_seen_subcommand_from %s' -a %s -d %s\n", names, c.name, fishQuote(c.short))
	}
	global := map[string]bool{}
	g := newFlagSet("taskctl")
	globalFlags(g, &opts{})
	g.VisitAll(func(f *pflag.Flag) {
		global[f.Name] = true
		fmt.Fprintf(w, "complete -c taskctl%s\n", fishFlag(f))
	})
	for _, c := range commands() {
		for _, f := range flagNames(c) {
			if !global[f.Name] {
				fmt.Fprintf(w, "complete -c taskctl -n '__fish_seen_subcommand_from %s'%s\n", c.name, fishFlag(f))
			}
		}
	}
	fmt.Fprintf(w, "complete -c taskctl -n '__fish_seen_subcommand_from completion' -a 'bash zsh fish'\n")
	fmt.Fprintf(w, "complete -c taskctl -n '__fish_seen_subcommand_from schema' -a 'template config'\n")
	fmt.Fprintf(w, "complete -c taskctl -n '__fish_seen_subcommand_from help' -a %s\n", fishQuote(strings.Join(commandNames(), " ")))
	fmt.Fprintf(w, "complete -c taskctl -n '__fish_seen_subcommand_from validate assemble run' -F\n")
	fmt.Fprintf(w, "complete -c taskctl -n '__fish_seen_subcommand_from assemble run' -a '(taskctl assemble --list-tasks 2>/dev/null)'\n")
}

// fishFlag is the part of a fish complete line that declares f: its names,
// description, whether it takes a value, and which values.
func fishFlag(f *pflag.Flag) string {
	s := " -l " + f.Name
	if f.Shorthand != "" {
		s += " -s " + f.Shorthand
	}
	s += " -d " + fishQuote(strings.ReplaceAll(f.Usage, "`", ""))
	if f.Value.Type() == "bool" {
		return s
	}
	switch {
	case flagValues[f.Name] != "":
		return s + " -x -a " + fishQuote(flagValues[f.Name])
	case f.Name == "cwd" || f.Name == "project-dir":
		return s + " -x -a '(__fish_complete_directories)'"
	case f.Name == "config":
		return s + " -r -F"
	}
	return s + " -x"
}

func fishQuote(s string) string {
	return "'" + strings.ReplaceAll(strings.ReplaceAll(s, `\`, `\\`), "'", `\'`) + "'"
}
