package workflow

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"time"
)

// PlanOptions chooses what WritePlan prints.
type PlanOptions struct {
	Files   bool // list each step's files
	Prompts bool // print each atomic step's prompt
}

// WritePlan prints a dry run's plan: one line per step, indented by depth,
// with its inherit mode, what it accumulates, its file count and its
// bindings; then, as asked, its files and its prompt.
func WritePlan(w io.Writer, rec *Record, o PlanOptions) error {
	ew := &errWriter{w: w}
	task := rec.Task
	if task == "" {
		task = "(unnamed)"
	}
	ew.printf("plan %s: %d steps, %d files in its own context\n", task, len(rec.Steps), len(rec.Files))
	if o.Files {
		for _, f := range rec.Files {
			ew.printf("    %s\n", f)
		}
	}
	for _, s := range rec.Steps {
		ind := strings.Repeat("  ", s.Depth)
		acc := ""
		if s.Accumulate != "" {
			acc = ", accumulates " + s.Accumulate
		}
		ew.printf("%s%02d %s (%s, inherit %s%s): %d files\n", ind, s.Index, s.label(), s.Type, s.Inherit, acc, len(s.Files))
		for _, name := range sortedKeys(s.Bindings) {
			ew.printf("%s     %s <- %s\n", ind, name, s.Bindings[name])
		}
		for _, wn := range s.Warnings {
			if wn.Path != "" {
				ew.printf("%s     warning: %s: %s: %s\n", ind, wn.Code, wn.Path, wn.Message)
			} else {
				ew.printf("%s     warning: %s: %s\n", ind, wn.Code, wn.Message)
			}
		}
		if o.Files {
			for _, f := range s.Files {
				ew.printf("%s     %s\n", ind, f)
			}
		}
		if o.Prompts && s.Prompt != "" {
			ew.printf("%s     --- prompt ---\n%s%s     --- end of prompt ---\n", ind, withNewline(s.Prompt), ind)
		}
	}
	return ew.err
}

// WriteSummary prints a run's outcome: a line for the run, a line per step,
// and the error of the step that stopped it.
func WriteSummary(w io.Writer, rec *Record) error {
	ew := &errWriter{w: w}
	id := rec.ID
	if id == "" {
		id = "(not recorded)"
	}
	ew.printf("run %s: %s in %s\n", id, rec.Status, ms(rec.DurationMS))
	for _, s := range rec.Steps {
		ind := strings.Repeat("  ", s.Depth)
		line := fmt.Sprintf("%s%-11s %02d %s", ind, s.Status, s.Index, s.label())
		if s.Status != StepSkipped && s.Status != StepPending {
			line += fmt.Sprintf("  %s, %d files", ms(s.DurationMS), len(s.Files))
		}
		ew.printf("%s\n", line)
		if s.Error != "" && s.Type != sequential {
			for _, l := range strings.Split(s.Error, "\n") {
				ew.printf("%s    %s\n", ind, l)
			}
		}
	}
	if rec.Dir != "" {
		ew.printf("record: %s\n", rec.Dir)
	}
	return ew.err
}

func ms(d int64) string {
	return (time.Duration(d) * time.Millisecond).String()
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) printf(format string, args ...any) {
	if e.err == nil {
		_, e.err = fmt.Fprintf(e.w, format, args...)
	}
}

// WriteTree writes run rec as `taskctl runs show` prints it: the run, then
// each step indented under the task that holds it, with its kind, status
// and time, and what a step of a loop or a reduce adds: a loop's
// iterations and why it stopped, a script's exit status, an evaluator's
// verdict, a reduce's items and the most that ran at once, an item, a
// reused output.
func WriteTree(w io.Writer, rec *Record) error {
	ew := &errWriter{w: w}
	ew.printf("run %s  %s  %s in %s\n", rec.ID, rec.Task, rec.Status, ms(rec.DurationMS))
	if rec.ResumedFrom != "" {
		ew.printf("  resumed from %s\n", rec.ResumedFrom)
	}
	if rec.Error != "" {
		ew.printf("  error: %s\n", firstLine(rec.Error))
	}
	for _, s := range rec.Steps {
		ind := strings.Repeat("  ", s.Depth)
		kind := s.Type
		if s.Role != "" && s.Role != s.Type {
			kind = s.Role
		}
		line := fmt.Sprintf("%s%s  %s  %s", ind, s.label(), kind, s.Status)
		if s.Started != nil {
			line += "  " + ms(s.DurationMS)
		}
		ew.printf("%s%s\n", line, treeDetails(s))
		if s.Error != "" && !s.hasSteps() {
			ew.printf("%s    %s\n", ind, firstLine(s.Error))
		}
	}
	if rec.Dir != "" {
		ew.printf("record: %s\n", rec.Dir)
	}
	return ew.err
}

// treeDetails is what WriteTree adds to a step's line.
func treeDetails(s *StepResult) string {
	var d []string
	if s.Iterations > 0 {
		d = append(d, fmt.Sprintf("%d iteration(s)", s.Iterations))
	}
	if s.StopReason != "" {
		d = append(d, "stopped: "+s.StopReason)
	}
	if s.Items > 0 || s.Type == "reduce" {
		d = append(d, fmt.Sprintf("%d item(s), at most %d at once (parallelism %d)", s.Items, s.PeakParallel, s.Parallelism))
	}
	if s.Item != "" {
		d = append(d, "item "+s.Item)
	}
	if s.Role == "script" && s.ExitCode != nil {
		d = append(d, fmt.Sprintf("exit %d", *s.ExitCode))
	}
	if v := s.Verdict; v != nil {
		word := "rejected"
		if v.Success {
			word = "accepted"
		}
		d = append(d, fmt.Sprintf("verdict: %s %q", word, firstLine(v.Feedback)))
	}
	for _, l := range s.Left {
		d = append(d, fmt.Sprintf("%s %s", l.Code, l.Item))
	}
	if s.ReusedFrom != "" {
		d = append(d, "reused from "+s.ReusedFrom)
	}
	if len(d) == 0 {
		return ""
	}
	return "  (" + strings.Join(d, "; ") + ")"
}

func (s *StepResult) hasSteps() bool {
	return s.Type == sequential || s.Type == "director_evaluator_loop" || s.Type == "reduce"
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " …"
	}
	return s
}
