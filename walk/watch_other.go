//go:build !linux

package walk

import (
	"context"
	"errors"
	"io/fs"
)

// ErrWatchUnsupported is what Watch returns where the kernel's change
// notifications are not used (every system but Linux).
var ErrWatchUnsupported = errors.New("watching a tree for changes is supported on Linux only")

// A Watcher keeps what Walk yields current from the kernel's change
// notifications; on this system Watch returns ErrWatchUnsupported.
type Watcher struct{}

// Watch returns ErrWatchUnsupported.
func Watch(*Tree) (*Watcher, error) { return nil, ErrWatchUnsupported }

func (w *Watcher) Close() error { return nil }

func (w *Watcher) Wait(context.Context) error { return ErrWatchUnsupported }

func (w *Watcher) Sync(context.Context) (bool, error) { return false, ErrWatchUnsupported }

func (w *Watcher) Walk(context.Context, func(Candidate, fs.FileInfo) error) error {
	return ErrWatchUnsupported
}

func (w *Watcher) Len() (dirs, files int) { return 0, 0 }

func (w *Watcher) Unwatched() int { return 0 }
