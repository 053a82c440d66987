package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"runtime/pprof"
	"runtime/trace"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/pflag"

	"github.com/taskctl/taskctl/engine"
)

func main() { os.Exit(Main()) }

// Main runs taskctl with the process's arguments and standard streams and
// returns the exit code. It is the only place that prints errors and picks
// exit codes.
func Main() int {
	if len(os.Args) > 1 && os.Args[1] == engine.SandboxHelperArg {
		// taskctl run's sandbox helper: it confines itself and executes
		// one executor in its place (engine.SandboxExec).
		return engine.SandboxExec(os.Args[2:])
	}
	if len(os.Args) > 1 && os.Args[1] == superviseCmd {
		// taskctl run's supervisor of one executor (workflow.Supervise).
		return engine.Supervise(os.Args[2:])
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// taskctl lives for one command, and most of what it allocates it keeps
	// to the end (the files it read, its tables, the postings): the
	// collector is off, held back by a soft limit of a quarter of the
	// machine's memory (at least 512 MB), near which it collects again
	// (run, which lives as long as a workflow, collects as it goes).
	// Collecting would only walk what is still live. GOGC and GOMEMLIMIT in
	// the environment still decide.
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(-1)
		if os.Getenv("GOMEMLIMIT") == "" {
			debug.SetMemoryLimit(max(512<<20, physicalMemory()/4))
		}
	}
	// TASKCTL_CPUPROFILE=FILE writes a CPU profile (for benchmarking
	// taskctl itself; the file is the developer's choice, like go test's
	// -cpuprofile).
	if path := os.Getenv("TASKCTL_CPUPROFILE"); path != "" {
		if f, err := os.Create(path); err == nil {
			if pprof.StartCPUProfile(f) == nil {
				defer func() { pprof.StopCPUProfile(); f.Close() }()
			}
		}
	}
	// TASKCTL_TRACE=FILE writes an execution trace (go tool trace): where
	// the workers wait, which a CPU profile does not show.
	if path := os.Getenv("TASKCTL_TRACE"); path != "" {
		if f, err := os.Create(path); err == nil {
			if trace.Start(f) == nil {
				defer func() { trace.Stop(); f.Close() }()
			}
		}
	}
	return run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
}

// Exit codes (DESIGN §7).
const (
	exitOK       = 0
	exitError    = 1
	exitUsage    = 2
	exitPartial  = 3
	exitNotFound = 5
	exitTimeout  = 10
	// exitInterrupted is the shells' 128+SIGINT: a run stopped by SIGINT or
	// SIGTERM, so that scripts can tell it from a failure.
	exitInterrupted = 130
)

// command is one subcommand: its name, help, flags and what it runs.
// run returns the value that becomes the json envelope's data; in text mode
// it writes its own output to e.stdout.
type command struct {
	name     string
	usage    string // after "taskctl NAME"
	short    string
	long     string
	examples []string
	flags    func(fs *pflag.FlagSet, o *opts)
	run      func(ctx context.Context, e *env, args []string) (any, error)
}

// opts holds every flag's value for one invocation; there are no
// package-level flag variables.
type opts struct {
	// global
	cwd, projectDir, output, config string
	help                            bool

	// shared by several commands
	task      string
	vars      []string
	style     string
	paths     bool
	strict    bool
	maxFiles  int
	maxTokens int
	runID     string

	// search / index
	limit     int
	include   []string
	exclude   []string
	explain   bool
	noRefresh bool
	here      bool
	rebuild   bool
	stats     bool
	watch     bool
	minScore  float64

	// run
	executor string
	dryRun   bool
	timeout  time.Duration
	sandbox  string
	// run --allow-scripts, --resume
	allowScripts bool
	resume       string

	// assemble extras
	redactSecrets bool
	tokenizer     string
	maxFileBytes  int64
	pathArgs      []string // assemble --path
	commandArgs   []string // assemble --command
	describeArgs  []string // assemble --describe
	stdinPaths    bool     // assemble --stdin (or "-")
	relative      bool     // assemble --relative
	absolute      bool     // assemble --absolute
	outFile       string   // assemble --out
	sizes         bool     // assemble --paths --sizes
	sortBy        string   // assemble --sort
	listTasks     bool     // assemble --list-tasks (hidden, for completion)
	force         bool

	// fs, mcp
	workspace string
}

func commands() []*command {
	return []*command{
		validateCmd(),
		assembleCmd(),
		searchCmd(),
		indexCmd(),
		runCmd(),
		runsCmd(),
		execCmd(),
		rootCmd(),
		schemaCmd(),
		configCmd(),
		initCmd(),
		trustCmd(),
		fsCmd(),
		mcpCmd(),
		completionCmd(),
		versionCmd(),
	}
}

// usageLine is "taskctl NAME USAGE", without a trailing space for a command
// that takes nothing.
func (c *command) usageLine() string {
	return strings.TrimSpace("taskctl " + c.name + " " + c.usage)
}

func lookupCommand(name string) *command {
	for _, c := range commands() {
		if c.name == name {
			return c
		}
	}
	return nil
}

// globalFlags defines the global flags on fs. Their defaults are o's current
// values, so a command's flag set keeps what was given before the command
// name ("taskctl --cwd x assemble ...").
func globalFlags(fs *pflag.FlagSet, o *opts) {
	if o.output == "" {
		o.output = "text"
	}
	fs.StringVar(&o.cwd, "cwd", o.cwd, "run as if started in `DIR` (relative paths resolve against it)")
	fs.StringVar(&o.projectDir, "project-dir", o.projectDir, "use `DIR` as the project dir instead of detecting it")
	fs.StringVarP(&o.output, "output", "o", o.output, "output format: text or json")
	fs.StringVar(&o.config, "config", o.config, "read configuration from `FILE` after the user and project config")
	fs.BoolVarP(&o.help, "help", "h", o.help, "show help")
}

func newFlagSet(name string) *pflag.FlagSet {
	fs := pflag.NewFlagSet(name, pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.SortFlags = false
	return fs
}

// run parses args, runs the command and reports the outcome. It returns the
// exit code.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	out := &stickyWriter{w: stdout}
	e := &env{stdin: stdin, stdout: out, stderr: stderr, start: time.Now(), getenv: os.Getenv}
	code := runEnv(ctx, e, args)
	if out.err != nil && code == exitOK {
		// The output was lost (a full disk, a closed descriptor): a script
		// must not take it for a success. Commands that check their writes
		// have already failed; this catches every other one.
		fmt.Fprintf(stderr, "taskctl: write output: %v\n", out.err)
		return exitError
	}
	return code
}

// stickyWriter remembers the first write error; later writes do nothing.
type stickyWriter struct {
	w   io.Writer
	err error
}

func (s *stickyWriter) Write(p []byte) (int, error) {
	if s.err != nil {
		return 0, s.err
	}
	n, err := s.w.Write(p)
	if err != nil {
		s.err = err
	}
	return n, err
}

// WriteString writes str without copying it when the writer underneath
// takes strings (an *os.File does): a run's last output can be 64 MiB.
func (s *stickyWriter) WriteString(str string) (int, error) {
	if s.err != nil {
		return 0, s.err
	}
	n, err := io.WriteString(s.w, str)
	if err != nil {
		s.err = err
	}
	return n, err
}

func runEnv(ctx context.Context, e *env, args []string) int {
	o := &e.opts

	if len(args) > 0 && args[0] == "--version" {
		// DESIGN §7: taskctl --version is taskctl version.
		args = append([]string{"version"}, args[1:]...)
	}
	global := newFlagSet("taskctl")
	globalFlags(global, o)
	global.SetInterspersed(false)
	if err := global.Parse(args); err != nil {
		return e.finish(nil, flagParseError(global, err))
	}
	if global.Changed("output") && o.output == "" {
		// Each flag set takes an empty --output for its default; an empty
		// value given is as wrong as any other.
		o.output = "text"
		return e.finish(nil, usageErr("--output must be text or json, not \"\""))
	}
	if err := checkNotEmpty(global); err != nil {
		return e.finish(nil, err)
	}
	rest := global.Args()
	if len(rest) == 0 {
		if o.help {
			return e.help(writeMainHelp)
		}
		writeMainHelp(e.stderr)
		return e.finish(nil, usageErr("no command given"))
	}
	if rest[0] == "help" {
		if len(rest) > 1 && rest[1] != "help" {
			if c := lookupCommand(rest[1]); c != nil {
				return e.help(func(w io.Writer) { writeCommandHelp(w, c) })
			}
			return e.finish(nil, usageErr("unknown command %q%s", rest[1], commandHint(rest[1])))
		}
		return e.help(writeMainHelp)
	}
	c := lookupCommand(rest[0])
	if c == nil {
		return e.finish(nil, usageErr("unknown command %q%s (see 'taskctl help')", rest[0], commandHint(rest[0])))
	}
	e.cmd = c
	fs := newFlagSet("taskctl " + c.name)
	globalFlags(fs, o)
	if c.flags != nil {
		c.flags(fs, o)
	}
	e.flags = fs
	if err := fs.Parse(rest[1:]); err != nil {
		return e.finish(nil, flagParseError(fs, err))
	}
	if fs.Changed("output") && o.output == "" {
		o.output = "text"
		return e.finish(nil, usageErr("--output must be text or json, not \"\""))
	}
	if o.help {
		return e.help(func(w io.Writer) { writeCommandHelp(w, c) })
	}
	if err := checkNotNegative(fs); err != nil {
		return e.finish(nil, err)
	}
	if err := checkNotEmpty(fs); err != nil {
		return e.finish(nil, err)
	}
	if o.output != "text" && o.output != "json" {
		return e.finish(nil, usageErr("--output must be text or json, not %q", o.output))
	}
	if err := e.setup(ctx); err != nil {
		return e.finish(nil, err)
	}
	data, err := c.run(ctx, e, fs.Args())
	return e.finish(data, err)
}

// checkNotNegative refuses a negative number in any numeric flag given: they
// all count or limit something, and a negative cap would otherwise act as
// some other cap without a word.
func checkNotNegative(fs *pflag.FlagSet) error {
	var err error
	fs.Visit(func(f *pflag.Flag) {
		switch f.Value.Type() {
		case "int", "int64", "float64", "duration":
			// (-0 is zero: --min-score -0 is 0)
			if v := f.Value.String(); err == nil && strings.HasPrefix(v, "-") && strings.Trim(v, "-0.") != "" {
				err = usageErr("--%s must not be negative, not %s", f.Name, v)
			}
		}
	})
	return err
}

// checkNotEmpty refuses an empty value given to a flag that names a
// directory, a file or a tokenizer: each flag set took it for "not given"
// (--project-dir= detected the project, --tokenizer= counted with the
// default) without a word.
func checkNotEmpty(fs *pflag.FlagSet) error {
	var err error
	fs.Visit(func(f *pflag.Flag) {
		switch f.Name {
		case "project-dir", "cwd", "config", "tokenizer":
			if err == nil && f.Value.String() == "" {
				err = usageErr("--%s needs a value, not \"\"", f.Name)
			}
		}
	})
	return err
}

// help prints help text on stdout; with --output json it is the data of
// the one envelope ({"help": TEXT}), as for every other command.
func (e *env) help(write func(io.Writer)) int {
	if !e.json() {
		write(e.stdout)
		return exitOK
	}
	var b strings.Builder
	write(&b)
	return e.finish(map[string]string{"help": b.String()}, nil)
}

func writeMainHelp(w io.Writer) {
	fmt.Fprint(w, `taskctl validates XML task templates and assembles the context each task should see.

Usage:
  taskctl [global flags] <command> [arguments]

Commands:
`)
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-11s %s\n", c.name, c.short)
	}
	fs := newFlagSet("taskctl")
	globalFlags(fs, &opts{})
	fmt.Fprintf(w, "\nGlobal flags:\n%s\nRun 'taskctl help <command>' for a command's flags and examples.\n", fs.FlagUsages())
}

func writeCommandHelp(w io.Writer, c *command) {
	fmt.Fprintf(w, "Usage: %s\n\n%s\n", c.usageLine(), c.short)
	if c.long != "" {
		fmt.Fprintf(w, "\n%s\n", strings.TrimSpace(c.long))
	}
	if c.flags != nil {
		fs := newFlagSet(c.name)
		c.flags(fs, &opts{})
		if u := fs.FlagUsages(); u != "" {
			fmt.Fprintf(w, "\nFlags:\n%s", u)
		}
	}
	g := newFlagSet("taskctl")
	globalFlags(g, &opts{})
	fmt.Fprintf(w, "\nGlobal flags:\n%s", g.FlagUsages())
	if len(c.examples) > 0 {
		fmt.Fprintf(w, "\nExamples:\n")
		for _, ex := range c.examples {
			fmt.Fprintf(w, "  %s\n", ex)
		}
	}
}

func usageErr(format string, a ...any) error { return engine.UsageError(format, a...) }

// exitCode is the exit code of an engine error's class (DESIGN §7).
func exitCode(c engine.Class) int {
	switch c {
	case engine.ClassUsage:
		return exitUsage
	case engine.ClassPartial:
		return exitPartial
	case engine.ClassNotFound:
		return exitNotFound
	case engine.ClassTimeout:
		return exitTimeout
	case engine.ClassInterrupted:
		return exitInterrupted
	}
	return exitError
}

// sortedKeys returns m's keys in order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
