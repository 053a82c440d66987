package walk

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
	"sync"
	"unsafe"

	"golang.org/x/sys/unix"
)

// A Watcher keeps what Walk yields current from the kernel's change
// notifications (inotify), so that a long-lived process — `taskctl index
// --watch` — learns what changed in a tree without stat'ing every file.
// Every directory the walk enters is watched before it is listed, so a
// change made after its listing is always reported. A directory in which
// something was created, deleted, renamed, written or had its metadata
// changed is listed again, and its files stat'ed again, at the next Sync;
// every other directory's files are taken from memory. What cannot be
// followed entry by entry starts everything over (a full walk): an event
// queue that overflowed, the root deleted or moved, a change to an ignore
// file (.gitignore, .taskctlignore, .git/info/exclude) or to .git itself.
// A directory created, deleted or moved is forgotten with all it
// held, watches and ignore files included, and what now stands at its path
// is walked whole. A directory that holds a symlink or a file with more
// than one hard link is listed at every Sync (the target, or the other
// link, lies elsewhere and is written without an event here), as is one
// the kernel refuses to watch (fs.inotify.max_user_watches reached), its
// ignore files read again each time.
//
// Not seen, as with every inotify-based watcher: writes through a shared
// memory mapping, changes made on another machine to a network file
// system, and writes through a hard link made after the watch started
// from outside what is watched (another tree, an ignored directory) to a
// file that had one link until then.
type Watcher struct {
	r  *Tree
	mu sync.Mutex

	fd      int              // the inotify instance; -1 after Close
	gitInfo int32            // the watch of .git/info, or -1
	gitDir  int32            // without .git/info, the watch of .git (for info to appear), or -1
	byWD    map[int32]string // watch descriptor → directory
	dirs    map[string]*watchedDir
	dirty   map[string]bool
	linked  map[uint64]bool // inodes of files seen with more than one hard link
	reset   bool            // walk everything at the next Sync
	buf     []byte

	list    []*watchedFile // what Walk yields, in order (into dirs' files); valid unless stale
	stale   bool
	changed bool // something was walked since the last Sync reported
	walked  int  // directories the last sync walked (for tests)
}

// watchedDir is what the last walk of one directory found.
type watchedDir struct {
	wd       int32         // its watch, or -1 for none (listed at every Sync)
	files    []watchedFile // what the walk yields from its entries
	subs     []string      // the subdirectories it entered
	volatile bool          // holds a symlink or a file with other hard links: listed at every Sync
}

type watchedFile struct {
	c    Candidate
	st   StatInfo
	info fs.FileInfo // a symlink's target; nil for a regular file (st)
}

func (f *watchedFile) fileInfo() fs.FileInfo {
	if f.info != nil {
		return f.info
	}
	return &f.st
}

// ErrWatchUnsupported is what Watch returns where the kernel's change
// notifications are not used (every system but Linux).
var ErrWatchUnsupported = errors.New("watching a tree for changes is supported on Linux only")

// watchMask is what a directory's watch reports: every change to its
// entries, and its own deletion or move.
const watchMask = unix.IN_CREATE | unix.IN_DELETE | unix.IN_MOVED_FROM | unix.IN_MOVED_TO |
	unix.IN_MODIFY | unix.IN_ATTRIB | unix.IN_CLOSE_WRITE |
	unix.IN_DELETE_SELF | unix.IN_MOVE_SELF | unix.IN_ONLYDIR | unix.IN_DONT_FOLLOW | unix.IN_EXCL_UNLINK

// addWatch is unix.InotifyAddWatch (a variable for tests).
var addWatch = unix.InotifyAddWatch

// Watch returns a Watcher of t. Nothing is walked before the first Sync or
// Walk. The caller closes it.
func Watch(t *Tree) (*Watcher, error) {
	fd, err := unix.InotifyInit1(unix.IN_NONBLOCK | unix.IN_CLOEXEC)
	if err != nil {
		return nil, fmt.Errorf("watch %s: %w", t.dir, err)
	}
	w := &Watcher{r: t, fd: fd, buf: make([]byte, 64<<10)}
	w.start()
	return w, nil
}

// start forgets everything: the next Sync walks the whole tree.
func (w *Watcher) start() {
	w.gitInfo, w.gitDir = -1, -1
	w.byWD = make(map[int32]string)
	w.dirs = make(map[string]*watchedDir)
	w.dirty = make(map[string]bool)
	w.linked = make(map[uint64]bool)
	w.reset = true
	w.stale = true
}

// Close stops watching.
func (w *Watcher) Close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.fd < 0 {
		return nil
	}
	err := unix.Close(w.fd)
	w.fd = -1
	return err
}

// Wait blocks until a change is waiting to be taken by Sync or ctx is
// done.
func (w *Watcher) Wait(ctx context.Context) error {
	const slice = 100 // ms: how often ctx (and the descriptor) is looked at
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		// A Sync that starts over replaces the descriptor.
		w.mu.Lock()
		fd := w.fd
		w.mu.Unlock()
		if fd < 0 {
			return errors.New("watcher closed")
		}
		fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
		n, err := unix.Poll(fds, slice)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return err
		}
		if n > 0 {
			return nil
		}
	}
}

// Sync takes every change the kernel has reported so far (every change
// made before Sync was called) and walks what it touched. changed reports
// whether anything changed since the previous Sync — a file written even
// if its size and time are the same — so that the caller looks at the
// files again (their content may have changed); when it is false, Walk
// yields what it yielded then and the files are as they were.
func (w *Watcher) Sync(ctx context.Context) (changed bool, err error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if err := w.sync(ctx); err != nil {
		return false, err
	}
	changed, w.changed = w.changed, false
	return changed, nil
}

// Walk is Files as of now: Sync, then every file, in order of Rel, as
// Files would yield it. fn is called with the Watcher locked: it must not
// call the Watcher.
func (w *Watcher) Walk(ctx context.Context, fn func(c Candidate, info fs.FileInfo) error) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if err := w.sync(ctx); err != nil {
		return err
	}
	for _, f := range w.list {
		if err := fn(f.c, f.fileInfo()); err != nil {
			if errors.Is(err, fs.SkipAll) {
				return nil
			}
			return err
		}
	}
	return nil
}

// Len returns the number of directories watched and of files yielded.
func (w *Watcher) Len() (dirs, files int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.byWD), len(w.list)
}

// Unwatched returns the number of directories walked that the kernel
// refused to watch (fs.inotify.max_user_watches reached): each is listed
// at every Sync.
func (w *Watcher) Unwatched() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	n := 0
	for _, d := range w.dirs {
		if d.wd < 0 {
			n++
		}
	}
	return n
}

// sync brings the record up to date: the queued events drained, then
// everything started over after an overflow or a failure (restart), or
// what changed walked again (update).
func (w *Watcher) sync(ctx context.Context) error {
	if w.fd < 0 {
		return errors.New("watcher closed")
	}
	w.walked = 0
	if err := w.drain(); err != nil {
		return err
	}
	var err error
	if w.reset {
		err = w.restart(ctx)
	} else {
		err = w.update(ctx)
	}
	if err != nil {
		w.reset = true // what was recorded is incomplete
		return err
	}
	if w.stale {
		w.flatten()
	}
	return nil
}

// restart starts over with a new instance: the old one's watches and
// queued events go with it, and the whole tree is walked again.
func (w *Watcher) restart(ctx context.Context) error {
	fd, err := unix.InotifyInit1(unix.IN_NONBLOCK | unix.IN_CLOEXEC)
	if err != nil {
		return fmt.Errorf("watch %s: %w", w.r.dir, err)
	}
	unix.Close(w.fd)
	w.fd = fd
	w.start()
	w.r.reload()
	w.watchGitInfo()
	if _, err := w.walk(ctx, []string{""}, true); err != nil {
		return err
	}
	w.reset = false
	return nil
}

// update walks again the directories events marked dirty and those no
// event speaks for, then the directories found replaced, then those
// holding other links of a file newly seen with several.
func (w *Watcher) update(ctx context.Context) error {
	starts := w.walkStarts()
	if len(starts) == 0 {
		clear(w.dirty)
		return nil
	}
	// A file may change without a change of size or time (two writes
	// within a tick of the clock that stamps it): an event says it
	// changed, whatever the stat says, and the caller checks its
	// content.
	if len(w.dirty) > 0 {
		w.changed = true
	}
	// A directory below one walked again that is no longer entered
	// is dropped; the rest are walked on their own.
	slices.Sort(starts)
	clear(w.dirty)
	replaced, err := w.walk(ctx, starts, false)
	if err == nil && len(replaced) > 0 {
		// Directories found to be others than the ones recorded
		// (no event of their parent said so: an unwatched parent):
		// forgotten, then walked whole.
		for _, rel := range replaced {
			w.replace(rel)
		}
		_, err = w.walk(ctx, replaced, false)
	}
	if err == nil && len(w.dirty) > 0 {
		// Directories holding another link of a file newly seen
		// with several (linkedDirs).
		_, err = w.walk(ctx, w.dirtyDirs(), false)
		// (more links found in those: their directories stay dirty,
		// and volatile, for the next Sync)
	}
	return err
}

// walkStarts returns the directories a Sync walks again: those an event
// marked dirty, and the volatile and unwatched ones, whose changes no
// event reports (an unwatched one's ignore files are forgotten, to be
// read again).
func (w *Watcher) walkStarts() []string {
	var starts []string
	for rel := range w.dirty {
		if w.dirs[rel] != nil {
			starts = append(starts, rel)
		}
	}
	for rel, d := range w.dirs {
		if d.wd < 0 {
			w.r.ignore.ForgetDir(rel) // no event says its ignore files changed
		}
		if (d.volatile || d.wd < 0) && !w.dirty[rel] {
			starts = append(starts, rel)
		}
	}
	return starts
}

// dirtyDirs returns the recorded directories marked dirty, and clears the
// marks.
func (w *Watcher) dirtyDirs() []string {
	var dirs []string
	for rel := range w.dirty {
		if w.dirs[rel] != nil {
			dirs = append(dirs, rel)
		}
	}
	clear(w.dirty)
	return dirs
}

// watchGitInfo watches .git/info, where the exclude file lives, if it is
// a directory; a change there starts everything over.
func (w *Watcher) watchGitInfo() {
	info := path.Dir(path.Join(w.r.dir, infoExcludeName))
	if wd, err := addWatch(w.fd, info, watchMask); err == nil {
		w.gitInfo = int32(wd)
		return
	}
	// No .git/info yet: watch .git for it to be made (and nothing else
	// there, where every git command writes).
	mask := uint32(unix.IN_CREATE | unix.IN_MOVED_TO | unix.IN_ONLYDIR | unix.IN_DONT_FOLLOW)
	if wd, err := addWatch(w.fd, path.Dir(info), mask); err == nil {
		w.gitDir = int32(wd)
	}
}

// drain reads every event queued so far and marks what it touched.
func (w *Watcher) drain() error {
	for {
		n, err := unix.Read(w.fd, w.buf)
		if err == unix.EINTR {
			continue
		}
		if err == unix.EAGAIN {
			return nil
		}
		if err != nil {
			return fmt.Errorf("watch %s: %w", w.r.dir, err)
		}
		if n <= 0 {
			return nil
		}
		w.events(w.buf[:n])
	}
}

// events marks what the events in b touched.
func (w *Watcher) events(b []byte) {
	for len(b) >= unix.SizeofInotifyEvent {
		ev := (*unix.InotifyEvent)(unsafe.Pointer(&b[0]))
		end := unix.SizeofInotifyEvent + int(ev.Len)
		if end > len(b) {
			return
		}
		name := strings.TrimRight(string(b[unix.SizeofInotifyEvent:end]), "\x00")
		b = b[end:]
		w.event(ev.Wd, ev.Mask, name)
	}
}

func (w *Watcher) event(wd int32, mask uint32, name string) {
	if mask&unix.IN_Q_OVERFLOW != 0 || wd >= 0 && wd == w.gitInfo || wd >= 0 && wd == w.gitDir && name == "info" {
		w.reset = true // events were lost, or the exclude file changed
		return
	}
	rel, ok := w.byWD[wd]
	if !ok {
		return // a watch already given up
	}
	switch {
	case mask&unix.IN_IGNORED != 0:
		// The kernel dropped the watch (the directory is gone): until its
		// parent's listing drops it, it is walked at every Sync.
		delete(w.byWD, wd)
		if d := w.dirs[rel]; d != nil && d.wd == wd {
			d.wd = -1
		}
		if rel == "" {
			w.reset = true
		}
	case mask&unix.IN_UNMOUNT != 0 || rel == "" && mask&(unix.IN_DELETE_SELF|unix.IN_MOVE_SELF) != 0:
		w.reset = true
	case mask&(unix.IN_DELETE_SELF|unix.IN_MOVE_SELF) != 0:
		// Its parent (or parents, for a move) report the entry too and
		// are listed again; so is the directory, in case it is still there.
		w.dirty[rel] = true
	case name == gitignoreName || name == taskctlignoreName || rel == "" && strings.EqualFold(name, ".git"):
		w.reset = true // the ignore rules may have changed
	case mask&unix.IN_ISDIR != 0 && mask&(unix.IN_CREATE|unix.IN_DELETE|unix.IN_MOVED_FROM|unix.IN_MOVED_TO) != 0:
		// Another directory at that path, or none: what was recorded of
		// the one there (its subdirectories, watches and ignore files)
		// is dropped, and the parent's listing walks the new one whole.
		child := name
		if rel != "" {
			child = rel + "/" + name
		}
		w.replace(child)
		w.dirty[rel] = true
	default:
		w.dirty[rel] = true
	}
}

// replace forgets directory rel and everything below it, ignore files
// included: another directory, or none, stands at its path now.
func (w *Watcher) replace(rel string) {
	w.forget(rel)
	w.r.ignore.ForgetUnder(rel)
}

// walk walks the directories starts (known ones, or ones whose parent is
// recorded, or the root for a full walk) and records what it finds. In a
// partial walk, a known subdirectory is not entered (it is walked only if
// it is itself a start), a new one is walked whole, and one no longer
// entered is forgotten with everything below it. replaced are the starts
// found to be other directories than the ones recorded at their paths
// (the kernel gave them another watch): their subdirectories, taken for
// known, must be walked again. It works in two phases: list (walkListing,
// watching each directory before it is listed), then record.
func (w *Watcher) walk(ctx context.Context, starts []string, full bool) (replaced []string, err error) {
	l := &walkListing{
		w:     w,
		full:  full,
		found: make(map[string]*watchedDir, len(starts)),
		seen:  make(map[string][]string, len(starts)),
	}
	if err := l.list(ctx, starts); err != nil {
		return nil, err
	}
	w.walked += len(l.found)
	w.record(l.found, l.seen, full)
	w.linkedDirs(l.newLinks)
	return l.replaced, nil
}

// walkListing gathers, from the walker's concurrent callbacks, what one
// walk of a Watcher found.
type walkListing struct {
	w    *Watcher
	full bool

	mu       sync.Mutex
	found    map[string]*watchedDir // directory → what its listing holds
	seen     map[string][]string    // directory → subdirectories that pass the rules
	newLinks []uint64               // inodes newly seen with several links
	replaced []string               // directories whose watch changed identity
	bufs     [][]byte               // a stat buffer per worker
}

// list runs the walker from starts with the listing's callbacks.
func (l *walkListing) list(ctx context.Context, starts []string) error {
	r := l.w.r
	wk := &walker{r: r}
	l.bufs = make([][]byte, wk.workers())
	wk.enter = l.enter
	wk.tree = l.tree
	wk.file = l.file
	jobs := make([]dirJob, len(starts))
	for i, rel := range starts {
		jobs[i] = dirJob{rel: rel, chain: r.ignore.Stack(rel), start: true, node: &dirNode{rel: rel}}
	}
	return wk.run(ctx, jobs)
}

// enter notes a subdirectory that passes the rules, and enters it unless
// it is recorded already (a partial walk re-lists only what changed).
func (l *walkListing) enter(rel string) bool {
	parent := parentDir(rel)
	l.mu.Lock()
	defer l.mu.Unlock()
	l.seen[parent] = append(l.seen[parent], rel)
	return l.full || l.w.dirs[rel] == nil
}

// tree watches a directory about to be listed. Before the listing: a
// change after it is reported. A directory watched already gets its watch
// back, and one that is another directory than the one recorded gets
// another.
func (l *walkListing) tree(_ int, n *dirNode, done bool) {
	if done {
		return
	}
	w := l.w
	l.mu.Lock()
	defer l.mu.Unlock()
	d := &watchedDir{wd: -1}
	dir := w.r.dir
	if n.rel != "" {
		dir = path.Join(w.r.dir, n.rel)
	}
	if wd, err := addWatch(w.fd, dir, watchMask); err == nil {
		d.wd = int32(wd)
		w.byWD[d.wd] = n.rel
	}
	if old := w.dirs[n.rel]; old != nil && !l.full && old.wd >= 0 && d.wd >= 0 && old.wd != d.wd {
		l.replaced = append(l.replaced, n.rel)
		if w.byWD[old.wd] == n.rel { // the old directory, elsewhere now
			delete(w.byWD, old.wd)
			unix.InotifyRmWatch(w.fd, uint32(old.wd))
		}
	}
	l.found[n.rel] = d
}

// file admits one entry of a listed directory and adds it to what its
// directory holds; a symlink or a file with other hard links marks the
// directory volatile.
func (l *walkListing) file(wn int, _ bool, full, rel, name string, t fs.FileMode) {
	var f watchedFile
	c, info, ok := l.w.r.hooks.Admit(full, rel, name, t, &f.st, &l.bufs[wn])
	l.mu.Lock()
	defer l.mu.Unlock()
	d := l.found[parentDir(rel)]
	if t&fs.ModeSymlink != 0 || f.st.nlink > 1 {
		d.volatile = true
	}
	if f.st.nlink > 1 && !l.w.linked[f.st.ino] {
		l.newLinks = append(l.newLinks, f.st.ino)
	}
	if !ok {
		return
	}
	f.c = c
	if info != fs.FileInfo(&f.st) {
		f.info = info
	}
	d.files = append(d.files, f)
}

// record folds a walk's directories into w.dirs, parents first, so that a
// directory whose parent no longer enters it is dropped rather than
// recorded.
func (w *Watcher) record(found map[string]*watchedDir, seen map[string][]string, full bool) {
	rels := make([]string, 0, len(found))
	for rel := range found {
		rels = append(rels, rel)
	}
	slices.Sort(rels)
	for _, rel := range rels {
		d := found[rel]
		slices.SortFunc(d.files, func(a, b watchedFile) int { return strings.Compare(a.c.Rel, b.c.Rel) })
		d.subs = seen[rel]
		slices.Sort(d.subs)
		if full {
			w.stale, w.changed = true, true
			w.dirs[rel] = d
			continue
		}
		if rel != "" {
			if pd := w.dirs[parentDir(rel)]; pd == nil || !slices.Contains(pd.subs, rel) {
				w.dropWatch(rel, d.wd)
				w.forget(rel)
				w.stale, w.changed = true, true
				continue
			}
		}
		w.merge(rel, d)
	}
}

// merge records the new listing d of the directory rel over what was
// recorded of it. Subdirectories no longer there are forgotten. When the
// same files are there (the common change: one written), their new stats
// go into the record Walk's list points into, and the list stays valid.
func (w *Watcher) merge(rel string, d *watchedDir) {
	old := w.dirs[rel]
	if old == nil {
		w.stale, w.changed = true, true
		w.dirs[rel] = d
		return
	}
	for _, s := range old.subs {
		if _, ok := slices.BinarySearch(d.subs, s); !ok {
			w.forget(s)
		}
	}
	if !sameFiles(old, d) {
		w.stale, w.changed = true, true
		w.dirs[rel] = d
		return
	}
	for i := range d.files {
		x, y := &old.files[i], &d.files[i]
		fx, fy := x.fileInfo(), y.fileInfo()
		if fx.Size() != fy.Size() || !fx.ModTime().Equal(fy.ModTime()) || fx.Mode() != fy.Mode() {
			x.st, x.info = y.st, y.info
			w.changed = true
		}
	}
	old.wd, old.subs, old.volatile = d.wd, d.subs, d.volatile
}

// parentDir is the directory holding rel, "" for the root.
func parentDir(rel string) string {
	if dir := path.Dir(rel); dir != "." {
		return dir
	}
	return ""
}

// linkedDirs makes volatile, and dirty, every directory holding a file
// with one of the inodes ino (newly seen with several hard links): the
// stat recorded there may predate the link, made since, through which the
// file is now written without an event in that directory.
func (w *Watcher) linkedDirs(ino []uint64) {
	if len(ino) == 0 {
		return
	}
	for _, i := range ino {
		w.linked[i] = true
	}
	for rel, d := range w.dirs {
		if d.volatile {
			continue
		}
		for i := range d.files {
			if st := &d.files[i].st; st.ino != 0 && w.linked[st.ino] {
				d.volatile = true
				w.dirty[rel] = true
				break
			}
		}
	}
}

// sameFiles reports whether two walks of a directory found the same files
// and subdirectories (whatever their stats).
func sameFiles(a, b *watchedDir) bool {
	if !slices.Equal(a.subs, b.subs) || len(a.files) != len(b.files) {
		return false
	}
	for i := range a.files {
		if a.files[i].c != b.files[i].c {
			return false
		}
	}
	return true
}

// dropWatch removes the watch wd of directory rel, unless it now stands for
// another directory (a directory moved keeps its watch).
func (w *Watcher) dropWatch(rel string, wd int32) {
	if wd >= 0 && w.byWD[wd] == rel {
		delete(w.byWD, wd)
		unix.InotifyRmWatch(w.fd, uint32(wd))
	}
}

// forget drops the record of directory rel and of everything below it.
func (w *Watcher) forget(rel string) {
	d := w.dirs[rel]
	if d == nil {
		return
	}
	delete(w.dirs, rel)
	w.dropWatch(rel, d.wd)
	for _, s := range d.subs {
		w.forget(s)
	}
}

// flatten makes the list Walk yields from the directories' records: in
// order of Rel, a file reached twice (through symlinks) once, as Files.
func (w *Watcher) flatten() {
	n := 0
	for _, d := range w.dirs {
		n += len(d.files)
	}
	list := w.list[:0]
	if cap(list) < n {
		list = make([]*watchedFile, 0, n)
	}
	for _, d := range w.dirs {
		for i := range d.files {
			list = append(list, &d.files[i])
		}
	}
	slices.SortStableFunc(list, func(a, b *watchedFile) int { return strings.Compare(a.c.Rel, b.c.Rel) })
	out := list[:0]
	run := 0 // where the entries with this Rel begin in out
	for _, f := range list {
		if len(out) > 0 && f.c.Rel != out[len(out)-1].c.Rel {
			run = len(out)
		}
		if slices.ContainsFunc(out[run:], func(o *watchedFile) bool { return o.c.Path == f.c.Path }) {
			continue
		}
		out = append(out, f)
	}
	clear(list[len(out):])
	w.list = out
	w.stale = false
}
