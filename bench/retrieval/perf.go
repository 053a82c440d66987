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

// runPerf measures the index on dir.
func runPerf(dir string, w io.Writer) error {
	ctx := context.Background()
	idx, err := os.MkdirTemp("", "taskctl-perf-index-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(idx)
	src := memory.DirSource(dir)

	ix, _, err := memory.Open(idx)
	if err != nil {
		return err
	}
	c0 := cpuTime()
	st, err := ix.Refresh(ctx, src, nil)
	if err != nil {
		return err
	}
	cold, coldCPU := st.Duration, cpuTime()-c0
	fmt.Fprintf(w, "cold build: %d files (%d skipped), %d terms, %.1f MB indexed, index %.1f MB (%.3f of indexed bytes), %v (cpu %v)\n",
		st.Files, st.Skipped, st.Terms, float64(st.Bytes)/1e6, float64(st.IndexBytes)/1e6, float64(st.IndexBytes)/float64(st.Bytes), cold.Round(time.Millisecond), coldCPU.Round(time.Millisecond))

	// A peer for the cold build: the plain BM25 the rankings are compared
	// with, building over the same files on one core, in memory.
	plain, plainCPU := buildPlain(ctx, src, dir)
	fmt.Fprintf(w, "plain BM25 build (content-only words into Go maps, one goroutine, nothing written): %v (cpu %v); the cold build took %.2fx its time, %.2fx its cpu\n",
		plain.Round(time.Millisecond), plainCPU.Round(time.Millisecond), float64(cold)/float64(plain), float64(coldCPU)/float64(plainCPU))

	// Warm search: open the persisted index and search, as a CLI call would.
	for _, q := range perfQueries {
		best := time.Hour
		var n int
		for range 5 {
			t0 := time.Now()
			ix2, _, err := memory.Open(idx)
			if err != nil {
				return err
			}
			n = len(ix2.Search(q, memory.SearchOptions{Limit: 10, Source: src}))
			best = min(best, time.Since(t0))
		}
		short := q
		if len(short) > 40 {
			short = short[:40] + "…"
		}
		fmt.Fprintf(w, "open+search %-44q %d matches, best of 5: %v\n", short, n, best.Round(10*time.Microsecond))
	}

	// The walk belongs to the project's walker (DirSource is project.Walk
	// and project.WalkCached); it is timed alone, without and with the
	// walk cache the cold build left, so the index's own share of a
	// refresh shows.
	t0 := time.Now()
	src.Walk(ctx, func(string, int64, time.Time) error { return nil })
	fmt.Fprintf(w, "walk alone (DirSource, no cache): %v (%.1f%% of cold)\n", time.Since(t0).Round(time.Millisecond), pct(time.Since(t0), cold))
	walk := time.Duration(0)
	if prev, err := os.ReadFile(filepath.Join(idx, "walk.bin")); err == nil {
		t0 = time.Now()
		src.WalkCached(ctx, prev, func(string, int64, time.Time) error { return nil })
		walk = time.Since(t0)
		fmt.Fprintf(w, "walk alone (DirSource, cached): %v (%.1f%% of cold)\n", walk.Round(time.Millisecond), pct(walk, cold))
	}
	c0 = cpuTime()
	st, err = ix.Refresh(ctx, src, nil)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "refresh, nothing changed: %v (%.1f%% of cold; %.1f%% without the walk; cpu %v)\n", st.Duration.Round(time.Millisecond), pct(st.Duration, cold), pct(st.Duration-walk, cold), (cpuTime() - c0).Round(time.Millisecond))

	// Touch one file, then edit one file (restored afterwards).
	var victim string
	src.Walk(ctx, func(rel string, size int64, _ time.Time) error {
		if victim == "" && size > 1000 && filepath.Ext(rel) != "" {
			victim = rel
		}
		return nil
	})
	if victim == "" {
		return nil
	}
	abs := filepath.Join(dir, filepath.FromSlash(victim))
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
	c0 = cpuTime()
	st, err = ix.Refresh(ctx, src, nil)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "refresh after touching %s: %v (%.1f%% of cold; %.1f%% without the walk; cpu %v), reread %d, written %v\n", victim, st.Duration.Round(time.Millisecond), pct(st.Duration, cold), pct(st.Duration-walk, cold), (cpuTime() - c0).Round(time.Millisecond), st.Reread, st.Written)
	if err := os.WriteFile(abs, append(append([]byte{}, orig...), "\n// taskctl bench edit\n"...), fi.Mode()); err != nil {
		return err
	}
	c0 = cpuTime()
	st, err = ix.Refresh(ctx, src, nil)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "refresh after editing it: %v (%.1f%% of cold; %.1f%% without the walk; cpu %v), reread %d, written %v\n", st.Duration.Round(time.Millisecond), pct(st.Duration, cold), pct(st.Duration-walk, cold), (cpuTime() - c0).Round(time.Millisecond), st.Reread, st.Written)
	return nil
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
