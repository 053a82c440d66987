package workflow

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"slices"
)

// key identifies a step across two runs of one task: the label of the
// task that holds it and its own (with its iteration or item).
func (s *StepResult) key() string { return s.Parent + "/" + s.label() }

func digest(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

// reuse takes the recorded result of step res from the run being resumed
// when the run is still replaying (every step before it was reused, or
// res is an item of a reduce: items are independent) and that step
// finished with the same prompt and context (a script: the same command
// line). The reused output is written to this run's directory. A step
// that is not reused ends the replay.
func (r *runner) reuse(res *StepResult) bool {
	if r.prev == nil || !r.replay {
		return false
	}
	p := r.prev[res.key()]
	same := p != nil && p.Status == StepOK &&
		p.PromptSHA256 == res.PromptSHA256 && p.ContextSHA256 == res.ContextSHA256 &&
		slices.Equal(p.Command, res.Command) && p.Type == res.Type
	if same && p.OutputFile == "" && p.Output != "" {
		same = false // (a record of version 1 whose output cannot be copied to a file)
	}
	if !same {
		if res.ItemIndex == 0 {
			r.replay = false
		}
		return false
	}
	res.Output, res.Notes, res.Parsed, res.ExitCode = p.Output, p.Notes, p.Parsed, p.ExitCode
	res.Stderr, res.Truncated, res.Verdict = p.Stderr, p.Truncated, p.Verdict
	res.OutputFile = res.fileBase() + ".output.txt"
	if err := r.st.write(res.OutputFile, res.Output); err != nil {
		res.OutputFile = ""
		r.replay = false
		return false
	}
	res.ReusedFrom = r.opt.Resume.ID
	if p.ReusedFrom != "" {
		res.ReusedFrom = p.ReusedFrom // the run that produced it
	}
	res.Status = StepOK
	r.finish(res)
	return true
}

// executeUnlocked is execute for a step of a reduce whose items run at
// once: the executor runs without r.mu, which the worker holds otherwise.
// It counts the executors running at once (r.peak keeps the most).
func (r *runner) executeUnlocked(ctx context.Context, res *StepResult, prompt, outFile string) execution {
	n := r.running.Add(1)
	for {
		p := r.peak.Load()
		if n <= p || r.peak.CompareAndSwap(p, n) {
			break
		}
	}
	defer r.running.Add(-1)
	if !r.unlocked {
		return r.execute(ctx, res, prompt, outFile)
	}
	r.mu.Unlock()
	defer r.mu.Lock()
	return r.execute(ctx, res, prompt, outFile)
}
