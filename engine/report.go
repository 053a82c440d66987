package engine

import (
	"io"

	"github.com/taskctl/taskctl/contextgen"
	"github.com/taskctl/taskctl/internal/sandbox"
	"github.com/taskctl/taskctl/memory"
	"github.com/taskctl/taskctl/workflow"
)

// The types of the engine's results that a front door prints, named here
// so that a front door imports the engine alone (cmd/taskctl's layout test
// holds it to that).
type (
	// Document is an assembled context document.
	Document = contextgen.Document
	// File is one file of a document.
	File = contextgen.File
	// Reason is why a file matched a description.
	Reason = memory.Reason
	// Record is a run's record.
	Record = workflow.Record
	// StepResult is one step of a run's record.
	StepResult = workflow.StepResult
)

// WriteRunSummary writes a run's one-line-a-step summary.
func WriteRunSummary(w io.Writer, rec *Record) { workflow.WriteSummary(w, rec) }

// WriteRunTree writes a recorded run as a tree (taskctl runs show).
func WriteRunTree(w io.Writer, rec *Record) error { return workflow.WriteTree(w, rec) }

// WriteRunPlan writes a dry run's plan with each step's files and prompt.
func WriteRunPlan(w io.Writer, rec *Record) error {
	return workflow.WritePlan(w, rec, workflow.PlanOptions{Files: true, Prompts: true})
}

// Supervise is the supervisor of one executor (workflow.Supervise): a
// front door that runs workflows starts itself with its arguments.
func Supervise(args []string) int { return workflow.Supervise(args) }

// SandboxHelperArg is the hidden first argument that makes a front door
// the sandbox helper of one executor ([SandboxExec]).
const SandboxHelperArg = sandbox.HelperArg

// SandboxExec is taskctl run's sandbox helper (sandbox.Exec): it confines
// itself and executes one executor in its place. A front door that runs
// workflows starts itself with [SandboxHelperArg] and its arguments.
func SandboxExec(args []string) int { return sandbox.Exec(args) }
