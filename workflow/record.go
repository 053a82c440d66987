package workflow

import (
	"cmp"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unsafe"

	"github.com/taskctl/taskctl/internal/diag"
	"github.com/taskctl/taskctl/internal/lazyregexp"
	"github.com/taskctl/taskctl/state"
	"github.com/taskctl/taskctl/template"
)

// recordVersion is the version of the run.json format. Version 2 keeps a
// step's output only in its output file; version 1 held it in run.json too.
// Version 3 does not keep the JSON a step's output parsed to either, when
// the output has a file: LoadRun parses the output again.
const recordVersion = 3

// Record is a run: what run.json holds and what the CLI prints.
type Record struct {
	Version  int      `json:"version"`
	ID       string   `json:"run_id"`
	Task     string   `json:"task"`
	Status   string   `json:"status"`
	PID      int      `json:"pid,omitempty"`
	Host     string   `json:"host,omitempty"`
	Executor []string `json:"executor,omitempty"`
	// Sandbox is the sandbox mode the executors ran in ("off" when they
	// were not confined; "" in a dry run).
	Sandbox    string            `json:"sandbox,omitempty"`
	ProjectDir string            `json:"project_dir,omitempty"`
	Started    time.Time         `json:"started"`
	Ended      *time.Time        `json:"ended,omitempty"`
	DurationMS int64             `json:"duration_ms"`
	Vars       map[string]string `json:"vars,omitempty"`
	// Inputs are the bound values of the top-level task's inputs.
	Inputs map[string]string `json:"inputs,omitempty"`
	// Files are the top-level task's own context, the parent's files of its
	// steps.
	Files    []string       `json:"files"`
	Warnings []diag.Warning `json:"warnings,omitempty"`
	Steps    []*StepResult  `json:"steps"`
	Error    string         `json:"error,omitempty"`
	// Template is the file the task was read from; ResumedFrom the run
	// this one resumed (taskctl run --resume).
	Template    string `json:"template,omitempty"`
	ResumedFrom string `json:"resumed_from,omitempty"`

	// Dir is the run's directory ("" for a dry run).
	Dir string `json:"-"`
}

// StepResult is one step of a run. Steps are listed in the order they start,
// nested steps right after the sequential task that holds them; Index (from
// 1) numbers the step's files in the run directory.
type StepResult struct {
	Index  int    `json:"index"`
	Name   string `json:"name"`
	Type   string `json:"type"`             // atomic or sequential
	Parent string `json:"parent,omitempty"` // the enclosing sequential task ("#N" if unnamed), "" for the top-level task
	Depth  int    `json:"depth"`            // 1 for the top-level task's steps
	Status string `json:"status"`

	Output string          `json:"output"`
	Notes  json.RawMessage `json:"notes,omitempty"`
	Parsed json.RawMessage `json:"parsed,omitempty"`
	Files  []string        `json:"files"`

	Inherit    template.InheritMode `json:"inherit"`
	Accumulate string               `json:"accumulate,omitempty"` // notes_only, full_output or ""
	Inputs     map[string]string    `json:"inputs,omitempty"`     // the bound values of the step's inputs
	Bindings   map[string]string    `json:"bindings,omitempty"`   // input name -> from
	Warnings   []diag.Warning       `json:"warnings,omitempty"`

	Started    *time.Time `json:"started,omitempty"`
	Ended      *time.Time `json:"ended,omitempty"`
	DurationMS int64      `json:"duration_ms"`
	ExitCode   *int       `json:"exit_code,omitempty"`
	Error      string     `json:"error,omitempty"`

	// Of a step inside a director_evaluator_loop or a reduce: its role
	// (director, script, evaluator, inner_task, reduction_task), the
	// iteration it belongs to (from 1), or the item it ran for and the
	// item's place in the list (from 1).
	Role      string `json:"role,omitempty"`
	Iteration int    `json:"iteration,omitempty"`
	Item      string `json:"item,omitempty"`
	ItemIndex int    `json:"item_index,omitempty"`
	// Verdict is an evaluator's verdict.
	Verdict *Verdict `json:"verdict,omitempty"`
	// Of a loop: the iterations it ran and why it stopped (success,
	// max_iterations, time_budget, step_failed, interrupted).
	Iterations int    `json:"iterations,omitempty"`
	StopReason string `json:"stop_reason,omitempty"`
	// Of a reduce: how many items, how many ran at once at most, and the
	// most that ever ran at once.
	Items        int `json:"items,omitempty"`
	Parallelism  int `json:"parallelism,omitempty"`
	PeakParallel int `json:"peak_parallel,omitempty"`
	// Left is what a reduction task's prompt did not hold of the items'
	// results in full (each summarised to its notes, or dropped).
	Left []LeftResult `json:"left,omitempty"`
	// Of a script: its command line, its stderr (its stdout is Output),
	// and whether either was cut at its cap.
	Command   []string `json:"command,omitempty"`
	Stderr    string   `json:"stderr,omitempty"`
	Truncated bool     `json:"truncated,omitempty"`

	// PromptSHA256 and ContextSHA256 are the sha256 of an atomic step's
	// prompt and of its context document: a resumed run reuses the
	// output of a step whose prompt is the same (ReusedFrom names the run
	// it was taken from).
	PromptSHA256  string `json:"prompt_sha256,omitempty"`
	ContextSHA256 string `json:"context_sha256,omitempty"`
	ReusedFrom    string `json:"reused_from,omitempty"`

	PromptFile string `json:"prompt_file,omitempty"` // relative to the run's directory
	// OutputFile holds Output (a sequential task's is its last step's).
	// run.json does not hold the output of a step that has one.
	OutputFile string `json:"output_file,omitempty"`

	// Prompt is the prompt rendered for the step (atomic steps that got as
	// far); Context is what the assembler returned. Neither is in run.json.
	Prompt  string     `json:"-"`
	Context *Assembled `json:"-"`
}

// Verdict is what an evaluator decided of an iteration.
type Verdict struct {
	Success  bool   `json:"success"`
	Feedback string `json:"feedback"`
}

// LeftResult is an item's result that a reduction task's prompt does not
// hold in full: Code is REDUCE_RESULT_SUMMARISED (its notes stand for it)
// or REDUCE_RESULT_DROPPED (it is named, without its output).
type LeftResult struct {
	Item   string    `json:"item"`
	Tokens int       `json:"tokens"`
	Code   diag.Code `json:"code"`
}

// label names a step in bindings, messages and the tree of a run: its name
// (its role if it has none, or "#N" by its index), then "@N" for the step
// of iteration N of a loop or "[N]" for the run of item N of a reduce.
func (s *StepResult) label() string {
	base := s.Name
	if base == "" {
		base = s.Role
	}
	switch {
	case base == "":
		return fmt.Sprintf("#%d", s.Index)
	case s.Iteration > 0:
		return fmt.Sprintf("%s@%d", base, s.Iteration)
	case s.ItemIndex > 0:
		return fmt.Sprintf("%s[%d]", base, s.ItemIndex)
	}
	return base
}

// Label is the step's label: its name, "#N", "NAME@ITERATION" or
// "NAME[ITEM]".
func (s *StepResult) Label() string { return s.label() }

// fileBase is the NN-STEP prefix of a step's files.
func (s *StepResult) fileBase() string {
	name := strings.Map(func(r rune) rune {
		if r == '-' || r == '_' || r == '.' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' {
			return r
		}
		return '_'
	}, cmp.Or(s.Name, s.Role))
	if name == "" || strings.Trim(name, ".") == "" {
		name = "step"
	}
	return fmt.Sprintf("%02d-%s", s.Index, name)
}

// Step returns the result of the step named name (or "#N" for the unnamed
// step with index N), or nil.
func (r *Record) Step(name string) *StepResult {
	if name == "" {
		return nil
	}
	for _, s := range r.Steps {
		if s.label() == name {
			return s
		}
	}
	return nil
}

var idPattern = lazyregexp.New(`^[0-9]{8}-[0-9]{6}-[0-9a-f]{4}$`)

// ValidRunID reports whether id has the form of a run ID
// (YYYYMMDD-HHMMSS-xxxx).
func ValidRunID(id string) bool { return idPattern.Re().MatchString(id) }

// newID makes a run ID that sorts by start time (UTC, to the second), with
// four random hex digits.
func newID(now time.Time) string {
	var b [2]byte
	_, _ = rand.Read(b[:])
	return now.UTC().Format("20060102-150405") + "-" + hex.EncodeToString(b[:])
}

// store writes one run's files in its directory of RunsDir, both held
// open as state.Dirs: nothing is created, replaced or read through
// a symbolic link, and a RunsDir with one on its path (.taskctl/runs
// committed as a link out of a cloned repository) is refused.
type store struct {
	runs *state.Dir // RunsDir
	dir  *state.Dir // the run's own directory
	id   string
}

// create makes a new run directory in runsDir.
func create(runsDir string, now time.Time) (*store, error) {
	if runsDir == "" {
		return nil, errors.New("no runs directory")
	}
	runs, err := state.Open(runsDir)
	if err != nil {
		return nil, err
	}
	for range 16 {
		id := newID(now)
		err = runs.Mkdir(id, 0o700)
		if err == nil {
			var dir *state.Dir
			if dir, err = runs.Dir(id); err != nil {
				break
			}
			return &store{runs: runs, dir: dir, id: id}, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			break
		}
	}
	runs.Close()
	return nil, err
}

func (s *store) close() {
	s.dir.Close()
	s.runs.Close()
}

// write replaces name in the run directory atomically with data.
func (s *store) write(name string, data string) error {
	f, err := s.create(name)
	if err != nil {
		return err
	}
	if _, err := f.WriteString(data); err != nil {
		f.Abort()
		return err
	}
	return f.Commit(true)
}

// create starts writing name in the run directory: a temporary file in
// the same directory, which Commit syncs and renames over its name, so a
// reader sees the old file or the whole new one.
func (s *store) create(name string) (*state.PendingFile, error) {
	return s.dir.Create(name, 0o600)
}

// recordFile is what run.json holds of a record: its steps without the
// outputs their output files hold. A run's outputs are most of its record,
// and run.json is rewritten after every step.
type recordFile struct {
	*Record
	Steps []stepFile `json:"steps"`
}

type stepFile struct {
	*StepResult
	Output *string `json:"output,omitempty"`
	// Parsed is left out (nil) when ParsedFromOutput says the output
	// file's content parses to it.
	Parsed           *json.RawMessage `json:"parsed,omitempty"`
	ParsedFromOutput bool             `json:"parsed_from_output,omitempty"`
}

// writeRecord writes r as run.json in the version r has: a new run's is
// recordVersion; one that settle rewrites keeps the version it was read
// with, and a record older than version 2 holds every step's output, which
// it may have no output file for.
func (s *store) writeRecord(r *Record) error {
	rf := recordFile{Record: r, Steps: make([]stepFile, len(r.Steps))}
	for i, st := range r.Steps {
		f := &rf.Steps[i]
		f.StepResult = st
		if st.OutputFile == "" || r.Version < 2 {
			f.Output = &st.Output
		}
		switch {
		case st.Parsed == nil:
		case st.OutputFile != "" && r.Version >= 3:
			f.ParsedFromOutput = true
		default:
			f.Parsed = &st.Parsed
		}
	}
	data, err := json.MarshalIndent(rf, "", "  ")
	if err != nil {
		return err
	}
	return s.write("run.json", string(append(data, '\n')))
}

// LoadRun reads the record of run id ("latest" for the newest) from runsDir.
// A record that says "running" while the process that wrote it (on this
// host) is gone is reported as "interrupted", as is its running step; the
// file is not changed. A step's output is read only from a regular file in
// the run's own directory of at most 64 MiB; any other output_file is an
// error naming the step.
func LoadRun(runsDir, id string) (*Record, error) {
	return loadRun(runsDir, id, true)
}

// LoadRunHeader is LoadRun without the steps' outputs (and the JSON they
// parse to): what a list of runs needs, without reading every output file.
func LoadRunHeader(runsDir, id string) (*Record, error) {
	return loadRun(runsDir, id, false)
}

func loadRun(runsDir, id string, outputs bool) (*Record, error) {
	id, err := resolveRunID(runsDir, id)
	if err != nil {
		return nil, err
	}
	runs, err := state.Open(runsDir)
	if err != nil {
		return nil, err
	}
	defer runs.Close()
	run, err := runs.Dir(id)
	if err != nil {
		return nil, runError(id, err)
	}
	defer run.Close()
	data, err := run.ReadFile("run.json", maxRecordFile)
	if err != nil {
		return nil, runError(id, err)
	}
	r, rf, err := decodeRecord(id, data)
	if err != nil {
		return nil, err
	}
	r.Dir = filepath.Join(runsDir, id)
	if outputs {
		if err := r.readOutputs(run, id); err != nil {
			return nil, err
		}
		if err := r.reparse(rf, id); err != nil {
			return nil, err
		}
	}
	r.settleIfGone()
	return r, nil
}

// resolveRunID turns "latest" into the newest run's ID and checks that id
// has the form of one.
func resolveRunID(runsDir, id string) (string, error) {
	if id == "latest" {
		ids, err := Runs(runsDir)
		if err != nil {
			return "", err
		}
		if len(ids) == 0 {
			return "", fmt.Errorf("no runs in %s: %w", runsDir, fs.ErrNotExist)
		}
		id = newest(runsDir, ids)
	}
	if !idPattern.Re().MatchString(id) {
		return "", fmt.Errorf("run %q: not a run ID (want YYYYMMDD-HHMMSS-xxxx)", id)
	}
	return id, nil
}

// newest is the newest of ids (sorted): the last, unless runs started in
// the same second as it (an ID holds the second, then random digits): then
// the one whose record says it started last.
func newest(runsDir string, ids []string) string {
	last := ids[len(ids)-1]
	second := last[:len("20060102-150405")]
	best, bestAt := last, time.Time{}
	for i := len(ids) - 1; i >= 0 && strings.HasPrefix(ids[i], second); i-- {
		r, err := LoadRunHeader(runsDir, ids[i])
		if err == nil && r.Started.After(bestAt) {
			best, bestAt = ids[i], r.Started
		}
	}
	return best
}

// runError names the run in an error opening or reading it, keeping
// fs.ErrNotExist visible to errors.Is.
func runError(id string, err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("run %s: %w", id, fs.ErrNotExist)
	}
	return fmt.Errorf("run %s: %w", id, err)
}

// decodeRecord decodes run.json: the record, its steps (none may be null)
// with the output and parsed JSON it holds inline (version 1), and the
// JSON kept compact as Run keeps it. A version newer than this taskctl's
// is refused.
func decodeRecord(id string, data []byte) (*Record, recordFile, error) {
	// The record is allocated here: json would leave it nil for a run.json
	// that sets none of its fields ("{}", "null").
	rf := recordFile{Record: &Record{}}
	if err := json.Unmarshal(data, &rf); err != nil {
		return nil, rf, fmt.Errorf("run %s: run.json: %w", id, err)
	}
	r := *rf.Record
	r.Steps = make([]*StepResult, len(rf.Steps))
	for i, f := range rf.Steps {
		if f.StepResult == nil {
			return nil, rf, fmt.Errorf("run %s: run.json: step %d is null", id, i+1)
		}
		s := f.StepResult
		if f.Output != nil {
			s.Output = *f.Output
		}
		if f.Parsed != nil {
			s.Parsed = *f.Parsed
		}
		r.Steps[i] = s
	}
	if r.Version > recordVersion {
		return nil, rf, fmt.Errorf("run %s: run.json version %d is newer than this taskctl (%d)", id, r.Version, recordVersion)
	}
	for _, s := range r.Steps {
		// run.json is indented; keep the JSON compact as Run does.
		if s.Notes != nil {
			s.Notes = compact(string(s.Notes))
		}
		if s.Parsed != nil {
			s.Parsed = compact(string(s.Parsed))
		}
	}
	return &r, rf, nil
}

// readOutputs reads each step's output from its output file in the run's
// directory (version 2 on), each file once.
func (r *Record) readOutputs(run *state.Dir, id string) error {
	if r.Version < 2 {
		return nil
	}
	outputs := map[string]string{}
	for _, s := range r.Steps {
		if s.OutputFile == "" {
			continue
		}
		out, ok := outputs[s.OutputFile]
		if !ok {
			var err error
			if out, err = readOutput(run, s.OutputFile); err != nil {
				return fmt.Errorf("run %s: step %s: read its output: %w", id, s.label(), err)
			}
			outputs[s.OutputFile] = out
		}
		s.Output = out
	}
	return nil
}

// reparse parses again the output of each step whose parsed JSON run.json
// left out (version 3), after the outputs are read.
func (r *Record) reparse(rf recordFile, id string) error {
	for i, f := range rf.Steps {
		if !f.ParsedFromOutput {
			continue
		}
		s := r.Steps[i]
		if r.Version < 3 || s.OutputFile == "" {
			return fmt.Errorf("run %s: step %s: parsed_from_output without an output file of a version 3 record", id, s.label())
		}
		p, err := parseOutput(s.Output)
		if err != nil {
			return fmt.Errorf("run %s: step %s: its output no longer parses: %w", id, s.label(), err)
		}
		s.Parsed = p
	}
	return nil
}

// settleIfGone reports a record that says "running" while the process
// that wrote it (on this host) is gone as interrupted: its running step
// interrupted, its pending ones skipped. The file is not changed.
func (r *Record) settleIfGone() {
	if r.Status != RunRunning || alive(r.PID, r.Host) {
		return
	}
	r.Status = RunInterrupted
	if r.Error == "" {
		r.Error = fmt.Sprintf("the process that ran it (pid %d) is gone", r.PID)
	}
	for _, s := range r.Steps {
		switch s.Status {
		case StepRunning:
			s.Status = StepInterrupted
		case StepPending:
			s.Status = StepSkipped
		}
	}
}

// maxOutputFile is the largest output file LoadRun reads: what a step
// keeps of its executor's stdout by default. A record cannot raise it: a
// crafted run.json could say anything.
const maxOutputFile = maxOutput

// maxRecordFile is the largest run.json LoadRun reads: one of version 1
// holds every step's output.
const maxRecordFile = 1 << 30

// readOutput reads the output file name of a run, in the run's directory
// run, into a string of exactly its size. It reads only a regular file of
// the directory itself that is no larger than maxOutputFile (see
// state.Dir.ReadFile): taskctl writes no other kind there, and
// opening a FIFO would block and reading a device or a huge sparse file
// would not end or would exhaust memory.
func readOutput(run *state.Dir, name string) (string, error) {
	if !filepath.IsLocal(name) || filepath.Base(name) != name {
		return "", fmt.Errorf("output_file %q: not a file of the run's directory", name)
	}
	data, err := run.ReadFile(name, maxOutputFile)
	var tl *state.TooLargeError
	switch {
	case errors.As(err, &tl) && tl.Grew:
		return "", fmt.Errorf("%s is more than the %s a step's output may be", name, size(maxOutputFile))
	case errors.As(err, &tl):
		return "", fmt.Errorf("%s is %d bytes, more than the %s a step's output may be", name, tl.Size, size(maxOutputFile))
	case err != nil:
		return "", err
	}
	// data is the string's alone: no copy of it is made.
	return unsafe.String(unsafe.SliceData(data), len(data)), nil
}

// settleLimit is how many of the newest runs a new run looks at to settle.
const settleLimit = 50

// settle rewrites the run.json of each of the newest settleLimit runs in
// runsDir (open as runs) that says "running" while the process that wrote
// it (on this host) is gone, as [LoadRun] reads it: interrupted, in the
// record's own version; and it removes the temporary output files the run
// left (see removeOutputTemps). A run that was killed (SIGKILL, a crash, a
// reboot) cannot say so itself; the next run does. A record that cannot
// be settled is left alone: it still reads back as interrupted.
func settle(runsDir string, runs *state.Dir) {
	ids, err := Runs(runsDir)
	if err != nil {
		return
	}
	if len(ids) > settleLimit {
		ids = ids[len(ids)-settleLimit:]
	}
	for _, id := range ids {
		run, err := runs.Dir(id)
		if err != nil {
			continue
		}
		settleRun(runsDir, id, &store{runs: runs, dir: run, id: id})
		run.Close()
	}
}

// settleRun settles the run id, whose directory s writes.
func settleRun(runsDir, id string, s *store) {
	data, err := s.dir.ReadFile("run.json", maxRecordFile)
	if err != nil || !strings.Contains(string(data), `"status": "`+RunRunning+`"`) {
		return
	}
	r, err := LoadRun(runsDir, id)
	if err != nil || r.Status != RunInterrupted {
		return
	}
	_ = s.writeRecord(r)
	removeOutputTemps(s.dir)
}

// outputTemp matches the name of a temporary file that [store.create] makes
// for a step's output file, NN-STEP.output.txt.
var outputTemp = lazyregexp.New(`^\.[0-9]{2,}-[-_.A-Za-z0-9]+\.output\.txt\.[0-9a-f]{12}\.tmp$`)

// removeOutputTemps removes the temporary output files of a run, in its
// directory run, whose process is gone: a run killed mid-step leaves the
// output it was writing, up to the output cap, which nothing else
// removes. Only regular files whose names match outputTemp are removed.
func removeOutputTemps(run *state.Dir) {
	ents, _ := run.ReadDir()
	for _, e := range ents {
		if outputTemp.Re().MatchString(e.Name()) {
			_ = run.RemoveFile(e.Name()) // (a regular file only)
		}
	}
}

// Runs lists the IDs of the runs in runsDir, oldest first.
func Runs(runsDir string) ([]string, error) {
	runs, err := state.Open(runsDir)
	if err != nil {
		return nil, err
	}
	defer runs.Close()
	ents, err := runs.ReadDir()
	if err != nil {
		return nil, err
	}
	var ids []string
	for _, e := range ents {
		if e.IsDir() && idPattern.Re().MatchString(e.Name()) {
			ids = append(ids, e.Name())
		}
	}
	return ids, nil
}

// alive reports whether pid may still be the process that wrote a record on
// host. A record from another host is assumed alive: it cannot be checked.
// A recycled pid makes a dead run look alive; that errs on the safe side.
func alive(pid int, host string) bool {
	if pid <= 0 {
		return false
	}
	if h, err := os.Hostname(); err == nil && host != "" && h != host {
		return true
	}
	return processAlive(pid)
}

// Preview returns what step needs to be assembled as it would be in run r:
// vars is what the run gave step's Bind (the recorded bound inputs of the
// tasks around step, r's --var values of step's own inputs, and its from
// inputs bound from the recorded results); parentFiles are the recorded files
// of its enclosing sequential task (nil when step's inherit mode is "none").
// Vars given on the command line should be merged over vars.
func (r *Record) Preview(step *template.Task) (vars map[string]string, parentFiles []string, err error) {
	if step == nil || step.Name == "" {
		return nil, nil, errors.New("preview: the step needs a name")
	}
	s := r.Step(step.Name)
	if s == nil {
		return nil, nil, fmt.Errorf("run %s has no step named %q", r.ID, step.Name)
	}
	scope := r.Inputs
	if p := r.Step(s.Parent); p != nil {
		scope = p.Inputs
	}
	vars, err = bindVars(step, scope, r.Vars, func(in template.Input) (string, error) {
		rf, err := parseRef(in.From)
		if err != nil {
			return "", err
		}
		src := r.Step(rf.step)
		if src == nil || src.Status != StepOK {
			st := "no result"
			if src != nil {
				st = "status " + src.Status
			}
			return "", fmt.Errorf("from=%q: run %s has no result for step %s (%s)", in.From, r.ID, rf.step, st)
		}
		return src.value(rf)
	})
	if err != nil {
		return nil, nil, err
	}
	if step.EffectiveContext().Inherit == template.InheritNone {
		return vars, nil, nil
	}
	if s.Parent == "" {
		return vars, append([]string(nil), r.Files...), nil
	}
	if p := r.Step(s.Parent); p != nil {
		return vars, append([]string(nil), p.Files...), nil
	}
	return vars, nil, nil
}
