package shellexec_test

import (
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestMemoryBudgetOutputGrowth: what a command builds (sed's pattern and
// hold spaces, its substitutions, grep -o's matches) counts against the
// run's memory budget like what it reads (#30 point 6). On an 8 MiB line
// sed "s/a/<512 &>/g" took 3.7 GB and ended in "fatal error: out of
// memory"; here a 256 KiB line and a 16 MiB budget: each script stops with
// COMMAND_MEMORY_EXCEEDED (or its output cap) having allocated a small
// multiple of the budget, never the hundreds of MB it would build. (What
// was allocated is not compared under the race detector: see raceEnabled.)
func TestMemoryBudgetOutputGrowth(t *testing.T) {
	_, cfg := project(t, map[string]string{
		"line.txt":  strings.Repeat("a", 256<<10) + "\n",
		"lines.txt": strings.Repeat("ab\n", 64<<10),
	})
	cfg.MaxMemory = 16 << 20
	// (Under the race detector on a busy machine a match of a 256 KiB line
	// takes seconds: the time limit must not be what stops a script.)
	cfg.Timeout = 5 * time.Minute
	cfg.MaxStdoutBytes = 1 << 40 // (the output cap is not what stops them)
	cfg.MaxStdoutLines = 1 << 40
	wide := "<" + strings.Repeat("x", 512) + " &>"
	for _, script := range []string{
		`sed "s/a/` + wide + `/g" line.txt | wc -c`,
		`sed "s/a/aa/g" line.txt | sed "s/a/` + wide + `/g" | wc -c`,
		`sed -n "H;G;H" lines.txt | wc -c`,
		`sed "N;N;N;N;N;N;N;N;N;N;N;N;N;N;N;N;s/a/` + wide + `/g" lines.txt | wc -c`,
	} {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		res, err := run(t, script, cfg)
		runtime.ReadMemStats(&after)
		if err != nil {
			t.Fatalf("%s: %v", script, err)
		}
		if !res.MemoryExceeded || res.TimedOut {
			t.Errorf("%s: not stopped by the memory budget (printed %q)", script, res.Stdout)
		}
		if got := after.TotalAlloc - before.TotalAlloc; got > 96<<20 && !raceEnabled {
			t.Errorf("%s: allocated %d MB under a 16 MiB budget", script, got>>20)
		}
	}

	// grep -o hands its matches over one by one: of a line of 256 Ki
	// matches, it finds what the output cap lets it print, and stops (it
	// collected them all first).
	cfg.MaxStdoutBytes, cfg.MaxStdoutLines = 1<<20, 1000
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	res, err := run(t, `grep -o -E "a|aa|aaa" line.txt`, cfg)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 8<<20 && !raceEnabled {
		t.Errorf("grep -o: allocated %d MB for a 256 KiB line (truncated %v)", got>>20, res.Truncated)
	}
}
