package workflow

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/taskctl/taskctl/internal/diag"
	"github.com/taskctl/taskctl/template"
)

// defaultMaxItems is how many items a reduce takes unless <items max_items>
// says otherwise; a longer list fails the step (it is never cut).
const defaultMaxItems = 1000

// checkFlow reports a loop or a reduce built without the steps its type
// needs (Parse never makes one).
func checkFlow(t *template.Task) error {
	switch t.Type {
	case template.TypeLoop:
		if t.Loop == nil || len(t.Steps) != 2 || t.Loop.MaxIterations < 1 {
			return fmt.Errorf("task %s: a director_evaluator_loop needs a director, an evaluator and max_iterations >= 1", label(t, 0))
		}
	case template.TypeReduce:
		if t.Reduce == nil || len(t.Steps) != 2 || t.Reduce.Parallelism < 1 {
			return fmt.Errorf("task %s: a reduce needs items, an inner task, a reduction task and parallelism >= 1", label(t, 0))
		}
	}
	return nil
}

// reduceTask runs a reduce whose own context is in res: the inner task once
// per item, at most Parallelism at once, then the reduction task with every
// result tagged with its item. The first item that fails stops the reduce:
// no further item starts, and the reduction task does not run.
func (r *runner) reduceTask(ctx context.Context, t *template.Task, res *StepResult, eff *template.Context, bound *template.Task, hist []*StepResult) (*StepResult, error) {
	spec := t.Reduce
	inner, reduction := t.Steps[0], t.Steps[1]
	items, err := r.items(spec, res, bound)
	if err != nil {
		return r.fail(ctx, res, StepFailed, err)
	}
	res.Items, res.Parallelism = len(items), spec.Parallelism
	runs := make([]*StepResult, len(items))
	for i, it := range items {
		runs[i] = r.child(res, inner, template.RoleInner)
		runs[i].Item, runs[i].ItemIndex = it, i+1
	}
	if err := r.save(); err != nil {
		return r.fail(ctx, res, StepFailed, fmt.Errorf("write the run record: %w", err))
	}
	scope := bound.Vars()
	r.peak.Store(0)
	failed, err := r.mapItems(ctx, inner, runs, eff, scope, res.Files, hist)
	res.PeakParallel = int(r.peak.Load())
	if err != nil {
		res.Status, res.Error = failed.Status, "step "+failed.label()+" "+failed.Status
		if res.Status == StepTimeout {
			res.Status = StepFailed
		}
		r.finish(res)
		return failed, err
	}
	red := r.child(res, reduction, template.RoleReduction)
	extra, left := r.results(runs, spec.MaxTokens)
	red.Left = left
	own := &roleValues{vars: map[string]string{"item_count": strconv.Itoa(len(items))}, extra: extra}
	for _, l := range left {
		own.warnings = append(own.warnings, diag.Warning{Code: l.Code, Path: l.Item,
			Message: fmt.Sprintf("the result of item %s (%d tokens) did not fit the reduction's budget of %d tokens: %s", l.Item, l.Tokens, spec.MaxTokens, leftWhat(l.Code))})
	}
	if failed, err := r.task(ctx, reduction, red, eff, scope, res.Files, hist, own); err != nil {
		res.Status, res.Error = StepFailed, "step "+failed.label()+" "+failed.Status
		if failed.Status == StepInterrupted {
			res.Status = StepInterrupted
		}
		r.finish(res)
		return failed, err
	}
	takeResult(res, red)
	if !r.dry {
		res.Status = StepOK
	}
	r.finish(res)
	return nil, r.save()
}

func leftWhat(c diag.Code) string {
	if c == diag.ReduceResultSummarised {
		return "its notes stand for it"
	}
	return "dropped, named in the prompt without its output"
}

// items is the list a reduce runs over: the files of its own context, the
// lines of an earlier step's result, or the lines (or, in a value of one
// line, the comma-separated values) of an input. Empty entries are left
// out; more than the cap fails the step.
func (r *runner) items(spec *template.ReduceSpec, res *StepResult, bound *template.Task) ([]string, error) {
	var list []string
	switch spec.Source {
	case template.ItemsFiles:
		list = append(list, res.Files...)
	case template.ItemsLines:
		rf, err := parseRef(spec.From)
		if err != nil {
			return nil, fmt.Errorf("items: %v", err)
		}
		if r.dry {
			return []string{pending(spec.From)}, nil
		}
		src := r.rec.Step(rf.step)
		if src == nil || src.Status != StepOK {
			return nil, fmt.Errorf("items from=%q: step %s has no result", spec.From, rf.step)
		}
		v, err := src.value(rf)
		if err != nil {
			return nil, fmt.Errorf("items from=%q: %w", spec.From, err)
		}
		list = splitItems(v, false)
	case template.ItemsVar:
		list = splitItems(bound.Vars()[spec.Var], true)
	default:
		return nil, fmt.Errorf("items source=%q: want files, lines or var", spec.Source)
	}
	limit := spec.MaxItems
	if limit <= 0 {
		limit = defaultMaxItems
	}
	if len(list) > limit {
		return nil, fmt.Errorf("the list has %d items, more than max_items (%d): nothing was run", len(list), limit)
	}
	return list, nil
}

// splitItems splits a value into items: one a line, or, when commas is set
// and the value is one line, one a comma-separated field; each trimmed,
// empty ones left out.
func splitItems(v string, commas bool) []string {
	sep := "\n"
	if commas && !strings.Contains(strings.TrimSpace(v), "\n") {
		sep = ","
	}
	var out []string
	for _, s := range strings.Split(v, sep) {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// mapItems runs the inner task once for each result in runs, with at most
// the reduce's parallelism executors at once: that many workers, each
// taking the next item, holding r.mu except while its executor runs (see
// executeUnlocked). It returns the first item run that failed.
func (r *runner) mapItems(ctx context.Context, inner *template.Task, runs []*StepResult, eff *template.Context, scope map[string]string, files []string, hist []*StepResult) (*StepResult, error) {
	if len(runs) == 0 {
		return nil, nil
	}
	workers := min(inner.Parent().Reduce.Parallelism, len(runs))
	if r.dry {
		workers = 1
	}
	ictx, stop := context.WithCancelCause(ctx)
	defer stop(nil)
	replay := r.replay
	var failed *StepResult
	var firstErr error
	next := 0
	var wg sync.WaitGroup
	r.mu.Lock()
	r.unlocked = workers > 1
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.mu.Lock()
			defer r.mu.Unlock()
			for next < len(runs) && failed == nil && ictx.Err() == nil {
				run := runs[next]
				next++
				r.replay = replay
				own := &roleValues{vars: map[string]string{"item": run.Item, "item_index": strconv.Itoa(run.ItemIndex)}}
				if f, err := r.task(ictx, inner, run, eff, scope, files, hist, own); err != nil && failed == nil {
					failed, firstErr = f, err
					stop(errItemFailed)
				}
			}
		}()
	}
	r.mu.Unlock()
	wg.Wait()
	r.unlocked = false
	r.replay = replay
	for _, run := range runs {
		if run.ReusedFrom == "" {
			r.replay = false
		}
	}
	if failed != nil && ctx.Err() == nil && errors.Is(context.Cause(ictx), errItemFailed) {
		// The items stopped because one failed: those that did not get
		// to run are skipped, those stopped while running interrupted.
		for _, run := range runs {
			if run != failed && run.Status == StepInterrupted {
				run.Error = "stopped: item " + failed.label() + " failed"
			}
		}
	}
	return failed, firstErr
}

var errItemFailed = errors.New("an item failed")

// results renders the reduction task's <results> section: every item's
// result in order, in full while the budget of maxTokens lasts; a result
// that does not fit is summarised (its notes, when it has notes that fit)
// or dropped (named, with its size), and listed in the returned slice.
func (r *runner) results(runs []*StepResult, maxTokens int) (func(*promptWriter), []LeftResult) {
	tokens := r.opt.Tokens
	if tokens == nil {
		tokens = func(s string) int { return (len(s) + 3) / 4 }
	}
	type entry struct {
		run   *StepResult
		text  string
		left  diag.Code
		count int
	}
	var entries []entry
	var left []LeftResult
	room := maxTokens
	for _, run := range runs {
		e := entry{run: run, text: run.Output}
		if r.dry {
			e.text = pending(run.label() + ".output")
		}
		e.count = tokens(e.text)
		switch {
		case e.count <= room:
			room -= e.count
		case run.Notes != nil && tokens(string(run.Notes)) <= room:
			e.left, e.text = diag.ReduceResultSummarised, notesText(run)
			room -= tokens(string(run.Notes))
		default:
			e.left, e.text = diag.ReduceResultDropped, ""
		}
		if e.left != "" {
			left = append(left, LeftResult{Item: run.Item, Tokens: e.count, Code: e.left})
		}
		entries = append(entries, e)
	}
	return func(p *promptWriter) {
		b := &p.b
		fmt.Fprintf(b, "<results items=\"%d\" max_tokens=\"%d\">\n", len(entries), maxTokens)
		for _, e := range entries {
			b.WriteString("<result item=\"")
			p.attr(e.run.Item)
			fmt.Fprintf(b, "\" index=\"%d\" status=\"", e.run.ItemIndex)
			p.attr(e.run.Status)
			b.WriteString("\"")
			switch e.left {
			case "":
				b.WriteString(">")
				p.block(e.text)
				b.WriteString("</result>\n")
			case diag.ReduceResultSummarised:
				fmt.Fprintf(b, " left=\"%s\" tokens=\"%d\"><notes>", e.left, e.count)
				p.block(e.text)
				b.WriteString("</notes></result>\n")
			default:
				fmt.Fprintf(b, " left=\"%s\" tokens=\"%d\"/>\n", e.left, e.count)
			}
		}
		b.WriteString("</results>\n")
	}, left
}

// notesText is a result's notes as text.
func notesText(s *StepResult) string {
	if v, err := decode(s.Notes); err == nil {
		return text(v)
	}
	return string(s.Notes)
}
