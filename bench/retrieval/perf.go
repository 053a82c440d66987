package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/taskctl/taskctl/memory"
)

var perfQueries = []string{
	"authentication token validation",
	"Go files about parsing configuration",
	"tests for the http handler",
	"in src/ buffer pool",
	`panic: runtime error: index out of range [3] with length 3

goroutine 1 [running]:
main.(*Parser).next(...)
	/home/user/project/parser/scanner.go:214
The tests fail when the input ends in the middle of a multi-byte rune. I expected the scanner to
report an error instead of panicking. This started after the change to how the lexer buffers input;
see the docs for the expected behaviour of incomplete input. Steps: run the parser on a file that is
truncated, with a trailing UTF-8 sequence, and watch the stack trace above.`,
	longReport(),
}

// longReport is a bug report of about 450 words with a stack trace and code.
func longReport() string {
	var b strings.Builder
	b.WriteString(`Title: intermittent deadlock when closing the connection pool during a configuration reload

We run the server behind a load balancer and reload its configuration every few minutes with SIGHUP.
About once a day the process stops answering: the health check times out, CPU drops to zero and the
goroutine dump shows every request goroutine blocked on the pool mutex. The reload goroutine is stuck
in Close while it waits for idle connections to drain, but the drain needs the same mutex, which the
reload already holds. The tests fail only when run with -race and -count=50, which is why CI did not
catch it; see the docs on connection lifetime for what we expected to happen.

goroutine 412 [semacquire, 14 minutes]:
sync.runtime_SemacquireMutex(0xc0001a2e84, 0x0, 0x1)
	/usr/local/go/src/runtime/sema.go:77 +0x25
sync.(*Mutex).lockSlow(0xc0001a2e80)
	/usr/local/go/src/sync/mutex.go:171 +0x165
net/http.(*Transport).CloseIdleConnections(0xc0001a2dc0)
	/usr/local/go/src/net/http/transport.go:780 +0x45
main.(*server).reload(0xc000118000, 0xc0003c6000)
	/srv/app/reload.go:88 +0x2d1

goroutine 97 [semacquire, 14 minutes]:
database/sql.(*DB).conn(0xc0000f4340, {0x1024c20, 0xc0004a2a80}, 0x1)
	/usr/local/go/src/database/sql/sql.go:1300 +0x1f4
database/sql.(*DB).query(0xc0000f4340, {0x1024c20, 0xc0004a2a80}, {0xb6e1b3, 0x2a}, {0x0, 0x0, 0x0}, 0x1)

The relevant code in our reload handler looks like this:

	func (s *server) reload(cfg *Config) {
		s.mu.Lock()
		defer s.mu.Unlock()
		s.transport.CloseIdleConnections()
		s.db.SetMaxIdleConns(cfg.MaxIdle)
		s.db.SetConnMaxLifetime(cfg.Lifetime)
	}

What we tried: moving CloseIdleConnections out of the critical section makes the hang go away but
then a request can pick up a connection configured with the old lifetime, which breaks the rotation
of database credentials. Setting MaxIdleConns to zero before closing also helps, yet the documentation
of SetMaxIdleConns says it may close connections synchronously, and we are not sure whether that can
block on a connection that is being returned to the pool at the same moment by another goroutine.
We would like to know whether the connection pool guarantees that returning a connection never waits
for a concurrent SetMaxIdleConns or SetConnMaxLifetime call, and if not, what the recommended order
of operations is during a reload. Environment: Linux amd64, two vCPUs, about 300 requests per
second, PostgreSQL 15 through pgx stdlib, HTTP keep-alive enabled, idle timeout ninety seconds.`)
	return b.String()
}

// runPerf measures the index on dir: the cold build beside the plain
// BM25 build, warm searches, the walk alone, and refreshes after nothing,
// a touch and an edit of one file changed. It edits that file in dir and
// restores it.
func runPerf(dir string, w io.Writer) error {
	idx, err := os.MkdirTemp("", "taskctl-perf-index-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(idx)
	ix, _, err := memory.Open(idx)
	if err != nil {
		return err
	}
	p := &perfRun{ctx: context.Background(), w: w, dir: dir, idx: idx, ix: ix, src: memory.DirSource(dir)}
	if err := p.coldBuild(); err != nil {
		return err
	}
	if err := p.warmSearch(); err != nil {
		return err
	}
	p.walkAlone()
	if err := p.refresh("refresh, nothing changed", false); err != nil {
		return err
	}
	return p.changeOneFile()
}

// perfRun is one run of runPerf: the index under test and the figures
// later measurements are shown against.
type perfRun struct {
	ctx  context.Context
	w    io.Writer
	dir  string // the tree indexed
	idx  string // the index's directory
	ix   *memory.Index
	src  memory.CachingSource
	cold time.Duration // the cold build's wall time
	walk time.Duration // the cached walk's wall time, 0 if there was no walk cache
}

// coldBuild builds the index from nothing, then the plain BM25 the
// rankings are compared with over the same files (one core, in memory),
// as its peer.
func (p *perfRun) coldBuild() error {
	c0 := cpuTime()
	st, err := p.ix.Refresh(p.ctx, p.src, nil)
	if err != nil {
		return err
	}
	coldCPU := cpuTime() - c0
	p.cold = st.Duration
	fmt.Fprintf(p.w, "cold build: %d files (%d skipped), %d terms, %.1f MB indexed, index %.1f MB (%.3f of indexed bytes), %v (cpu %v)\n",
		st.Files, st.Skipped, st.Terms, float64(st.Bytes)/1e6, float64(st.IndexBytes)/1e6, float64(st.IndexBytes)/float64(st.Bytes), p.cold.Round(time.Millisecond), coldCPU.Round(time.Millisecond))

	plain, plainCPU := buildPlain(p.ctx, p.src, p.dir)
	fmt.Fprintf(p.w, "plain BM25 build (content-only words into Go maps, one goroutine, nothing written): %v (cpu %v); the cold build took %.2fx its time, %.2fx its cpu\n",
		plain.Round(time.Millisecond), plainCPU.Round(time.Millisecond), float64(p.cold)/float64(plain), float64(coldCPU)/float64(plainCPU))
	return nil
}

// warmSearch opens the persisted index and searches, as a CLI call would,
// the best of five for each query.
func (p *perfRun) warmSearch() error {
	for _, q := range perfQueries {
		best := time.Hour
		var n int
		for range 5 {
			t0 := time.Now()
			ix, _, err := memory.Open(p.idx)
			if err != nil {
				return err
			}
			n = len(ix.Search(q, memory.SearchOptions{Limit: 10, Source: p.src}))
			best = min(best, time.Since(t0))
		}
		short := q
		if len(short) > 40 {
			short = short[:40] + "…"
		}
		fmt.Fprintf(p.w, "open+search %-44q %d matches, best of 5: %v\n", short, n, best.Round(10*time.Microsecond))
	}
	return nil
}

// walkAlone times the walk by itself, without and with the walk cache the
// cold build left, so that the index's own share of a refresh shows. The
// walk belongs to the project's walker (DirSource is project.Walk and
// project.WalkCached).
func (p *perfRun) walkAlone() {
	t0 := time.Now()
	p.src.Walk(p.ctx, func(string, int64, time.Time) error { return nil })
	uncached := time.Since(t0)
	fmt.Fprintf(p.w, "walk alone (DirSource, no cache): %v (%.1f%% of cold)\n", uncached.Round(time.Millisecond), pct(uncached, p.cold))
	if prev, err := os.ReadFile(filepath.Join(p.idx, "walk.bin")); err == nil {
		t0 = time.Now()
		p.src.WalkCached(p.ctx, prev, func(string, int64, time.Time) error { return nil })
		p.walk = time.Since(t0)
		fmt.Fprintf(p.w, "walk alone (DirSource, cached): %v (%.1f%% of cold)\n", p.walk.Round(time.Millisecond), pct(p.walk, p.cold))
	}
}

// refresh refreshes the index and prints, under the label what, its time
// beside the cold build's, with and without the walk, and with counts how
// many files it read again and whether it wrote the index.
func (p *perfRun) refresh(what string, counts bool) error {
	c0 := cpuTime()
	st, err := p.ix.Refresh(p.ctx, p.src, nil)
	if err != nil {
		return err
	}
	line := fmt.Sprintf("%s: %v (%.1f%% of cold; %.1f%% without the walk; cpu %v)", what, st.Duration.Round(time.Millisecond), pct(st.Duration, p.cold), pct(st.Duration-p.walk, p.cold), (cpuTime() - c0).Round(time.Millisecond))
	if counts {
		line += fmt.Sprintf(", reread %d, written %v", st.Reread, st.Written)
	}
	fmt.Fprintln(p.w, line)
	return nil
}

// changeOneFile touches one file of more than 1000 bytes, then edits it,
// refreshing after each; the file is restored, times and all, afterwards.
func (p *perfRun) changeOneFile() error {
	var victim string
	p.src.Walk(p.ctx, func(rel string, size int64, _ time.Time) error {
		if victim == "" && size > 1000 && filepath.Ext(rel) != "" {
			victim = rel
		}
		return nil
	})
	if victim == "" {
		return nil
	}
	abs := filepath.Join(p.dir, filepath.FromSlash(victim))
	fi, err := os.Stat(abs)
	if err != nil {
		return err
	}
	orig, err := os.ReadFile(abs)
	if err != nil {
		return err
	}
	defer func() {
		os.WriteFile(abs, orig, fi.Mode())
		os.Chtimes(abs, fi.ModTime(), fi.ModTime())
	}()
	now := time.Now()
	if err := os.Chtimes(abs, now, now); err != nil {
		return err
	}
	if err := p.refresh("refresh after touching "+victim, true); err != nil {
		return err
	}
	if err := os.WriteFile(abs, append(append([]byte{}, orig...), "\n// taskctl bench edit\n"...), fi.Mode()); err != nil {
		return err
	}
	return p.refresh("refresh after editing it", true)
}

func pct(d, of time.Duration) float64 { return 100 * float64(d) / float64(of) }

// buildPlain builds the plain BM25 baseline over the files src walks and
// returns how long it took, in wall and CPU time.
func buildPlain(ctx context.Context, src memory.Source, dir string) (wall, cpu time.Duration) {
	var files []blob
	src.Walk(ctx, func(rel string, size int64, _ time.Time) error {
		files = append(files, blob{rel: rel, id: rel, size: size})
		return nil
	})
	c0, t0 := cpuTime(), time.Now()
	newPlainBM25().sync(files, func(rel string) ([]byte, error) {
		return os.ReadFile(filepath.Join(dir, filepath.FromSlash(rel)))
	})
	return time.Since(t0), cpuTime() - c0
}
