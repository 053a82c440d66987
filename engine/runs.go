package engine

import (
	"errors"
	"io/fs"
	"path/filepath"
	"strings"
	"time"

	"github.com/taskctl/taskctl/internal/diag"
	"github.com/taskctl/taskctl/workflow"
)

// RunSummary is one run in the list `taskctl runs` prints.
type RunSummary struct {
	ID          string     `json:"run_id"`
	Task        string     `json:"task"`
	Status      string     `json:"status"`
	Started     time.Time  `json:"started"`
	Ended       *time.Time `json:"ended,omitempty"`
	DurationMS  int64      `json:"duration_ms"`
	Steps       int        `json:"steps"`
	Failed      string     `json:"failed_step,omitempty"`
	ResumedFrom string     `json:"resumed_from,omitempty"`
	Dir         string     `json:"dir"`
	Error       string     `json:"error,omitempty"`
}

// runsDir is <project>/.taskctl/runs.
func (e *Engine) runsDir() (string, error) {
	p, err := e.Project()
	if err != nil {
		return "", err
	}
	return filepath.Join(p.Workspace(), "runs"), nil
}

// Runs lists the recorded runs, oldest first. A run whose record cannot
// be read is listed with status "unreadable" and the reason.
func (e *Engine) Runs() ([]RunSummary, error) {
	dir, err := e.runsDir()
	if err != nil {
		return nil, err
	}
	ids, err := workflow.Runs(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return []RunSummary{}, nil
	}
	if err != nil {
		return nil, err
	}
	out := make([]RunSummary, 0, len(ids))
	for _, id := range ids {
		rec, err := workflow.LoadRunHeader(dir, id)
		if err != nil {
			out = append(out, RunSummary{ID: id, Status: "unreadable", Dir: filepath.Join(dir, id), Error: err.Error()})
			continue
		}
		s := RunSummary{ID: rec.ID, Task: rec.Task, Status: rec.Status, Started: rec.Started, Ended: rec.Ended,
			DurationMS: rec.DurationMS, Steps: len(rec.Steps), ResumedFrom: rec.ResumedFrom, Dir: rec.Dir, Error: rec.Error}
		for _, st := range rec.Steps {
			if st.Status == workflow.StepFailed || st.Status == workflow.StepTimeout {
				s.Failed = st.Label()
				break
			}
		}
		out = append(out, s)
	}
	return out, nil
}

// ShowRun reads the record of run id ("latest" for the newest).
func (e *Engine) ShowRun(id string) (*Record, error) {
	if id != "latest" && !workflow.ValidRunID(id) {
		return nil, UsageError("run %q: not a run ID (want YYYYMMDD-HHMMSS-xxxx, or latest)", id)
	}
	dir, err := e.runsDir()
	if err != nil {
		return nil, err
	}
	rec, err := workflow.LoadRun(dir, id)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, codedErr(diag.RunNotFound, ClassNotFound, "%v", err)
		}
		return nil, err
	}
	return rec, nil
}

// resumable loads the run req.Resume names for Run, fills in the template,
// task and vars it ran with where req does not give them, and refuses a
// run that is still running.
func (e *Engine) resumable(req *RunRequest) (*workflow.Record, error) {
	prev, err := e.ShowRun(req.Resume)
	if err != nil {
		return nil, err
	}
	if prev.Status == workflow.RunRunning {
		return nil, codedErr(diag.ResumeMismatch, ClassUsage, "run %s is still running (pid %d)", prev.ID, prev.PID)
	}
	// A run record is a file under .taskctl/, which a cloned repository
	// can commit: what it names is taken only from this project.
	p, err := e.Project()
	if err != nil {
		return nil, err
	}
	if prev.ProjectDir != p.Dir() {
		return nil, codedErr(diag.ResumeMismatch, ClassUsage, "run %s was recorded in another project (%q), not %s", prev.ID, prev.ProjectDir, p.Dir())
	}
	if req.Template == "" {
		if prev.Template == "" {
			return nil, UsageError("run %s does not say which template it ran: name the template file along with %s %s", prev.ID, e.name(FieldResume), prev.ID)
		}
		if !inside(p.Dir(), prev.Template) {
			return nil, codedErr(diag.ResumeMismatch, ClassUsage, "run %s names the template %q, outside the project: name the template file along with %s %s", prev.ID, prev.Template, e.name(FieldResume), prev.ID)
		}
		req.Template, req.Task = prev.Template, prev.Task
	}
	given := map[string]bool{}
	if vs, err := e.parseVars(req.Vars); err == nil {
		for k := range vs {
			given[k] = true
		}
	}
	for k, v := range prev.Vars {
		if !given[k] {
			req.Vars = append(req.Vars, k+"="+v)
		}
	}
	return prev, nil
}

// inside reports whether path, with its symbolic links evaluated, lies in
// dir (a real path), by path components.
func inside(dir, path string) bool {
	if !filepath.IsAbs(path) {
		return false
	}
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return false
	}
	rel, err := filepath.Rel(dir, real)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, "../") && filepath.IsLocal(rel)
}
