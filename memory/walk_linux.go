//go:build linux

package memory

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// On Linux, DirSource walks on up to four goroutines (GOMAXPROCS), with
// fstatat and getdents from a descriptor of the root kept open: a
// directory costs one fstatat when the walk cache vouches for its entries
// and an open, getdents and close when it must be listed; a file costs one
// fstatat. It reads files with openat2(RESOLVE_BENEATH) from the root in
// one system call (os.Root resolves a path one component at a time),
// falling back to os.Root where openat2 is missing or refuses.

// rootFD returns a descriptor of the root directory, opened on first use
// and kept open until d is garbage.
func (d *dirSource) rootFD() (int, error) {
	d.fdOnce.Do(func() {
		for {
			d.fd, d.fdErr = unix.Open(d.root, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
			if d.fdErr != unix.EINTR {
				break
			}
		}
		if d.fdErr != nil {
			d.fdErr = &fs.PathError{Op: "open", Path: d.root, Err: d.fdErr}
			d.fd = -1
			return
		}
		runtime.AddCleanup(d, func(fd int) { unix.Close(fd) }, d.fd)
	})
	return d.fd, d.fdErr
}

// openBeneath opens rel below the root with openat2(RESOLVE_BENEATH); ok
// is false when the kernel lacks openat2 or refused the path in a way
// os.Root should judge (symbolic links).
func (d *dirSource) openBeneath(rel string) (f *os.File, ok bool, err error) {
	root, err := d.rootFD()
	if err != nil {
		return nil, true, err
	}
	how := unix.OpenHow{Flags: unix.O_RDONLY | unix.O_CLOEXEC, Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_MAGICLINKS}
	for {
		fd, err := unix.Openat2(root, rel, &how)
		switch err {
		case nil:
			return os.NewFile(uintptr(fd), rel), true, nil
		case unix.EINTR, unix.EAGAIN:
			continue
		case unix.ENOENT, unix.ENOTDIR, unix.EACCES, unix.EISDIR:
			return nil, true, &fs.PathError{Op: "open", Path: rel, Err: err}
		}
		return nil, false, nil
	}
}

// ReadFileInto is ReadFile for a file the walk just found size bytes long,
// reading into buf when it is large enough: one openat2, one read and a
// close when the size still holds. The descriptor is opened non-blocking,
// so a file replaced by a FIFO since the walk cannot hang the read. A read
// short of size+1 bytes is taken as the end of the file; should a file
// system return less without being at the end, the content is shorter
// than the walk's size and the next Refresh reads the file again.
func (d *dirSource) ReadFileInto(rel string, size int64, buf []byte) ([]byte, error) {
	if size < 0 || size > MaxFileSize || !filepath.IsLocal(filepath.FromSlash(rel)) {
		return d.ReadFile(rel)
	}
	root, err := d.rootFD()
	if err != nil {
		return nil, err
	}
	how := unix.OpenHow{Flags: unix.O_RDONLY | unix.O_CLOEXEC | unix.O_NONBLOCK, Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_MAGICLINKS}
	var fd int
	for {
		fd, err = unix.Openat2(root, filepath.FromSlash(rel), &how)
		if err != unix.EINTR && err != unix.EAGAIN {
			break
		}
	}
	if err != nil {
		return d.ReadFile(rel)
	}
	f := os.NewFile(uintptr(fd), rel)
	defer f.Close()
	if int64(cap(buf)) < size+1 {
		buf = make([]byte, size+1)
	}
	buf = buf[:size+1]
	n, err := f.Read(buf)
	if err == io.EOF {
		return buf[:0], nil
	}
	if err != nil {
		return nil, err
	}
	if n <= int(size) {
		return buf[:n], nil
	}
	// grew since the walk
	rest, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1-int64(n)))
	return append(buf[:n:n], rest...), err
}

func (d *dirSource) readFast(rel string) ([]byte, bool, error) {
	f, ok, err := d.openBeneath(filepath.FromSlash(rel))
	if !ok || err != nil {
		return nil, ok, err
	}
	defer f.Close()
	var st unix.Stat_t
	if err := unix.Fstat(int(f.Fd()), &st); err == nil && st.Mode&unix.S_IFMT == unix.S_IFREG && st.Size <= MaxFileSize {
		buf := make([]byte, st.Size+1)
		n, err := io.ReadFull(f, buf)
		if err == io.ErrUnexpectedEOF || err == io.EOF {
			return buf[:n], true, nil
		}
		if err != nil {
			return nil, true, err
		}
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	return data, true, err
}

// walkNode is a directory the walk entered.
type walkNode struct {
	name   string // last component ("" for the root)
	rel    string
	parts  []string // rel split at slashes, set by prepare
	parent *walkNode
	cached *cachedDir // what the previous walk recorded, if anything

	rec     cachedDir // this walk's record
	ignore  stamp     // its .gitignore (zero if none)
	ents    []walkEnt // sorted by name
	reused  bool      // entries taken from the cache
	failed  bool      // could not be opened or listed
	prepped sync.Once
	pats    []ignorePattern // in effect below this directory (its own included)
	ig      *ignoreDir
}

// walkEnt is an entry of a directory being walked.
type walkEnt struct {
	name  string
	dir   bool
	gone  bool // a cached file that is no longer a regular file
	size  int64
	mtime int64
	sub   *walkNode
}

// walker is one walk of a dirSource.
type walker struct {
	d       *dirSource
	rootfd  int
	ctx     context.Context
	exclude []ignorePattern
	seed    uint64 // digest of .git/info/exclude
	prev    *walkCache
	start   int64

	mu      sync.Mutex
	cond    *sync.Cond
	queue   []*walkNode
	pending int
	dirty   atomic.Bool // some directory was listed (the cache must be rewritten)
}

// prepare computes the ignore patterns in effect below n and its match
// state; a directory whose entries come from the cache needs them only
// when one of its subdirectories is listed.
func (w *walker) prepare(n *walkNode) {
	n.prepped.Do(func() {
		if n.parent != nil {
			w.prepare(n.parent)
			n.parts = append(n.parent.parts[:len(n.parent.parts):len(n.parent.parts)], n.name)
		}
		if n.parent == nil {
			n.pats = w.exclude[:len(w.exclude):len(w.exclude)]
			n.ig = &ignoreDir{rel: "", state: make([]uint8, len(n.pats))}
		} else {
			p := n.parent
			n.ig = &ignoreDir{rel: n.rel, state: make([]uint8, len(p.pats))}
			last := n.name
			for k, st := range p.ig.state {
				pt := &p.pats[k]
				if pt.glob != nil || len(n.parts) <= pt.depth {
					continue
				}
				if st == nameNone {
					if ok, err := pt.matchName(last); err != nil {
						st = nameError
					} else if ok {
						st = nameMatched
					}
				}
				n.ig.state[k] = st
			}
			n.pats = p.pats[:len(p.pats):len(p.pats)]
		}
		if n.ignore != (stamp{}) {
			n.pats = append(n.pats, readIgnore(filepath.Join(w.d.root, filepath.FromSlash(n.rel), ".gitignore"), n.parts)...)
		}
		n.ig.state = append(n.ig.state, make([]uint8, len(n.pats)-len(n.ig.state))...)
	})
}

func (w *walker) push(t *walkNode) {
	w.mu.Lock()
	w.queue = append(w.queue, t)
	w.pending++
	w.mu.Unlock()
	w.cond.Signal()
}

func (w *walker) run(root *walkNode) {
	w.cond = sync.NewCond(&w.mu)
	w.pending = 1
	w.queue = append(w.queue, root)
	workers := min(runtime.GOMAXPROCS(0), 4)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var buf, path []byte
			for {
				w.mu.Lock()
				for len(w.queue) == 0 && w.pending > 0 {
					w.cond.Wait()
				}
				if w.pending == 0 {
					w.mu.Unlock()
					w.cond.Broadcast()
					return
				}
				n := w.queue[len(w.queue)-1]
				w.queue = w.queue[:len(w.queue)-1]
				w.mu.Unlock()
				buf, path = w.visit(n, buf, path)
				w.mu.Lock()
				w.pending--
				done := w.pending == 0
				w.mu.Unlock()
				if done {
					w.cond.Broadcast()
				}
			}
		}()
	}
	wg.Wait()
}

func statOf(st *unix.Stat_t) stamp {
	return stamp{ino: st.Ino, size: st.Size, ctime: st.Ctim.Nano(), mtime: st.Mtim.Nano()}
}

func fstatat(fd int, name string, st *unix.Stat_t, flags int) error {
	for {
		err := unix.Fstatat(fd, name, st, flags)
		if err != unix.EINTR {
			return err
		}
	}
}

// visit checks one directory against the cache, lists it if it changed,
// stats its files and queues its subdirectories. Paths are resolved from
// the root's descriptor: a directory taken from the cache is never opened.
func (w *walker) visit(n *walkNode, buf, path []byte) ([]byte, []byte) {
	if w.ctx.Err() != nil {
		n.failed = true
		return buf, path
	}
	var st unix.Stat_t
	dirPath := n.rel
	if dirPath == "" {
		dirPath = "."
	}
	if err := fstatat(w.rootfd, dirPath, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil || st.Mode&unix.S_IFMT != unix.S_IFDIR {
		n.failed = true
		return buf, path
	}
	ds := statOf(&st)
	n.rec = cachedDir{ino: ds.ino, ctime: ds.ctime, mtime: ds.mtime}
	parentDigest := w.seed
	if n.parent != nil {
		parentDigest = n.parent.rec.digest
	}
	prefix := ""
	if n.rel != "" {
		prefix = n.rel + "/"
	}
	c := n.cached
	if c != nil && (c.ino != ds.ino || c.ctime != ds.ctime || c.mtime != ds.mtime || w.racy(ds)) {
		c = nil
	}
	if c != nil {
		// the same entries as before, if the ignore rules are the same
		if c.ignore {
			n.ignore = w.ignoreStamp(prefix + ".gitignore")
		}
		n.rec.digest = digestOf(parentDigest, n.ignore)
		if n.rec.digest != c.digest || (n.ignore != stamp{} && w.racy(n.ignore)) {
			c = nil
		}
	}
	if c != nil {
		n.reused = true
		n.rec.ignore = c.ignore
		n.ents = make([]walkEnt, len(c.ents))
		for i, e := range c.ents {
			n.ents[i] = walkEnt{name: e.name, dir: e.dir}
		}
	} else {
		w.dirty.Store(true)
		var ok bool
		buf, ok = w.list(n, dirPath, prefix, parentDigest, buf)
		if !ok {
			n.failed = true
			return buf, path
		}
	}
	for i := range n.ents {
		e := &n.ents[i]
		if e.dir {
			if e.sub == nil {
				e.sub = w.child(n, e.name)
			}
			w.push(e.sub)
			continue
		}
		if !n.reused {
			continue // stat'ed while listing
		}
		path = append(append(append(path[:0], prefix...), e.name...), 0)
		if err := fstatatBytes(w.rootfd, path, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil || st.Mode&unix.S_IFMT != unix.S_IFREG {
			e.gone = true
			w.dirty.Store(true)
			continue
		}
		e.size, e.mtime = st.Size, st.Mtim.Nano()
	}
	return buf, path
}

func (w *walker) ignoreStamp(name string) stamp {
	var st unix.Stat_t
	if err := fstatat(w.rootfd, name, &st, 0); err != nil {
		return stamp{}
	}
	s := statOf(&st)
	if s == (stamp{}) {
		s.size = 1
	}
	return s
}

// racy reports whether s changed so shortly before the previous walk that
// a later change could have kept its times.
func (w *walker) racy(s stamp) bool {
	if w.prev == nil {
		return true
	}
	lim := w.prev.start - walkRacy
	return s.ctime >= lim || s.mtime >= lim
}

func (w *walker) child(n *walkNode, name string) *walkNode {
	c := &walkNode{name: name, parent: n}
	if n.rel == "" {
		c.rel = name
	} else {
		c.rel = n.rel + "/" + name
	}
	if w.prev != nil {
		c.cached = w.prev.dirs[c.rel]
	}
	return c
}

// list reads a directory's entries and keeps those the ignore rules and
// the policy let through.
func (w *walker) list(n *walkNode, dirPath, prefix string, parentDigest uint64, buf []byte) ([]byte, bool) {
	var fd int
	var err error
	for {
		fd, err = unix.Openat(w.rootfd, dirPath, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		if err != unix.EINTR {
			break
		}
	}
	if err != nil {
		return buf, false
	}
	defer unix.Close(fd)
	if buf == nil {
		buf = make([]byte, 32<<10)
	}
	type raw struct {
		name string
		typ  uint8
	}
	var raws []raw
	hasIgnore := false
	for {
		k, err := unix.Getdents(fd, buf)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return buf, false
		}
		if k <= 0 {
			break
		}
		for b := buf[:k]; len(b) > 0; {
			reclen := int(*(*uint16)(unsafe.Pointer(&b[16])))
			if reclen < 19 || reclen > len(b) {
				return buf, false
			}
			typ := b[18]
			nb := b[19:reclen]
			if i := slices.Index(nb, 0); i >= 0 {
				nb = nb[:i]
			}
			b = b[reclen:]
			if len(nb) == 0 || string(nb) == "." || string(nb) == ".." {
				continue
			}
			name := string(nb)
			if name == ".gitignore" {
				hasIgnore = true
			}
			raws = append(raws, raw{name, typ})
		}
	}
	if hasIgnore {
		n.ignore = w.ignoreStamp(prefix + ".gitignore")
	}
	n.rec.ignore = hasIgnore
	n.rec.digest = digestOf(parentDigest, n.ignore)
	w.prepare(n)
	slices.SortFunc(raws, func(a, b raw) int { return strings.Compare(a.name, b.name) })
	n.ents = make([]walkEnt, 0, len(raws))
	parts := append(n.parts[:len(n.parts):len(n.parts)], "")
	var st unix.Stat_t
	for _, r := range raws {
		parts[len(parts)-1] = r.name
		typ := r.typ
		e := walkEnt{name: r.name}
		if typ == unix.DT_REG && ignored(n.pats, n.ig, parts, false) {
			continue
		}
		if typ == unix.DT_UNKNOWN || typ == unix.DT_REG {
			if err := fstatat(fd, r.name, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
				continue
			}
			switch st.Mode & unix.S_IFMT {
			case unix.S_IFDIR:
				typ = unix.DT_DIR
			case unix.S_IFREG:
				typ = unix.DT_REG
				e.size, e.mtime = st.Size, st.Mtim.Nano()
			default:
				continue
			}
		}
		switch typ {
		case unix.DT_DIR:
			switch r.name {
			case ".git", ".taskctl", "node_modules":
				continue
			}
			if ignored(n.pats, n.ig, parts, true) {
				continue
			}
			e.dir = true
		case unix.DT_REG:
			if r.typ == unix.DT_UNKNOWN && ignored(n.pats, n.ig, parts, false) {
				continue
			}
		default:
			continue
		}
		n.ents = append(n.ents, e)
	}
	return buf, true
}

// walkCached walks the tree under d.root, reusing what the walk cache
// prev recorded; it returns the cache for the next walk, or nil if prev
// still describes the tree (or want is false).
func (d *dirSource) walkCached(ctx context.Context, prev []byte, want bool, fn func(string, int64, time.Time) error) ([]byte, error) {
	rootfd, err := d.rootFD()
	if err != nil {
		return nil, err
	}
	w := &walker{d: d, rootfd: rootfd, ctx: ctx, start: time.Now().UnixNano()}
	if prev != nil {
		w.prev = decodeWalkCache(prev, d.root)
	}
	exclude := filepath.Join(d.root, ".git", "info", "exclude")
	var st unix.Stat_t
	if err := unix.Stat(exclude, &st); err == nil {
		s := statOf(&st)
		w.seed = digestOf(1, s)
		if w.racy(s) {
			w.prev = nil
		}
		w.exclude = readIgnore(exclude, nil)
	}
	root := &walkNode{}
	if w.prev != nil {
		root.cached = w.prev.dirs[""]
	}
	w.run(root)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if root.failed {
		_, err := os.Stat(d.root)
		if err == nil {
			err = &fs.PathError{Op: "open", Path: d.root, Err: errors.New("cannot list directory")}
		}
		return nil, err
	}
	var cw *walkCacheWriter
	if want && (w.prev == nil || w.dirty.Load()) {
		cw = newWalkCacheWriter(d.root, w.start)
	}
	var emit func(n *walkNode) error
	emit = func(n *walkNode) error {
		if cw != nil && !n.failed {
			ents := n.ents
			cw.dir(n.rel, &n.rec, len(ents), func(i int) (string, bool, bool) { return ents[i].name, ents[i].dir, !ents[i].gone })
		}
		for i := range n.ents {
			e := &n.ents[i]
			if e.dir {
				if e.sub != nil && !e.sub.failed {
					if err := emit(e.sub); err != nil {
						return err
					}
				}
				continue
			}
			if e.gone {
				continue
			}
			rel := e.name
			if n.rel != "" {
				rel = n.rel + "/" + e.name
			}
			if err := fn(rel, e.size, time.Unix(0, e.mtime)); err != nil {
				return err
			}
		}
		return nil
	}
	if err := emit(root); err != nil {
		return nil, err
	}
	if cw == nil {
		return nil, nil
	}
	return cw.bytes(), nil
}
