package shellexec

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"sync"
)

// DefaultMaxMemory is Config.MaxMemory's default: one file of the largest
// size a command may read whole.
const DefaultMaxMemory = maxFileBytes

// errMemory stops a run that would pass its memory budget.
var errMemory = errors.New("memory budget exceeded")

// memBudget is what a run may hold in memory at once (#21 point 5). A
// command charges what it is about to hold before it allocates it, and
// gives it back when it ends: the files and the standard input it reads
// whole, the arguments its expansion made. The output of a run and of each
// $(...) is bounded by the output budget instead ($(<file) included: the
// vetter makes it $(cat <file)); a pipe holds one command's write buffer.
type memBudget struct {
	mu     sync.Mutex
	max    int64
	used   int64
	peak   int64
	cancel context.CancelCauseFunc
}

// acquire charges n bytes, or stops the run when they do not fit.
func (m *memBudget) acquire(n int64) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if n > m.max-m.used {
		m.cancel(errMemory)
		return fmt.Errorf("%w (%d bytes in use, %d more asked, the budget is %d)", errMemory, m.used, n, m.max)
	}
	m.used += n
	m.peak = max(m.peak, m.used)
	return nil
}

// available is what the budget has left.
func (m *memBudget) available() int64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	return max(m.max-m.used, 0)
}

func (m *memBudget) release(n int64) {
	m.mu.Lock()
	m.used -= n
	m.mu.Unlock()
}

// charge charges n bytes to the run's budget on behalf of c; they are
// given back when c ends.
func (c *cmd) charge(n int64) error {
	if n <= 0 {
		return nil
	}
	if err := c.s.mem.acquire(n); err != nil {
		return err
	}
	c.held += n
	return nil
}

// available is what the run's memory budget has left for c (everything,
// for a command outside a run).
func (c *cmd) available() int64 {
	if c.s == nil {
		return math.MaxInt64
	}
	return c.s.mem.available()
}

// uncharge gives back n bytes c charged (a file read whole and done with).
func (c *cmd) uncharge(n int64) {
	n = min(n, c.held)
	c.s.mem.release(n)
	c.held -= n
}

// releaseAll gives back what c charged.
func (c *cmd) releaseAll() {
	c.s.mem.release(c.held)
	c.held = 0
}

// readStdin reads c's standard input whole, charging it as it comes.
func (c *cmd) readStdin() ([]byte, error) {
	return readAllLimited(chargingReader{c: c, r: c.stdin}, maxFileBytes)
}

// chargingReader charges what it reads to c's budget.
type chargingReader struct {
	c *cmd
	r io.Reader
}

func (r chargingReader) Read(p []byte) (int, error) {
	n, err := r.r.Read(p)
	if cerr := r.c.charge(int64(n)); cerr != nil {
		return 0, cerr
	}
	return n, err
}
