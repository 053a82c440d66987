package shellexec

import "strings"

// staticRefusal is the refusal a command with literal arguments meets when
// it runs (an option that writes, executes or follows links; a command
// xargs may not run), found before anything runs, so that `taskctl
// validate` refuses at the <command>'s position what assemble would drop as
// COMMAND_DENIED. It mirrors the commands' own refusals (each command's
// refuse call); TestStaticRefusalParity runs both on the same scripts.
// A command whose arguments the vetter cannot see (an expansion) is left to
// the runtime check.
func staticRefusal(name string, args []string) *DeniedError {
	deny := func(option, why string) *DeniedError {
		return &DeniedError{Construct: name + " " + option, Msg: why}
	}
	switch name {
	case "find":
		for i, a := range args {
			if i > 0 && findTakesValue(args[i-1]) {
				continue
			}
			switch a {
			case "-delete", "-exec", "-execdir", "-ok", "-okdir", "-fprint", "-fprint0", "-fprintf", "-fls":
				return deny(a, "find may only read; options that write or execute are refused")
			case "-L", "-H", "-follow":
				return deny(a, "following symbolic links is not supported")
			}
		}
	case "sed":
		return sedStatic(args)
	case "sort":
		opts, _, err := parseOpts(args, "rnufsk:t:zo:bdhVRT:S:", map[string]bool{"reverse": false, "numeric-sort": false, "unique": false, "ignore-case": false, "stable": false, "key": true, "field-separator": true, "zero-terminated": false, "output": true, "compress-program": true, "temporary-directory": true})
		for _, o := range opts {
			if err != nil {
				break
			}
			switch o.name {
			case "o", "output":
				return deny("-o", "sort may not write files")
			case "T", "temporary-directory":
				return deny("-T", "sort may not write files")
			case "compress-program":
				return deny("--compress-program", "sort may not run programs")
			}
		}
	case "head", "tail":
		opts, _, err := parseOpts(numericShorthand(args), "n:c:qvzf", map[string]bool{"lines": true, "bytes": true, "quiet": false, "silent": false, "verbose": false, "follow": false, "zero-terminated": false})
		for _, o := range opts {
			if err == nil && (o.name == "f" || o.name == "follow") {
				return deny("-f", "following a file never ends")
			}
		}
	case "printf":
		if len(args) > 0 && args[0] == "--" {
			args = args[1:]
		}
		if len(args) > 0 && strings.HasPrefix(args[0], "-v") {
			return deny("-v", "variables are read-only")
		}
	case "grep":
		opts, _, err := parseOpts(args, "rRlLcnhHiyvwxEFGe:f:m:oqszZaIPA:B:C:", grepLong)
		for _, o := range opts {
			if err == nil && (o.name == "R" || o.name == "dereference-recursive") {
				return deny("-R", "following symbolic links during recursion could leave the project; use -r")
			}
		}
	case "xargs":
		return xargsStatic(args)
	case "git":
		return gitStatic(args)
	}
	return nil
}

// sedStatic refuses sed -i and a script that writes, reads other files or
// executes (w, e, r, R, W; s///w, s///e).
func sedStatic(args []string) *DeniedError {
	opts, operands, err := parseOpts(args, "ne:f:Erszi", map[string]bool{"quiet": false, "silent": false, "expression": true, "file": true, "regexp-extended": false, "separate": false, "null-data": false, "in-place": false, "posix": false, "debug": false, "sandbox": false})
	if err != nil {
		return nil
	}
	var scripts []string
	ere := false
	for _, o := range opts {
		switch o.name {
		case "i", "in-place":
			return &DeniedError{Construct: "sed -i", Msg: "sed may not edit files"}
		case "e", "expression":
			scripts = append(scripts, o.val)
		case "f", "file":
			return nil // the script is a file's: read when it runs
		case "E", "r", "regexp-extended":
			ere = true
		}
	}
	if len(scripts) == 0 && len(operands) > 0 {
		scripts = operands[:1]
	}
	if len(scripts) == 0 {
		return nil
	}
	p := &sedParser{s: strings.Join(scripts, "\n"), ere: ere}
	if _, perr := p.parseBlock(false); perr != nil {
		if d, ok := perr.(*DeniedError); ok {
			return &DeniedError{Construct: "sed " + d.Construct, Msg: d.Msg}
		}
	}
	return nil
}

// xargsStatic refuses a command xargs may not run, and what that command
// would refuse with the arguments xargs is given.
func xargsStatic(args []string) *DeniedError {
	_, cmdArgs, bad := xargsOptions(args)
	if bad != "" || len(cmdArgs) == 0 {
		return nil
	}
	name := cmdArgs[0]
	if _, ok := lookupCommand(name); !ok || name == "xargs" {
		return &DeniedError{Construct: "xargs " + name, Msg: "xargs may only run the read-only commands (" + commandList() + ") except xargs"}
	}
	return staticRefusal(name, cmdArgs[1:])
}

// findTakesValue reports whether find's predicate p reads the next
// argument as its value (find . -name -delete looks for files so named).
func findTakesValue(p string) bool {
	switch p {
	case "-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-type", "-xtype", "-size",
		"-maxdepth", "-mindepth", "-regex", "-iregex", "-newer", "-perm", "-user", "-group", "-mtime", "-printf":
		return true
	}
	return false
}
