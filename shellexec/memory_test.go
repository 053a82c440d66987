package shellexec_test

import (
	"runtime"
	"strings"
	"testing"

	"github.com/taskctl/taskctl/internal/diag"
)

// TestMemoryBudget: one memory budget per run covers every expansion and
// buffer (#21 point 5). $(<file) counts against the output cap like any
// $(...) (it bypassed it: echo "$(<5MB)" | wc -c printed 5000001), a file
// a command reads into memory is charged before it is read, and a run
// that would pass the budget stops with COMMAND_MEMORY_EXCEEDED. Memory is
// asserted on what the process allocated, never on time.
func TestMemoryBudget(t *testing.T) {
	_, cfg := project(t, map[string]string{
		"big.txt":   strings.Repeat("0123456789abcdef\n", 5000000/17),
		"small.txt": "hello\n",
	})
	cfg.MaxStdoutBytes = 1 << 20
	cfg.MaxMemory = 1 << 20

	// $(<file) is capped like $(cat file).
	res, err := run(t, `echo "$(<big.txt)" | wc -c`, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(res.Stdout), "5000") || !res.Truncated && !res.MemoryExceeded {
		t.Errorf(`echo "$(<big.txt)" | wc -c: %q, truncated %v, memory %v; want it stopped`, res.Stdout, res.Truncated, res.MemoryExceeded)
	}

	// Reading a file larger than the budget into memory is refused with
	// the memory code, before its bytes are allocated.
	for _, script := range []string{"cat big.txt | wc -c", "sort big.txt | head -1", "tr a b < big.txt | wc -l", "grep -c zzz big.txt"} {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		res, err := run(t, script, cfg)
		runtime.ReadMemStats(&after)
		if err != nil {
			t.Fatal(err)
		}
		if !res.MemoryExceeded || !hasCode(res.Warnings(), diag.CommandMemoryExceeded) {
			t.Errorf("%s: memory exceeded %v, warnings %+v; want COMMAND_MEMORY_EXCEEDED", script, res.MemoryExceeded, res.Warnings())
		}
		if got := after.TotalAlloc - before.TotalAlloc; got > 4<<20 {
			t.Errorf("%s: allocated %d bytes under a 1 MiB budget (the file is 5 MB)", script, got)
		}
	}

	// Twenty $(<big) in one command: stopped at the first, a few MB in all.
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	res, _ = run(t, "echo"+strings.Repeat(` "$(<big.txt)"`, 20)+" | wc -c", cfg)
	runtime.ReadMemStats(&after)
	if got := after.TotalAlloc - before.TotalAlloc; got > 16<<20 {
		t.Errorf("twenty $(<big.txt): allocated %d bytes (the file is 5 MB, the budget 1 MiB)", got)
	}
	if res == nil || strings.Contains(string(res.Stdout), "000000") {
		t.Errorf("twenty $(<big.txt): %+v", res)
	}

	// Within the budget, everything works.
	res, err = run(t, `echo "$(<small.txt)"; cat small.txt | sort | uniq -c | wc -l`, cfg)
	if err != nil || string(res.Stdout) != "hello\n1\n" || res.MemoryExceeded {
		t.Errorf("small: %v %q %v", err, res.Stdout, res.MemoryExceeded)
	}
}

func hasCode(ws []diag.Warning, code diag.Code) bool {
	for _, w := range ws {
		if w.Code == code {
			return true
		}
	}
	return false
}
