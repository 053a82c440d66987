package template

import (
	"github.com/taskctl/taskctl/internal/diag"
)

// MaxDepth is how deeply sequential tasks may nest (the top level is 1).
const MaxDepth = 8

// Pos is a position in a template file: 1-based line, and column in runes.
type Pos struct{ Line, Col int }

// File is a decoded template file.
type File struct {
	Path     string
	Tasks    []*Task
	Warnings []diag.Problem // things that are allowed but probably wrong
}

// Task is one <task>.
type Task struct {
	Name, Type, Subtype string
	Description         string
	Instructions        string
	DescriptionPos      Pos // of <description>
	InstructionsPos     Pos // of <instructions>; the task's Pos if it has none
	Inputs              []Input
	Context             ContextSpec
	Sources             []FileSource
	Output              *OutputFormat
	Steps               []*Task
	Pos                 Pos

	// Role is what a task is to the task that holds it when that task is
	// not sequential: RoleDirector or RoleEvaluator in a
	// director_evaluator_loop, RoleInner or RoleReduction in a reduce;
	// "" for a step of a sequential task and for a top-level task.
	Role string
	// Loop is set on a director_evaluator_loop: its Steps are the director
	// and the evaluator, in that order.
	Loop *LoopSpec
	// Reduce is set on a reduce task: its Steps are the inner task and the
	// reduction task, in that order.
	Reduce *ReduceSpec

	parent *Task
	bound  map[string]string
	path   string // the file it was read from
}

// Task types.
const (
	TypeAtomic     = "atomic"
	TypeSequential = "sequential"
	TypeLoop       = "director_evaluator_loop"
	TypeReduce     = "reduce"
)

// Roles of the tasks a loop or a reduce holds (Task.Role).
const (
	RoleDirector  = "director"
	RoleEvaluator = "evaluator"
	RoleInner     = "inner_task"
	RoleReduction = "reduction_task"
)

// DefaultMaxIterations is a loop's max_iterations when it sets none.
const DefaultMaxIterations = 5

// MaxIterationsLimit is the largest max_iterations a loop may set.
const MaxIterationsLimit = 100

// LoopSpec is what a director_evaluator_loop says besides its director and
// evaluator: how many iterations, how long in all, and the script its
// iterations run between the two (nil: none).
type LoopSpec struct {
	MaxIterations int // DefaultMaxIterations when absent
	TimeBudget    int // seconds for the whole loop; 0: no budget
	Script        *ScriptSpec
	Pos           Pos // of <max_iterations>, else the task's
}

// ScriptSpec is <script_execution>: a process (the project's test command,
// say) run after the director in each iteration; the evaluator reads its
// exit status, stdout and stderr. Command is split into words as the
// executor's command line is (no shell syntax). A template alone never makes
// it run: the user allows it (taskctl run --allow-scripts, or a trusted
// config's run.allow_scripts).
type ScriptSpec struct {
	Command string
	Timeout int // seconds; 0: the step time limit
	Pos     Pos // of <command>
}

// Item sources of a reduce task (ReduceSpec.Source).
const (
	ItemsFiles = "files" // the files the reduce task's own context selects
	ItemsLines = "lines" // the non-empty lines of an earlier step's result (From)
	ItemsVar   = "var"   // the lines, or comma-separated values, of an input (Var)
)

// DefaultParallelism is how many items a reduce runs at once unless it says.
const DefaultParallelism = 4

// MaxParallelism is the most items a reduce may run at once.
const MaxParallelism = 64

// DefaultReduceTokens is the token budget of the results in a reduction
// task's prompt unless <items max_tokens> says.
const DefaultReduceTokens = 32000

// ReduceSpec is a reduce task's <items>: where the list comes from, how
// many items run at once, and the token budget of the results its reduction
// task receives.
type ReduceSpec struct {
	Source      string // ItemsFiles, ItemsLines or ItemsVar
	From        string // lines: STEP.output, STEP.notes.KEY, ... as an input's from
	Var         string // var: the input whose value lists the items
	Parallelism int
	MaxTokens   int
	MaxItems    int // 0: the default cap (1000)
	Pos         Pos // of <items>
}

// Input is one <input>.
type Input struct {
	Name, Doc, Default, From string
	HasDefault, Relevant     bool
	// Implicit marks an input the task's role gives it (a director's
	// iteration and feedback, an evaluator's director_output, an inner
	// task's item) without its template declaring it.
	Implicit bool
	Pos      Pos
}

// A SourceKind is what a <file_paths source="..."> selects files by.
type SourceKind string

// Source kinds.
const (
	SourceLiteral     SourceKind = "literal"     // its <path> elements: paths and globs
	SourceCommand     SourceKind = "command"     // the paths its <command> prints
	SourceDescription SourceKind = "description" // the index's matches for its <description>
)

// FileSource is one <file_paths>. Pos is that of <file_paths>; CommandPos
// and DescriptionPos those of its <command> or <description> child (zero if
// it has none); each PathSpec has its own.
type FileSource struct {
	Kind           SourceKind
	Paths          []PathSpec
	Command        string
	CommandTimeout int // seconds, 0 = the configured default
	Description    string
	Limit          int     // description: at most this many matches; 0 = the default
	MinScore       float64 // description: matches scoring below are dropped, if HasMinScore
	HasMinScore    bool
	Include        []string // command and description: keep only these globs
	Exclude        []string // command and description: drop these globs
	MaxFiles       int      // narrows the per-source file cap; 0 = the cap
	Pos            Pos
	CommandPos     Pos
	DescriptionPos Pos
}

// PathSpec is one <path> with its read options; 0 means the option is
// absent (max_lines="0" is refused by Parse).
type PathSpec struct {
	Value                         string
	MaxLines, SkipLines, MaxBytes int
	Pos                           Pos
}

// ContextSpec is what <context_management> said: nil fields (and MaxTokens
// 0) were absent, so that EffectiveContext can merge them over the defaults
// of the task's type. Pos is that of <context_management> (zero if the task
// has none); each other Pos is that of the child setting the field.
type ContextSpec struct {
	Inherit    *string
	Accumulate *bool
	Format     *string
	Fresh      *string
	MaxTokens  int
	Pos        Pos

	InheritPos, AccumulatePos, FormatPos, FreshPos, MaxTokensPos Pos
}

// An InheritMode is a task's inherit_context: what it takes of the context
// of the sequential task around it.
type InheritMode string

// Inherit modes.
const (
	InheritFull   InheritMode = "full"   // every file of the parent's context
	InheritNone   InheritMode = "none"   // none of them
	InheritSubset InheritMode = "subset" // those relevant to the task's description
)

// Context is the effective context management of a task.
type Context struct {
	Inherit    InheritMode
	Accumulate bool
	Format     string // notes_only, full_output
	Fresh      string // enabled, disabled
	MaxTokens  int
}

// OutputFormat is <output_format>.
type OutputFormat struct {
	Type, Schema string
	Pos          Pos
}

// Error lists the problems of a template. Parse returns it.
type Error struct{ Problems []diag.Problem }

func (e *Error) Error() string {
	return diag.Lines(e.Problems)
}

// EffectiveContext merges the task's <context_management> over the defaults of
// its type (docs/templates.md, "Context rules per type"): atomic — inherit
// full, accumulate false, notes_only, fresh disabled; sequential — inherit
// full, accumulate true, notes_only, fresh disabled;
// director_evaluator_loop — inherit none, accumulate true, notes_only,
// fresh disabled; reduce — inherit none, accumulate false, notes_only,
// fresh disabled.
func (t *Task) EffectiveContext() Context {
	c := Context{Inherit: InheritFull, Format: "notes_only", Fresh: "disabled"}
	switch t.Type {
	case TypeSequential:
		c.Accumulate = true
	case TypeLoop:
		c.Inherit, c.Accumulate = InheritNone, true
	case TypeReduce:
		c.Inherit = InheritNone
	}
	if t.Context.Inherit != nil {
		c.Inherit = InheritMode(*t.Context.Inherit)
	}
	if t.Context.Accumulate != nil {
		c.Accumulate = *t.Context.Accumulate
	}
	if t.Context.Format != nil {
		c.Format = *t.Context.Format
	}
	if t.Context.Fresh != nil {
		c.Fresh = *t.Context.Fresh
	}
	c.MaxTokens = t.Context.MaxTokens
	return c
}

// HasSteps reports whether t's type holds other tasks: sequential, a loop
// or a reduce.
func (t *Task) HasSteps() bool {
	switch t.Type {
	case TypeSequential, TypeLoop, TypeReduce:
		return true
	}
	return false
}

// Parent returns the sequential task t is a step of, or nil.
func (t *Task) Parent() *Task { return t.parent }

// Lookup finds a task by name, at the top level or among steps; nil if
// there is none. Unnamed tasks have no name to find them by.
func (f *File) Lookup(name string) *Task {
	if name == "" {
		return nil
	}
	var found *Task
	walk(f.Tasks, func(t *Task) {
		if found == nil && t.Name == name {
			found = t
		}
	})
	return found
}

func walk(ts []*Task, fn func(*Task)) {
	for _, t := range ts {
		fn(t)
		walk(t.Steps, fn)
	}
}

// File returns the path of the file t was read from ("" for a task built
// any other way).
func (t *Task) File() string { return t.file() }
