package engine

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"github.com/taskctl/taskctl/internal/diag"
	"github.com/taskctl/taskctl/memory"
	"github.com/taskctl/taskctl/project"
)

// `taskctl index --watch` keeps .taskctl/index current from the kernel's
// change notifications (project.Watcher) and answers the refresh every
// other command makes before it reads the index (search, assemble's
// description sources, index itself) over a unix socket in the index
// directory: the asking command gets an index brought up to date with
// every change made before it asked, for the cost of a round trip instead
// of a stat of every file of the project. Only a watcher of the same
// project, policy, filter and taskctl executable is trusted (watchKey),
// only by a process of the same user; anything else — no watcher, a
// stale socket, a watcher that does not answer — and the command refreshes
// the index itself, as it does without one.

// WatchSocket is the watcher's socket, in the index directory.
const WatchSocket = "watch.sock"

// WatchWait bounds how long a command waits for the watcher's answer (a
// refresh after a large change may take seconds) before refreshing itself;
// WatchAck how long it waits for the watcher to take the request (a
// stopped watcher's socket still accepts connections). Tests shorten them.
var (
	WatchWait = 60 * time.Second
	WatchAck  = 2 * time.Second
)

// watchSettle is how long the watcher lets changes gather after the first
// one before it refreshes on its own (a checkout changes many files).
const watchSettle = 2 * time.Millisecond

type watchRequest struct {
	Op  string `json:"op"`  // "sync"
	Key string `json:"key"` // the asker's watchKey
}

type watchReply struct {
	Ack   bool         `json:"ack,omitempty"` // the request is taken; the reply follows
	OK    bool         `json:"ok"`
	Code  diag.Code    `json:"code,omitempty"`
	Error string       `json:"error,omitempty"`
	Pid   int          `json:"pid"`
	Stats memory.Stats `json:"stats"`
}

// watchedSource is the index's source in a watcher: textSource's reads
// and filter, and the Watcher's walk (not a memory.CachingSource: there is
// no walk cache to keep).
type watchedSource struct {
	text textSource
	w    *project.Watcher
}

func (s watchedSource) Walk(ctx context.Context, fn func(rel string, size int64, mtime time.Time) error) error {
	return s.w.Walk(ctx, func(c project.Candidate, info os.FileInfo) error {
		return fn(c.Rel, info.Size(), info.ModTime())
	})
}

func (s watchedSource) ReadFile(rel string) ([]byte, error) { return s.text.ReadFile(rel) }

func (s watchedSource) Root() string { return s.text.Root() }

func (s watchedSource) ReadFileInto(rel string, size int64, buf []byte) ([]byte, error) {
	return s.text.ReadFileInto(rel, size, buf)
}

func (s watchedSource) Filter(data []byte) []byte { return s.text.Filter(data) }
func (s watchedSource) FilterID() string          { return s.text.FilterID() }

var (
	exeOnce sync.Once
	exeID   string
)

// watchKey names what an index built by this process depends on besides
// the files: the project dir, the policy, the filter, and the executable
// (its path, size and time: a rebuilt taskctl may analyse differently).
func watchKey(p *project.Project, filterID string) string {
	exeOnce.Do(func() {
		exe, err := os.Executable()
		if err != nil {
			return
		}
		if fi, err := os.Stat(exe); err == nil {
			exeID = fmt.Sprintf("%s %d %d", exe, fi.Size(), fi.ModTime().UnixNano())
		}
	})
	h := sha256.New()
	fmt.Fprintf(h, "taskctl watch 1\x00%s\x00%#v\x00%s\x00%s", p.Dir(), p.Policy(), filterID, exeID)
	return hex.EncodeToString(h.Sum(nil))
}

// watchAddr returns the address of the socket at path: path itself, or,
// when it is too long for a socket address (108 bytes on Linux), a path
// through /proc/self/fd to a descriptor of its directory, closed by done.
func watchAddr(path string) (addr string, done func(), err error) {
	if len(path) < 100 {
		return path, func() {}, nil
	}
	d, err := os.Open(filepath.Dir(path))
	if err != nil {
		return "", nil, err
	}
	return fmt.Sprintf("/proc/self/fd/%d/%s", d.Fd(), filepath.Base(path)), func() { d.Close() }, nil
}

func dialWatch(path string, timeout time.Duration) (*net.UnixConn, error) {
	addr, done, err := watchAddr(path)
	if err != nil {
		return nil, err
	}
	defer done()
	c, err := net.DialTimeout("unix", addr, timeout)
	if err != nil {
		return nil, err
	}
	uc := c.(*net.UnixConn)
	if !sameUser(uc) {
		uc.Close()
		return nil, errors.New("the watcher's socket belongs to another user")
	}
	return uc, nil
}

// syncWatcher asks the watcher of the index in dir, if one runs, to bring
// the index up to date, and returns the index's stats. ok is false when
// none answers or its answer cannot be used: the caller then refreshes the
// index itself.
func (e *Engine) syncWatcher(ctx context.Context, ws *warnings, p *project.Project, dir string, filterID string) (st memory.Stats, ok bool) {
	sock := filepath.Join(dir, WatchSocket)
	if _, err := os.Lstat(sock); err != nil {
		return st, false // no watcher: the common case, one stat
	}
	c, err := dialWatch(sock, time.Second)
	if err != nil {
		return st, false // a stale socket: the watcher was killed
	}
	defer c.Close()
	deadline := func(d time.Duration) time.Time {
		t := time.Now().Add(d)
		if cd, ok := ctx.Deadline(); ok && cd.Before(t) {
			t = cd
		}
		return t
	}
	c.SetDeadline(deadline(WatchAck))
	stop := context.AfterFunc(ctx, func() { c.SetDeadline(time.Now()) })
	defer stop()
	req, _ := json.Marshal(watchRequest{Op: "sync", Key: watchKey(p, filterID)})
	if _, err := c.Write(append(req, '\n')); err != nil {
		return st, false
	}
	r := bufio.NewReaderSize(c, 64<<10)
	var rep watchReply
	line, err := r.ReadBytes('\n')
	if err != nil || json.Unmarshal(line, &rep) != nil {
		return st, false // no answer in WatchAck: a stopped watcher
	}
	if rep.Ack {
		if ctx.Err() != nil {
			return st, false
		}
		c.SetDeadline(deadline(WatchWait))
		rep = watchReply{}
		if line, err = r.ReadBytes('\n'); err != nil || json.Unmarshal(line, &rep) != nil {
			return st, false
		}
	}
	if !rep.OK {
		if rep.Code == diag.WatchMismatch {
			restart := "restart it"
			if w := e.spell(FieldWatch); w != "" {
				restart += " (taskctl " + w + ")"
			}
			ws.add(diag.Warning{Code: diag.WatchMismatch, Path: dir, Message: fmt.Sprintf(
				"the index watcher (pid %d) runs with another configuration or taskctl build: refreshed without it; %s", rep.Pid, restart)})
		}
		return st, false
	}
	WatchAnswered.Add(1)
	return rep.Stats, true
}

// WatchAnswered counts the refreshes a watcher answered to this process
// (tests read it).
var WatchAnswered atomic.Int64

// WatchRequest asks for the watcher: refresh the index (from scratch,
// with Rebuild), then keep it current and answer other processes'
// refreshes until ctx is done. Log receives a line for each event as it
// comes (started, refreshed, a warning): a watcher runs until stopped, so
// its warnings are logged, not kept for a result at the end.
type WatchRequest struct {
	Rebuild bool
	Log     func(line string)
}

// WatchResult is the index as the watcher leaves it.
type WatchResult struct {
	Bytes   int64 `json:"bytes"`
	Files   int   `json:"files"`
	Terms   int   `json:"terms"`
	Watched bool  `json:"watched"`
}

// watcher is one running `index --watch`.
type watcher struct {
	p   *project.Project
	w   *project.Watcher
	src watchedSource
	ix  *memory.Index
	log func(string)

	mu   sync.Mutex
	need bool // the last refresh failed: refresh again even if nothing changed
}

// Watch is `taskctl index --watch`: it refreshes the index, then keeps it
// current and answers other commands' refreshes until ctx is done.
func (e *Engine) Watch(ctx context.Context, req WatchRequest) (*WatchResult, error) {
	// A watcher lives until it is stopped: collect garbage as it comes,
	// not only near the memory limit the CLI sets.
	if e.getenv("GOGC") == "" {
		debug.SetGCPercent(100)
	}
	p, err := e.Project()
	if err != nil {
		return nil, err
	}
	dir, err := p.EnsureWorkspace("index")
	if err != nil {
		return nil, fmt.Errorf("index: %w", err)
	}
	w, err := p.Watch()
	if errors.Is(err, project.ErrWatchUnsupported) {
		return nil, codedErr(diag.WatchUnsupported, ClassError, "%s: %v", e.name(FieldWatch), err)
	}
	if err != nil {
		return nil, err
	}
	defer w.Close()
	wa := &watcher{p: p, w: w, src: watchedSource{text: e.indexSource(p), w: w}, log: req.Log}
	if wa.log == nil {
		wa.log = func(string) {}
	}
	sock := filepath.Join(dir, WatchSocket)
	ln, err := listenWatch(sock, e.name(FieldWatch))
	if err != nil {
		return nil, err
	}
	defer func() {
		ln.Close()
		removeOwnSocket(sock)
	}()
	if err := wa.start(ctx, dir, req.Rebuild, e.opts.Progress); err != nil {
		return nil, err
	}
	go wa.accept(ctx, ln, watchKey(p, wa.src.FilterID()))
	if err := wa.follow(ctx); err != nil {
		return nil, err
	}
	last := wa.ix.Stats()
	return &WatchResult{Bytes: last.Bytes, Files: last.Files, Terms: last.Terms, Watched: true}, nil
}

// logWarn logs a warning with the time.
func (wa *watcher) logWarn(code diag.Code, path, msg string) {
	if path != "" && !filepath.IsAbs(path) {
		path = AbsRel(wa.p, path)
	}
	if path != "" {
		msg = path + ": " + msg
	}
	wa.log(fmt.Sprintf("%s %s: %s", time.Now().Format("15:04:05"), code, msg))
}

// start brings the index in dir up to date the first time.
func (wa *watcher) start(ctx context.Context, dir string, rebuild bool, progress func(done, total int)) error {
	ix, st, err := memory.Update(ctx, dir, wa.src, rebuild, progress)
	if err != nil {
		return fmt.Errorf("index: %w", err)
	}
	wa.ix = ix
	for _, wn := range st.Warnings {
		wa.logWarn(wn.Code, wn.Path, wn.Message)
	}
	dirs, _ := wa.w.Len()
	wa.log(fmt.Sprintf("watching %s: %d files in %d directories, index refreshed in %s; stop with Ctrl-C",
		wa.p.Dir(), st.Files, dirs, st.Duration.Round(time.Millisecond)))
	if n := wa.w.Unwatched(); n > 0 {
		wa.logWarn(diag.WatchLimit, "", fmt.Sprintf(
			"%d directories could not be watched (the limit is fs.inotify.max_user_watches): each is listed again at every refresh", n))
	}
	return nil
}

// refresh brings the index up to date with every change made so far.
func (wa *watcher) refresh(ctx context.Context) (memory.Stats, error) {
	wa.mu.Lock()
	defer wa.mu.Unlock()
	start := time.Now()
	changed, err := wa.w.Sync(ctx)
	if err != nil {
		return memory.Stats{}, err
	}
	if !changed && !wa.need && !wa.ix.Stale() {
		s := wa.ix.Stats()
		s.Duration = time.Since(start)
		return s, nil
	}
	s, err := wa.ix.Refresh(ctx, wa.src, nil)
	wa.need = err != nil
	if err != nil {
		return s, err
	}
	s.Duration = time.Since(start)
	if s.Reread+s.Removed+s.Renamed > 0 {
		wa.log(fmt.Sprintf("%s index: %d re-read, %d renamed, %d removed, %d files (%s)",
			time.Now().Format("15:04:05"), s.Reread, s.Renamed, s.Removed, s.Files, s.Duration.Round(time.Millisecond)))
	}
	for _, wn := range s.Warnings {
		wa.logWarn(wn.Code, wn.Path, wn.Message)
	}
	return s, nil
}

// accept serves the socket's connections until it is closed.
func (wa *watcher) accept(ctx context.Context, ln *net.UnixListener, key string) {
	for {
		c, err := ln.Accept()
		if err != nil {
			if ctx.Err() != nil || errors.Is(err, net.ErrClosed) {
				return
			}
			time.Sleep(10 * time.Millisecond)
			continue
		}
		go serveWatch(c.(*net.UnixConn), key, func() (memory.Stats, error) { return wa.refresh(ctx) })
	}
}

// follow refreshes the index after each change (let settle for
// watchSettle) until ctx is done.
func (wa *watcher) follow(ctx context.Context) error {
	for {
		err := wa.w.Wait(ctx)
		if ctx.Err() != nil {
			return nil
		}
		if err != nil {
			return err
		}
		select {
		case <-ctx.Done():
		case <-time.After(watchSettle):
		}
		if ctx.Err() != nil {
			return nil
		}
		if _, err := wa.refresh(ctx); err != nil && ctx.Err() == nil {
			wa.log(fmt.Sprintf("index: %v", err))
			time.Sleep(time.Second) // not in a loop as fast as the failures
		}
	}
}

// serveWatch answers one connection's requests.
func serveWatch(c *net.UnixConn, key string, refresh func() (memory.Stats, error)) {
	defer c.Close()
	reply := func(r watchReply) bool {
		r.Pid = os.Getpid()
		b, _ := json.Marshal(r)
		c.SetWriteDeadline(time.Now().Add(5 * time.Second))
		_, err := c.Write(append(b, '\n'))
		return err == nil
	}
	if !sameUser(c) {
		reply(watchReply{Code: diag.WatchDenied, Error: "not the watcher's user"})
		return
	}
	r := bufio.NewReaderSize(c, 4096)
	for {
		c.SetReadDeadline(time.Now().Add(5 * time.Second))
		line, err := r.ReadSlice('\n')
		if err != nil {
			return
		}
		var req watchRequest
		if json.Unmarshal(line, &req) != nil || req.Op != "sync" {
			reply(watchReply{Code: diag.WatchBadRequest, Error: "expected {\"op\":\"sync\",\"key\":...}"})
			return
		}
		if req.Key != key {
			if !reply(watchReply{Code: diag.WatchMismatch, Error: "another project, configuration or taskctl build"}) {
				return
			}
			continue
		}
		if !reply(watchReply{Ack: true}) {
			return
		}
		st, err := refresh()
		if err != nil {
			reply(watchReply{Code: diag.Error, Error: err.Error()})
			return
		}
		if !reply(watchReply{OK: true, Stats: st}) {
			return
		}
	}
}

// listenWatch listens on the socket at path, taking over a stale one
// (left by a watcher that was killed); a watcher that answers there is a
// WATCH_RUNNING error.
func listenWatch(path, name string) (*net.UnixListener, error) {
	if c, err := dialWatch(path, time.Second); err == nil {
		c.Close()
		return nil, codedErr(diag.WatchRunning, ClassError, "%s: %s is already watched (its socket %s answers)", name,
			filepath.Dir(filepath.Dir(filepath.Dir(path))), path)
	}
	if fi, err := os.Lstat(path); err == nil {
		if fi.Mode().Type() != os.ModeSocket {
			return nil, fmt.Errorf("%s: %s exists and is not a socket", name, path)
		}
		os.Remove(path)
	}
	addr, done, err := watchAddr(path)
	if err != nil {
		return nil, err
	}
	defer done()
	ln, err := net.Listen("unix", addr)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	ul := ln.(*net.UnixListener)
	ul.SetUnlinkOnClose(false) // removeOwnSocket does it, by its real path
	return ul, nil
}

// removeOwnSocket removes the socket at path, after its listener was
// closed, unless another watcher answers there (one that took over).
func removeOwnSocket(path string) {
	if c, err := dialWatch(path, 100*time.Millisecond); err == nil {
		c.Close() // our own listener is closed: another watcher answers
		return
	}
	os.Remove(path)
}
