package walk

import (
	"cmp"
	"context"
	"errors"
	"io/fs"
	"os"
	"path"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/taskctl/taskctl/ignore"
	"github.com/taskctl/taskctl/root"
)

// dirJob is one directory to read.
type dirJob struct {
	rel   string        // relative to the root, "" for the root itself
	chain *ignore.Stack // ignore rules that apply inside it
	inNM  bool          // inside a node_modules directory
	start bool          // a start directory: chain already holds its own rules

	parent *dirHandle // the open parent directory; nil for a start
	cached *cachedDir // its record in the walker's prev, if any
	node   *dirNode   // its place in the tree, when the walker keeps one
}

// dirNode is a directory in the tree a walk keeps (walker.tree): the range
// of its files in its worker's list of files, and its subdirectories.
type dirNode struct {
	rel    string
	w      int // the worker that read it
	lo, hi int // its files in the worker's list, sorted by Rel
	subs   []*dirNode
}

// workerState is what one worker reuses from directory to directory.
type workerState struct {
	buf  []byte        // getdents buffer
	pre  []byte        // the directory's path and a slash
	subs []dirJob      // the subdirectories readDir returned last
	name []byte        // a NUL-terminated name for a system call
	pb   []byte        // the full paths of a directory's entries, back to back
	ends []int         // where each ends in pb
	typs []fs.FileMode // and its type
	ents []dirEnt      // entries of the directory being read
}

type dirEnt struct {
	full string      // absolute path
	typ  fs.FileMode // type bits only

	fromCache bool  // the entry is from a record of the walker's prev
	sub       int32 // and so is this, cachedEnt.sub
}

// release drops one reference to an open directory (shared by the jobs of
// its subdirectories), closing it with the last.
func (h *dirHandle) release() {
	if h != nil && h.refs.Add(-1) == 0 {
		h.close()
	}
}

// reportDir passes a directory the walk could not read to dirErr, unless it
// is simply gone.
func (wk *walker) reportDir(w int, full string, err error) {
	if wk.dirErr != nil && !errors.Is(err, fs.ErrNotExist) {
		wk.dirErr(w, full, err)
	}
}

// walker reads a tree in parallel, one directory per job. It never follows
// symlinks (they are reported as entries) and never enters .git, .taskctl,
// ignored directories or, unless allowNM, node_modules. Directories are read
// through the os.Root.
type walker struct {
	r       *Tree
	allowNM bool
	// enter reports whether a directory can hold anything wanted; nil means yes.
	enter func(rel string) bool
	// file is called for every entry that is not a directory (regular
	// files, symlinks, special files) that the ignore rules let through, by
	// worker w. It must be safe for concurrent calls with distinct w.
	file func(w int, inNM bool, full, rel, name string, typ fs.FileMode)
	// dirErr, if set, is called by worker w for a directory that could not
	// be opened or listed to the end (a directory gone since it was listed
	// is not reported), so that what lies below it is not left out silently.
	dirErr func(w int, full string, err error)

	state []workerState // per worker: reused buffers

	// tree, if set, is called by the worker w that reads a directory
	// with the directory's node before its files are passed to file
	// (done false) and after (done true), when its subdirectories' nodes
	// have been added to it. Without it, no tree is kept.
	tree func(w int, n *dirNode, done bool)

	// prev, if not nil, holds directory listings an earlier walk
	// recorded, taken instead of listing a directory whose stamp is
	// unchanged; next, if not nil, records this walk's (see cache.go).
	prev, next *walkCache

	mu      sync.Mutex
	cond    *sync.Cond
	queue   []dirJob
	pending int
	err     error
}

func (wk *walker) workers() int { return Workers() }

// Workers returns how many directories a walk reads at once: the worker
// numbers it passes to its callbacks are below it.
func Workers() int {
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
	wk.state = make([]workerState, wk.workers())
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
// Unreadable directories are skipped and passed to dirErr. Its phases:
// the listing (from prev, or read), the entries' types, the record for
// next, the directory's own ignore files, and the entries sorted into
// files and subdirectories.
func (wk *walker) readDir(w int, j *dirJob) []dirJob {
	st := &wk.state[w]
	pre := wk.dirPrefix(st.pre[:0], j)
	st.pre = pre
	if j.node != nil {
		j.node.w = w
		wk.tree(w, j.node, false)
		defer wk.tree(w, j.node, true)
	}
	st.pb, st.ends, st.typs = st.pb[:0], st.ends[:0], st.typs[:0]
	var h *dirHandle
	var stamp dirStamp
	keep := false // record the listing for the next walk
	cached, fromCache := wk.cachedListing(w, j)
	if fromCache {
		j.parent.release()
		for _, e := range cached {
			st.pb = append(append(st.pb, pre...), e.name...)
			st.ends = append(st.ends, len(st.pb))
			st.typs = append(st.typs, e.typ)
		}
	} else {
		var ok bool
		if h, stamp, keep, ok = wk.listDir(w, j, pre); !ok {
			return nil
		}
		defer h.release()
	}
	hasIgnoreFile := st.collectEntries(len(pre), fromCache, cached)
	if keep {
		d := &cachedDir{rel: j.rel, stamp: stamp, ents: make([]cachedEnt, len(st.ents))}
		for i, e := range st.ents {
			d.ents[i] = cachedEnt{name: e.full[len(pre):], typ: e.typ}
		}
		wk.next.record(d, true)
	}
	ch := j.chain
	if !j.start && hasIgnoreFile {
		ch = ch.Push(wk.r.ignore.Dir(j.rel))
	}
	st.subs = wk.admitEntries(w, j, h, ch, len(pre))
	return st.subs
}

// dirPrefix appends to pre the absolute path of j's directory and a
// slash. Each entry's absolute path is built once, in one string per
// directory that holds them all; its rel and name are substrings of it.
func (wk *walker) dirPrefix(pre []byte, j *dirJob) []byte {
	switch {
	case j.rel == "":
		pre = append(pre, wk.r.dir...)
		if wk.r.dir != "/" {
			pre = append(pre, '/')
		}
	case j.start: // named by the caller: cleaned as path.Join does
		pre = append(append(pre, path.Join(wk.r.dir, j.rel)...), '/')
	default: // a child's rel is clean
		if wk.r.dir != "/" {
			pre = append(pre, wk.r.dir...)
		}
		pre = append(append(append(pre, '/'), j.rel...), '/')
	}
	return pre
}

// listDir opens j's directory (through its open parent when it has one)
// and lists it into worker w's buffers after pre. ok is false when the
// directory cannot be opened; a listing cut short is reported and what
// was read is kept. keep says the listing can be recorded for the next
// walk, with stamp.
func (wk *walker) listDir(w int, j *dirJob, pre []byte) (h *dirHandle, stamp dirStamp, keep, ok bool) {
	st := &wk.state[w]
	display := wk.r.dir // the directory's path for errors
	if j.rel != "" {
		display = string(pre[:len(pre)-1])
	}
	var err error
	switch {
	case j.parent == nil && !j.start:
		// below a directory taken from the cache, never opened
		h, err = openDirBeneath(wk.r, j.rel, display)
	case j.parent == nil:
		name := j.rel
		if name == "" {
			name = "."
		}
		h, err = openDir(wk.r, nil, name, display)
	default:
		h, err = openDir(wk.r, j.parent, path.Base(j.rel), display)
		j.parent.release()
	}
	if err != nil {
		wk.reportDir(w, display, err)
		return nil, stamp, false, false
	}
	h.refs.Store(1)
	stamped := false
	if wk.next != nil {
		stamp, stamped = h.stamp() // before listing: a change during it is seen next time
	}
	err = h.list(&st.buf, func(name []byte, typ fs.FileMode) {
		st.pb = append(append(st.pb, pre...), name...)
		st.ends = append(st.ends, len(st.pb))
		st.typs = append(st.typs, typ)
	})
	if err != nil {
		wk.reportDir(w, display, err)
	}
	return h, stamp, stamped && err == nil, true
}

// collectEntries turns the paths listed into st.pb (each preLen bytes of
// directory and a name) into st.ents, asking lstat the type of an entry
// the file system did not give, and reports whether the directory holds
// an ignore file. Entries from the cache keep their cached subdirectory.
func (st *workerState) collectEntries(preLen int, fromCache bool, cached []cachedEnt) (hasIgnoreFile bool) {
	all := string(st.pb)
	st.ents = st.ents[:0]
	for i, end := range st.ends {
		start := 0
		if i > 0 {
			start = st.ends[i-1]
		}
		full, typ := all[start:end], st.typs[i]
		switch full[preLen:] {
		case gitignoreName, taskctlignoreName:
			hasIgnoreFile = true
		}
		if typ == fs.ModeIrregular { // the file system did not say
			fi, err := os.Lstat(full)
			if err != nil {
				continue
			}
			typ = fi.Mode().Type()
		}
		e := dirEnt{full: full, typ: typ, fromCache: fromCache}
		if fromCache {
			e.sub = cached[i].sub
		}
		st.ents = append(st.ents, e)
	}
	return hasIgnoreFile
}

// admitEntries applies the exclusions, the ignore rules (ch) and the
// policy to worker w's entries of j's directory: it passes the files to
// wk.file and returns the subdirectories to walk, in the worker's reused
// slice (the caller copies them before the next call).
func (wk *walker) admitEntries(w int, j *dirJob, h *dirHandle, ch *ignore.Stack, preLen int) []dirJob {
	st := &wk.state[w]
	relOff := len(wk.r.dir) + 1
	if wk.r.dir == "/" {
		relOff = 1
	}
	children := st.subs[:0]
	for _, e := range st.ents {
		full := e.full
		rel, n := full[relOff:], full[preLen:]
		isDir := e.typ.IsDir()
		if isDir {
			if root.AlwaysExcluded(n) {
				continue
			}
			nm := j.inNM || isNodeModules(n)
			if nm && !wk.allowNM {
				continue
			}
			if r := ch.Match(rel, n, true); r != nil && !r.Negate {
				continue
			}
			if wk.r.excluded(full, rel) {
				continue
			}
			if wk.enter != nil && !wk.enter(rel) {
				continue
			}
			if h != nil {
				h.refs.Add(1)
			}
			child := dirJob{rel: rel, chain: ch, inNM: nm, parent: h, cached: wk.prev.sub(&e, rel)}
			if j.node != nil {
				child.node = &dirNode{rel: rel}
				j.node.subs = append(j.node.subs, child.node)
			}
			children = append(children, child)
			continue
		}
		if r := ch.Match(rel, n, false); r != nil && !r.Negate {
			continue
		}
		if wk.r.excluded(full, rel) {
			continue
		}
		wk.file(w, j.inNM, full, rel, n, e.typ)
	}
	return children
}

// cachedListing returns the entries an earlier walk recorded for j's
// directory if its stamp is unchanged, and records them for the next walk.
func (wk *walker) cachedListing(w int, j *dirJob) ([]cachedEnt, bool) {
	d := j.cached
	if d == nil {
		return nil, false
	}
	s, ok := stampAt(wk.r, j.rel, &wk.state[w].name)
	if !ok || !wk.prev.trusted(d, s) {
		return nil, false
	}
	if wk.next != nil {
		wk.next.record(d, false) // the same directory, the same stamp
	}
	return d.ents, true
}

// A Start is a directory a walk starts from: Rel in the tree ("" for its
// top), the ignore rules that apply inside it, its own included, and
// whether it lies inside a node_modules directory.
type Start struct {
	Rel   string
	Rules *ignore.Stack
	InNM  bool
}

// Options are what Run does with what it reads. File is called for every
// entry that is not a directory (regular files, symlinks, special files)
// that the ignore rules and the tree's Exclude let through, by worker w
// (below Workers()): it must be safe for concurrent calls with distinct w.
// Enter, if set, reports whether a directory can hold anything wanted.
// DirErr, if set, is called for a directory that could not be opened or
// listed to the end (one gone since it was listed is not reported), so
// that what lies below it is not left out silently. node_modules
// directories are entered only with AllowNM.
type Options struct {
	AllowNM bool
	Enter   func(rel string) bool
	File    func(w int, inNM bool, full, rel, name string, typ fs.FileMode)
	DirErr  func(w int, full string, err error)
}

// Run walks t from starts, in parallel, until done or ctx is cancelled,
// passing what it finds to o's callbacks; it never follows a symlink and
// never enters .git, .taskctl or an ignored directory. Hooks.Admit is not
// asked: o.File decides.
func Run(ctx context.Context, t *Tree, starts []Start, o Options) error {
	wk := &walker{r: t, allowNM: o.AllowNM, enter: o.Enter, file: o.File, dirErr: o.DirErr}
	jobs := make([]dirJob, len(starts))
	for i, s := range starts {
		jobs[i] = dirJob{rel: s.Rel, chain: s.Rules, inNM: s.InNM, start: true}
	}
	return wk.run(ctx, jobs)
}

// Files calls fn, in order of Rel, for every file of t that a glob "**"
// would yield: the entries that are not directories, that no ignore rule,
// no always-excluded directory, no node_modules/ and no Exclude pattern
// leaves out, and that Hooks.Admit takes (for a project: regular files,
// and symlinks to regular files inside an allowed root at their real
// path, each once). info describes the file (for a symlink, its target).
// The walk itself is parallel; fn is called from one goroutine. If fn
// returns fs.SkipAll, Files stops and returns nil; another error stops it
// and is returned.
func Files(ctx context.Context, t *Tree, fn func(c Candidate, info fs.FileInfo) error) error {
	return walkTree(ctx, t, nil, nil, fn)
}

// walkTree is Files, taking directory listings from prev and recording them
// in next when these are not nil (see Cached).
func walkTree(ctx context.Context, r *Tree, prev, next *walkCache, fn func(c Candidate, info fs.FileInfo) error) error {
	wk := &walker{r: r, prev: prev, next: next}
	wf := newWalkFiles(wk.workers(), prev)
	wk.file = func(w int, _ bool, path, rel, name string, t fs.FileMode) {
		wf.add(r, w, path, rel, name, t, &wk.state[w].name)
	}
	wk.tree = wf.sortDir
	root := &dirNode{}
	err := wk.run(ctx, []dirJob{{rel: "", chain: r.ignore.Stack(""), start: true, cached: prev.rootDir(), node: root}})
	if err != nil {
		return err
	}
	return yieldWalked(mergeLinks(wf.inOrder(root), slices.Concat(wf.odd...)), fn)
}

// walkEntry is a file a walk yields.
type walkEntry struct {
	c    Candidate
	st   StatInfo
	info fs.FileInfo // a symlink's target; nil for a regular file (st)
}

// walkedFile is a walkEntry beside its Rel, which sorting compares.
type walkedFile struct {
	rel string // e.c.Rel
	e   *walkEntry
}

// walkFiles gathers what the workers of a walk find. Each worker keeps
// its files in chunks that never move, so the files are sorted as
// pointers and a regular file's FileInfo is its entry's st: a walk of
// thousands of files allocates a few chunks, not an object per file.
type walkFiles struct {
	res [][]walkEntry  // per worker: its current chunk
	all [][]walkedFile // per worker: the files at their walked path
	odd [][]walkedFile // per worker: the files reached through a symlink
}

const walkChunk = 256

func newWalkFiles(workers int, prev *walkCache) *walkFiles {
	wf := &walkFiles{res: make([][]walkEntry, workers), all: make([][]walkedFile, workers), odd: make([][]walkedFile, workers)}
	if prev != nil {
		for w := range wf.all {
			wf.all[w] = make([]walkedFile, 0, prev.files/workers+walkChunk)
		}
	}
	return wf
}

// add takes, for worker w, an entry the ignore rules let through, if
// admit does.
func (wf *walkFiles) add(r *Tree, w int, path, rel, name string, t fs.FileMode, buf *[]byte) {
	if len(wf.res[w]) == cap(wf.res[w]) {
		wf.res[w] = make([]walkEntry, 0, walkChunk)
	}
	wf.res[w] = wf.res[w][:len(wf.res[w])+1]
	e := &wf.res[w][len(wf.res[w])-1]
	*e = walkEntry{} // a slot given up by an earlier file is taken again
	c, info, ok := r.hooks.Admit(path, rel, name, t, &e.st, buf)
	if !ok {
		wf.res[w] = wf.res[w][:len(wf.res[w])-1]
		return
	}
	e.c = c
	if info != fs.FileInfo(&e.st) {
		e.info = info
	}
	if e.c.Rel == rel {
		wf.all[w] = append(wf.all[w], walkedFile{rel, e})
	} else {
		wf.odd[w] = append(wf.odd[w], walkedFile{e.c.Rel, e})
	}
}

func byRel(a, b walkedFile) int { return strings.Compare(a.rel, b.rel) }

// sortDir is the walker's tree callback. The files come out in order of
// Rel without sorting them all: each worker sorts the files of each
// directory it reads, and the directory's subdirectories, and the tree is
// then read in order (inOrder).
func (wf *walkFiles) sortDir(w int, n *dirNode, done bool) {
	if !done {
		n.lo = len(wf.all[w])
		return
	}
	n.hi = len(wf.all[w])
	slices.SortFunc(wf.all[w][n.lo:n.hi], byRel)
	slices.SortFunc(n.subs, func(a, b *dirNode) int { return cmpDirs(a.rel, b.rel) })
}

// inOrder returns the files at their walked path, in order of Rel.
func (wf *walkFiles) inOrder(root *dirNode) []walkedFile {
	n := 0
	for w := range wf.all {
		n += len(wf.all[w])
	}
	inTree := make([]walkedFile, 0, n)
	var emit func(d *dirNode)
	emit = func(d *dirNode) {
		files, subs := wf.all[d.w][d.lo:d.hi], d.subs
		for len(files) > 0 || len(subs) > 0 {
			if len(subs) == 0 || len(files) > 0 && beforeDir(files[0].rel, subs[0].rel) {
				inTree = append(inTree, files[0])
				files = files[1:]
				continue
			}
			emit(subs[0])
			subs = subs[1:]
		}
	}
	emit(root)
	return inTree
}

// mergeLinks merges the files reached through symlinks (whose Rel is
// their target's), few, into the files of the tree in order of Rel: each
// goes after the files of the tree up to its Rel.
func mergeLinks(inTree, links []walkedFile) []walkedFile {
	if len(links) == 0 {
		return inTree
	}
	slices.SortFunc(links, byRel)
	files := make([]walkedFile, 0, len(inTree)+len(links))
	rest := inTree
	for _, l := range links {
		i := sort.Search(len(rest), func(i int) bool { return rest[i].rel > l.rel })
		files = append(append(files, rest[:i]...), l)
		rest = rest[i:]
	}
	return append(files, rest...)
}

// yieldWalked calls fn for each file in turn, as Walk says. A file reached
// twice (through symlinks) has one real path and so one Rel: its entries
// are neighbours, and the first is yielded.
func yieldWalked(files []walkedFile, fn func(c Candidate, info fs.FileInfo) error) error {
	run := 0 // where the entries with this Rel begin
	for i, f := range files {
		e := f.e
		if i > 0 && f.rel != files[i-1].rel {
			run = i
		}
		if slices.ContainsFunc(files[run:i], func(o walkedFile) bool { return o.e.c.Path == e.c.Path }) {
			continue
		}
		info := e.info
		if info == nil {
			info = &e.st
		}
		if err := fn(e.c, info); err != nil {
			if errors.Is(err, fs.SkipAll) {
				return nil
			}
			return err
		}
	}
	return nil
}

// isNodeModules reports whether a directory's name is node_modules.
func isNodeModules(name string) bool { return name == "node_modules" }

// cmpDirs compares the paths of two directories as their contents' paths
// compare: a+"/" with b+"/" ("a/x" comes after "a-b/x").
func cmpDirs(a, b string) int {
	n := min(len(a), len(b))
	if c := strings.Compare(a[:n], b[:n]); c != 0 || len(a) == len(b) {
		return c
	}
	if len(a) < len(b) {
		return cmp.Compare('/', b[n])
	}
	return cmp.Compare(a[n], '/')
}

// beforeDir reports whether the path f comes before every path inside the
// directory dir (f < dir+"/"), f being no path inside dir.
func beforeDir(f, dir string) bool {
	n := min(len(f), len(dir))
	if c := strings.Compare(f[:n], dir[:n]); c != 0 {
		return c < 0
	}
	return len(f) <= len(dir) || f[n] < '/'
}
