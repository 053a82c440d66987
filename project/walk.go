package project

import (
	"context"
	"io/fs"
	"os"
	"path"
	"runtime"
	"sync"
	"sync/atomic"
)

// dirJob is one directory to read.
type dirJob struct {
	rel   string // relative to the root, "" for the root itself
	chain *chain // ignore rules that apply inside it
	inNM  bool   // inside a node_modules directory
	start bool   // a start directory: chain already holds its own rules

	parent *dirHandle // the open parent directory; nil for a start
}

// dirHandle is an open directory shared by the jobs of its subdirectories,
// closed when the last of them has opened its own.
type dirHandle struct {
	f    *os.File
	refs atomic.Int32
}

func (h *dirHandle) release() {
	if h != nil && h.refs.Add(-1) == 0 {
		h.f.Close()
	}
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
	file func(w int, inNM bool, full, rel, name string, ent fs.DirEntry)

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
	for _, j := range wk.queue { // left by a cancelled walk
		j.parent.release()
	}
	wk.queue = nil
	return wk.err
}

// readDir lists one directory and returns the subdirectories to walk.
// Unreadable directories are skipped.
func (wk *walker) readDir(w int, j *dirJob) []dirJob {
	display := wk.r.dir
	if j.rel != "" {
		display = path.Join(wk.r.dir, j.rel)
	}
	var f *os.File
	var err error
	if j.parent == nil {
		name := j.rel
		if name == "" {
			name = "."
		}
		f, err = openStart(wk.r, name, display)
	} else {
		f, err = openChild(wk.r, j.parent.f, path.Base(j.rel), display)
		j.parent.release()
	}
	if err != nil {
		return nil
	}
	ents, _ := f.ReadDir(-1)
	h := &dirHandle{f: f}
	h.refs.Store(1)
	defer h.release()
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
	// Each entry's absolute path is built once; its rel is a substring.
	dirPrefix := display + "/"
	if display == "/" {
		dirPrefix = "/"
	}
	relOff := len(wk.r.dir) + 1
	if wk.r.dir == "/" {
		relOff = 1
	}
	for _, e := range ents {
		n := e.Name()
		full := dirPrefix + n
		rel := full[relOff:]
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
			h.refs.Add(1)
			children = append(children, dirJob{rel: rel, chain: ch, inNM: nm, parent: h})
			continue
		}
		if r := ch.match(rel, n, false); r != nil && !r.Negate {
			continue
		}
		if len(wk.p.policy.Exclude) > 0 && wk.p.excluded(rel) != "" {
			continue
		}
		wk.file(w, j.inNM, full, rel, n, e)
	}
	return children
}
