package project

import (
	"context"
	"io/fs"
	"runtime"
	"sync"
)

// dirJob is one directory to read.
type dirJob struct {
	rel   string // relative to the root, "" for the root itself
	chain *chain // ignore rules that apply inside it
	inNM  bool   // inside a node_modules directory
	start bool   // a start directory: chain already holds its own rules
}

// walker reads a tree in parallel, one directory per job. It never follows
// symlinks (they are reported as entries) and never enters .git, .taskctl,
// ignored directories or, unless allowNM, node_modules. Directories are read
// through the os.Root.
type walker struct {
	r       *rootDir
	p       *Project
	allowNM bool
	// enter reports whether a directory can hold anything wanted; nil means yes.
	enter func(rel string) bool
	// file is called for every entry that is not a directory (regular
	// files, symlinks, special files) that the ignore rules let through, by
	// worker w. It must be safe for concurrent calls with distinct w.
	file func(w int, inNM bool, rel, name string, ent fs.DirEntry)

	mu      sync.Mutex
	cond    *sync.Cond
	queue   []dirJob
	pending int
	err     error
}

func (wk *walker) workers() int {
	n := runtime.GOMAXPROCS(0)
	if n > 8 {
		n = 8
	}
	if n < 1 {
		n = 1
	}
	return n
}

// run walks from the given start directories (already checked by the
// caller) until done or ctx is cancelled.
func (wk *walker) run(ctx context.Context, starts []dirJob) error {
	wk.cond = sync.NewCond(&wk.mu)
	wk.queue = append(wk.queue, starts...)
	wk.pending = len(starts)
	n := wk.workers()
	var wg sync.WaitGroup
	for w := 0; w < n; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for {
				wk.mu.Lock()
				for len(wk.queue) == 0 && wk.pending > 0 && wk.err == nil {
					wk.cond.Wait()
				}
				if wk.pending == 0 || wk.err != nil {
					wk.mu.Unlock()
					return
				}
				j := wk.queue[len(wk.queue)-1]
				wk.queue = wk.queue[:len(wk.queue)-1]
				wk.mu.Unlock()

				var children []dirJob
				err := ctx.Err()
				if err == nil {
					children = wk.readDir(w, &j)
				}
				wk.mu.Lock()
				if err != nil && wk.err == nil {
					wk.err = err
				}
				wk.queue = append(wk.queue, children...)
				wk.pending += len(children) - 1
				wk.mu.Unlock()
				wk.cond.Broadcast()
			}
		}(w)
	}
	wg.Wait()
	return wk.err
}

// readDir lists one directory and returns the subdirectories to walk.
// Unreadable directories are skipped.
func (wk *walker) readDir(w int, j *dirJob) []dirJob {
	name := j.rel
	if name == "" {
		name = "."
	}
	f, err := wk.r.root.Open(name)
	if err != nil {
		return nil
	}
	ents, _ := f.ReadDir(-1)
	f.Close()
	var hasGI, hasTI bool
	for _, e := range ents {
		switch e.Name() {
		case gitignoreName:
			hasGI = true
		case taskctlignoreName:
			hasTI = true
		}
	}
	ch := j.chain
	if !j.start && (hasGI || hasTI) {
		ch = ch.push(wk.r.ignore.dir(j.rel))
	}
	var children []dirJob
	prefix := j.rel
	if prefix != "" {
		prefix += "/"
	}
	for _, e := range ents {
		n := e.Name()
		rel := prefix + n
		if e.IsDir() {
			if alwaysExcluded(n) {
				continue
			}
			nm := j.inNM || isNodeModules(n)
			if nm && !wk.allowNM {
				continue
			}
			if r := ch.match(rel, n, true); r != nil && !r.Negate {
				continue
			}
			if len(wk.p.policy.Exclude) > 0 && wk.p.excluded(rel) != "" {
				continue
			}
			if wk.enter != nil && !wk.enter(rel) {
				continue
			}
			children = append(children, dirJob{rel: rel, chain: ch, inNM: nm})
			continue
		}
		if r := ch.match(rel, n, false); r != nil && !r.Negate {
			continue
		}
		if len(wk.p.policy.Exclude) > 0 && wk.p.excluded(rel) != "" {
			continue
		}
		wk.file(w, j.inNM, rel, n, e)
	}
	return children
}
