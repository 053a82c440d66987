package workflow

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"time"

	"github.com/taskctl/taskctl/internal/diag"
	"github.com/taskctl/taskctl/template"
)

// ErrNotConverged is wrapped by the error of a director_evaluator_loop
// that ran max_iterations iterations without a verdict of success.
var ErrNotConverged = errors.New("the loop did not converge")

// ErrTimeBudget is wrapped by the error of a director_evaluator_loop
// whose time budget ran out.
var ErrTimeBudget = errors.New("the loop's time budget ran out")

// ErrVerdict is wrapped by the error of an evaluator whose output is not a
// verdict: a JSON object with a boolean "success" (and a string "feedback").
var ErrVerdict = errors.New("not a verdict")

// errBudget is the cause of a loop's context when its budget runs out.
var errBudget = errors.New("time budget")

// Why a loop stopped (StepResult.StopReason).
const (
	StopSuccess       = "success"
	StopMaxIterations = "max_iterations"
	StopTimeBudget    = "time_budget"
	StopStepFailed    = "step_failed"
	StopInterrupted   = "interrupted"
)

// roleValues is what a step's role gives it as it runs: the values of its
// implicit inputs, the results of the steps of its own iteration by name
// (an evaluator's from="director.output" binds this iteration's director),
// and a section of its prompt (a reduction task's results).
type roleValues struct {
	vars  map[string]string
	steps map[string]*StepResult
	extra func(*promptWriter)
	// warnings are the step's before it runs (a reduction's results that
	// did not fit): under Options.Strict they stop it.
	warnings []diag.Warning
}

func (o *roleValues) step(name string) *StepResult {
	if o == nil || name == "" {
		return nil
	}
	return o.steps[name]
}

func (o *roleValues) section() func(*promptWriter) {
	if o == nil {
		return nil
	}
	return o.extra
}

// child adds the result of a step that parent (a loop or a reduce) runs,
// of task t (nil for a script), after the steps parent already holds.
func (r *runner) child(parent *StepResult, t *template.Task, role string) *StepResult {
	res := &StepResult{Index: r.next, Parent: parent.label(), Depth: parent.Depth + 1,
		Role: role, Type: role, Status: StepPending, Files: []string{}}
	if r.dry {
		res.Status = StepPlanned
	}
	r.next++
	if t != nil {
		res.Name, res.Type = t.Name, kindOf(t)
	}
	steps := r.rec.Steps
	i := slices.Index(steps, parent) + 1
	for i < len(steps) && steps[i].Depth > parent.Depth {
		i++
	}
	r.rec.Steps = slices.Insert(steps, i, res)
	return res
}

// loopTask runs a director_evaluator_loop whose own context is in res:
// director, script (if any), evaluator, until a verdict says success, the
// loop has run max_iterations times, a step fails or the time budget runs
// out. The loop's result is its last director's.
func (r *runner) loopTask(ctx context.Context, t *template.Task, res *StepResult, eff *template.Context, bound *template.Task, hist []*StepResult) (*StepResult, error) {
	spec := t.Loop
	director, evaluator := t.Steps[0], t.Steps[1]
	lctx := ctx
	if spec.TimeBudget > 0 && !r.dry {
		var cancel context.CancelFunc
		lctx, cancel = context.WithTimeoutCause(ctx, time.Duration(spec.TimeBudget)*time.Second, errBudget)
		defer cancel()
	}
	h := slices.Clone(hist)
	scope := bound.Vars()
	feedback := ""
	var last *StepResult
	for i := 1; i <= spec.MaxIterations; i++ {
		if lctx.Err() != nil {
			return r.loopFailed(ctx, lctx, res, t, res, interrupted(lctx))
		}
		res.Iterations = i
		d := r.child(res, director, template.RoleDirector)
		d.Iteration = i
		own := &roleValues{vars: map[string]string{"iteration": strconv.Itoa(i),
			"max_iterations": strconv.Itoa(spec.MaxIterations), "feedback": feedback}}
		if failed, err := r.task(lctx, director, d, eff, scope, res.Files, h, own); err != nil {
			return r.loopFailed(ctx, lctx, res, t, failed, err)
		}
		last = d
		out := d.Output
		if r.dry {
			out = pending(d.label() + ".output")
		}
		own = &roleValues{vars: map[string]string{"iteration": strconv.Itoa(i), "director_output": out},
			steps: map[string]*StepResult{director.Name: d}}
		if spec.Script != nil {
			s := r.child(res, nil, "script")
			s.Iteration = i
			if err := r.script(lctx, s, spec.Script); err != nil {
				return r.loopFailed(ctx, lctx, res, t, s, err)
			}
			maps.Copy(own.vars, scriptVars(s, r.dry))
		}
		e := r.child(res, evaluator, template.RoleEvaluator)
		e.Iteration = i
		if failed, err := r.task(lctx, evaluator, e, eff, scope, res.Files, h, own); err != nil {
			return r.loopFailed(ctx, lctx, res, t, failed, err)
		}
		h = append(h, d, e)
		if r.dry {
			break
		}
		v, err := verdictOf(e)
		if err != nil {
			e.Status, e.Error = StepFailed, err.Error()
			return r.loopFailed(ctx, lctx, res, t, e, err)
		}
		e.Verdict = &v
		if v.Success {
			res.StopReason = StopSuccess
			return r.loopDone(res, last)
		}
		feedback = v.Feedback
		if err := r.save(); err != nil {
			return res, fmt.Errorf("write the run record: %w", err)
		}
	}
	if r.dry {
		return r.loopDone(res, last)
	}
	res.StopReason = StopMaxIterations
	takeResult(res, last)
	err := fmt.Errorf("%w: no verdict accepted the work in %d iterations (max_iterations); the last feedback: %q",
		ErrNotConverged, spec.MaxIterations, feedback)
	return r.fail(ctx, res, StepFailed, err)
}

// loopDone ends a loop that stopped well, its result its last director's.
func (r *runner) loopDone(res, last *StepResult) (*StepResult, error) {
	takeResult(res, last)
	if !r.dry {
		res.Status = StepOK
	}
	r.finish(res)
	return nil, r.save()
}

// takeResult makes from's output, notes and parsed JSON res's.
func takeResult(res, from *StepResult) {
	if from != nil {
		res.Output, res.Notes, res.Parsed, res.OutputFile = from.Output, from.Notes, from.Parsed, from.OutputFile
	}
}

// loopFailed ends a loop one of whose steps, failed, stopped it with err:
// the run's own context was cancelled (interrupted), the loop's time
// budget ran out (lctx's), or the step failed.
func (r *runner) loopFailed(ctx, lctx context.Context, res *StepResult, t *template.Task, failed *StepResult, err error) (*StepResult, error) {
	if failed == nil {
		failed = res
	}
	switch {
	case ctx.Err() != nil:
		res.StopReason = StopInterrupted
		res.Status = StepInterrupted
	case lctx.Err() != nil && errors.Is(context.Cause(lctx), errBudget):
		res.StopReason = StopTimeBudget
		err = fmt.Errorf("%w: %s after %d iteration(s) (time_budget %ds)", ErrTimeBudget, label(t, 0), res.Iterations, t.Loop.TimeBudget)
		if failed != res {
			failed.Status, failed.Error = StepTimeout, err.Error()
		}
		res.Status = StepFailed
	default:
		res.StopReason = StopStepFailed
		res.Status = StepFailed
	}
	res.Error = "step " + failed.label() + " " + failed.Status
	if failed == res {
		res.Error = err.Error()
	}
	r.finish(res)
	if serr := r.save(); serr != nil {
		err = fmt.Errorf("%w (and the run record: %v)", err, serr)
	}
	return failed, err
}

// verdictOf reads an evaluator's verdict from the JSON it printed: an
// object whose "success" is a boolean; "feedback", if present, is a string
// (anything else is taken as its JSON text).
func verdictOf(e *StepResult) (Verdict, error) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(e.Parsed, &obj); err != nil || obj == nil {
		return Verdict{}, fmt.Errorf("evaluator %s: %w: want a JSON object {\"success\": true|false, \"feedback\": \"...\"}", e.label(), ErrVerdict)
	}
	var v Verdict
	if err := json.Unmarshal(obj["success"], &v.Success); err != nil || obj["success"] == nil {
		return Verdict{}, fmt.Errorf("evaluator %s: %w: \"success\" must be true or false", e.label(), ErrVerdict)
	}
	if fb, ok := obj["feedback"]; ok {
		if err := json.Unmarshal(fb, &v.Feedback); err != nil {
			v.Feedback = string(fb)
		}
	}
	return v, nil
}
