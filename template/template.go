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

	parent *Task
	bound  map[string]string
	path   string // the file it was read from
}

// Input is one <input>.
type Input struct {
	Name, Doc, Default, From string
	HasDefault, Relevant     bool
	Pos                      Pos
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
// its type: atomic — inherit full, accumulate false, notes_only, fresh
// disabled; sequential — inherit full, accumulate true, notes_only, fresh
// disabled.
func (t *Task) EffectiveContext() Context {
	c := Context{Inherit: InheritFull, Format: "notes_only", Fresh: "disabled", Accumulate: t.Type == "sequential"}
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
