package main

import (
	"context"
	"fmt"
	"os"
	"sync/atomic"
	"time"

	"github.com/spf13/pflag"
	"github.com/taskctl/taskctl/engine"
	"golang.org/x/term"
)

func indexCmd() *command {
	return &command{
		name:  "index",
		usage: "[--rebuild] [--stats] [--watch]",
		short: "build or refresh the lexical index under .taskctl/index/",
		long: `Builds the index on first use and refreshes it incrementally afterwards:
unchanged files are not re-read, deleted files leave, renamed files move.
--rebuild starts from scratch. Reports files, terms, bytes and time.

--watch (Linux) then stays running: it follows changes through inotify,
keeps the index current, and answers the refresh that index, search and
assemble make before reading it, so that these no longer stat every file
of the project. Stop it with Ctrl-C.`,
		examples: []string{"taskctl index", "taskctl index --rebuild --stats --output json", "taskctl index --watch &"},
		flags: func(fs *pflag.FlagSet, o *opts) {
			fs.BoolVar(&o.rebuild, "rebuild", false, "discard the index and build it from scratch")
			fs.BoolVar(&o.stats, "stats", false, "also report what was re-read, reused, removed and skipped")
			fs.BoolVar(&o.watch, "watch", false, "keep the index current until interrupted, answering other commands' refreshes")
		},
		run: func(ctx context.Context, e *env, args []string) (any, error) {
			if len(args) > 0 {
				return nil, usageErr("index takes no arguments")
			}
			if e.opts.watch {
				return e.eng.Watch(ctx, engine.WatchRequest{Rebuild: e.opts.rebuild,
					Log: func(line string) { fmt.Fprintf(e.stderr, "taskctl: %s\n", line) }})
			}
			res, err := e.eng.RefreshIndex(ctx, engine.IndexRequest{Rebuild: e.opts.rebuild, Stats: e.opts.stats})
			if err != nil {
				return nil, err
			}
			e.warn(res.Warnings)
			if !e.json() {
				st := res.Stats
				fmt.Fprintf(e.stdout, "files: %d\nterms: %d\nbytes: %d\ntime:  %s\n", st.Files, st.Terms, st.Bytes,
					st.Duration.Round(time.Millisecond))
				if res.Watched {
					fmt.Fprintf(e.stdout, "refreshed by the watcher (index --watch)\n")
				}
				if e.opts.stats {
					fmt.Fprintf(e.stdout, "reread: %d\nreused: %d\nremoved: %d\nskipped: %d\nindex_bytes: %d\n",
						st.Reread, st.Reused, st.Removed, st.Skipped, st.IndexBytes)
				}
			}
			return res, nil
		},
	}
}

// progress returns a progress callback that draws on stderr once indexing
// has taken more than a second, if stderr is a terminal.
func (e *env) progress() func(done, total int) {
	f, ok := e.stderr.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) || e.json() {
		return nil
	}
	start := time.Now()
	var last atomic.Int64
	return func(done, total int) {
		now := time.Since(start)
		if now < time.Second {
			return
		}
		if ms := now.Milliseconds(); ms-last.Load() < 100 && done != total {
			return
		} else {
			last.Store(ms)
		}
		fmt.Fprintf(f, "\rindexing %d/%d files", done, total)
		if done == total {
			fmt.Fprint(f, "\n")
		}
	}
}
