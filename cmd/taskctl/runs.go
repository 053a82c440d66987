package main

import (
	"context"
	"fmt"

	"github.com/taskctl/taskctl/engine"
)

func runsCmd() *command {
	return &command{
		name:  "runs",
		usage: "[show RUN_ID|latest]",
		short: "list the recorded runs, or show one as a tree of its steps, iterations and verdicts",
		long: `Without arguments, lists the runs recorded under .taskctl/runs/, oldest
first: id, task, status, duration and the step that failed. "runs show ID"
prints one run as a tree: each step under the task that holds it, a loop's
iterations (director, script with its exit status, evaluator with its
verdict) and why it stopped, a reduce's items and the most that ran at once,
and the steps a resumed run reused. With --output json, data is the list
({runs: [...]}) or the run's record as run prints it.`,
		examples: []string{"taskctl runs", "taskctl runs show latest", "taskctl runs show 20250101-120000-ab12 --output json"},
		run:      runRuns,
	}
}

func runRuns(ctx context.Context, e *env, args []string) (any, error) {
	switch {
	case len(args) == 0:
		list, err := e.eng.Runs()
		if err != nil {
			return nil, err
		}
		if !e.json() {
			for _, r := range list {
				line := fmt.Sprintf("%s  %-11s %s  %dms", r.ID, r.Status, r.Task, r.DurationMS)
				if r.Failed != "" {
					line += "  failed at " + r.Failed
				}
				if r.ResumedFrom != "" {
					line += "  resumed from " + r.ResumedFrom
				}
				fmt.Fprintln(e.stdout, line)
			}
		}
		return map[string]any{"runs": list}, nil
	case len(args) == 2 && args[0] == "show":
		rec, err := e.eng.ShowRun(args[1])
		if err != nil {
			return nil, err
		}
		if !e.json() {
			if err := engine.WriteRunTree(e.stdout, rec); err != nil {
				return nil, err
			}
		}
		return runData(rec, false), nil
	}
	return nil, usageErr("usage: taskctl runs [show RUN_ID|latest]")
}
