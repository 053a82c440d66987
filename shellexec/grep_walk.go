package shellexec

import (
	"bytes"
	"errors"
	"io/fs"
	"sync"
	"sync/atomic"
)

// walk searches a directory tree in readdir order, like GNU grep -r:
// symbolic links found while walking are skipped.
func (g *grepRun) walk(dir, shown string) {
	d, err := g.c.fs.openWalk(g.c.dir, dir)
	if err != nil {
		g.fileErr(dir, err)
		return
	}
	g.walkAt(d, dir, shown)
	d.Close()
}

// walkAt searches the directory d, which is dir relative to the command's
// directory and shown as shown.
func (g *grepRun) walkAt(d *walkDir, dir, shown string) {
	ents, err := d.List(dir, func(name string) (fs.FileMode, error) {
		fi, err := g.c.fs.lstat(g.c.dir, joinPath(dir, name))
		if err != nil {
			return 0, err
		}
		return fi.Mode(), nil
	})
	if err != nil {
		g.fileErr(dir, err)
		return
	}
	var batch []grepJob
	flush := func() {
		g.searchBatch(d, batch)
		batch = batch[:0]
	}
	for _, e := range ents {
		if g.stop() {
			return
		}
		name := e.Name()
		switch t := e.Type(); {
		case t.IsDir():
			flush()
			if g.excludedDir(name) || isStateName(name) {
				continue
			}
			disp := joinPath(shown, name)
			sub, err := d.Sub(name, disp)
			if err != nil {
				g.fileErr(disp, err)
				continue
			}
			g.walkAt(sub, joinPath(dir, name), disp)
			sub.Close()
		case t.IsRegular():
			if g.included(name, false) && g.c.fs.refusedName(g.c.dir, joinPath(dir, name)) == nil {
				batch = append(batch, grepJob{name: name, path: joinPath(dir, name), shown: joinPath(shown, name)})
				if len(batch) == maxGrepBatch {
					flush()
				}
			}
		}
	}
	flush()
}

// grepJob is one file of a batch searched in parallel; output is
// buffered per file and written in readdir order.
type grepJob struct {
	name    string // in its directory
	path    string // relative to the command's directory
	shown   string // as printed
	out     bytes.Buffer
	matched bool
	err     error
}

const (
	maxGrepBatch = 64
	grepWorkers  = 2
)

func (g *grepRun) searchBatch(d *walkDir, jobs []grepJob) {
	if len(jobs) == 0 {
		return
	}
	g.c.fs.content.Store(true)
	var next atomic.Int64
	// Every file is read whole, -l, -L and -q included: the content
	// policy judges a file whole, and the policy's size cap (always set)
	// refuses a file over it, as the context document does (see judge).
	work := func(w int) {
		buf := g.bufs[w]
		defer func() { g.bufs[w] = buf }()
		for {
			i := int(next.Add(1) - 1)
			if i >= len(jobs) || g.c.ctx.Err() != nil || g.o.quiet && g.quietHit.Load() {
				return
			}
			j := &jobs[i]
			// A buffer larger than the worker's is charged to the
			// run's memory budget while the file is searched.
			var charged int64
			data, ok, err := d.ReadFile(j.name, j.shown, buf, func(n int64) error {
				if err := g.c.s.mem.acquire(n); err != nil {
					return err
				}
				charged = n
				return nil
			})
			if !ok {
				// Not the plain file getdents listed (now a symlink, say):
				// read it as a named file, through the os.Root.
				data, err = g.c.fs.readContent(g.c.dir, j.path)
			} else if err == nil {
				err = g.c.fs.judge(abs(g.c.dir, j.path), j.shown, data)
			}
			if err != nil {
				g.c.s.mem.release(charged)
				j.err = err
				continue
			}
			buf = data[:0]
			j.matched = g.search(&j.out, j.shown, data)
			g.c.s.mem.release(charged)
			if j.matched && g.o.quiet {
				g.quietHit.Store(true)
			}
		}
	}
	if len(jobs) == 1 {
		work(0)
	} else {
		var wg sync.WaitGroup
		for w := 1; w < grepWorkers; w++ {
			wg.Go(func() { work(w) })
		}
		work(0)
		wg.Wait()
	}
	for i := range jobs {
		j := &jobs[i]
		if j.err != nil {
			// Devices and FIFOs, and files the content policy keeps
			// from commands, are passed over by grep -r (the refusal
			// is in Result.Secrets).
			if !errors.Is(j.err, errNotRegular) && !isRefused(j.err) {
				g.fileErr(j.shown, j.err)
			}
			continue
		}
		g.c.out.Write(j.out.Bytes())
		if j.matched {
			g.matched = true
		}
	}
}

func (g *grepRun) excludedDir(name string) bool {
	for _, p := range g.excDirs {
		if fnmatch(p, name, false) {
			return true
		}
	}
	return false
}
