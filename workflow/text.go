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
