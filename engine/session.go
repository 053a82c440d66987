package engine

import (
	"context"
	"errors"
)

// An Engine serves one operation of the CLI; the MCP server keeps one open
// for a whole session and runs many operations on it, one at a time. The
// index it opened then stays open (a warm index), and a watch of the tree
// says when it must be refreshed.

// StartSession prepares e for many operations: it opens the project and,
// where the kernel can (Linux's inotify), watches its tree, so that
// SyncChanges forgets the open index only when a file changed.
// Without a watch, SyncChanges forgets it every time, as each CLI
// command does.
func (e *Engine) StartSession(ctx context.Context) error {
	p, err := e.Project()
	if err != nil {
		return err
	}
	if w, err := p.Watch(); err == nil {
		e.changes = w
		if _, err := w.Sync(ctx); err != nil {
			w.Close()
			e.changes = nil
		}
	}
	return nil
}

// SyncChanges makes the next operation that needs the index see the tree
// as it is now: it forgets the open index when the watch saw a change (or
// there is no watch), so that the next use refreshes it.
func (e *Engine) SyncChanges(ctx context.Context) {
	if e.ix == nil {
		return
	}
	if e.changes != nil {
		changed, err := e.changes.Sync(ctx)
		if err == nil && !changed {
			return
		}
	}
	e.ix = nil
	e.watched = false
	if e.proj != nil {
		e.proj.Reload()
	}
}

// Close closes what the engine holds open: the watch and the project.
func (e *Engine) Close() error {
	var errs []error
	if e.changes != nil {
		errs = append(errs, e.changes.Close())
		e.changes = nil
	}
	if e.proj != nil {
		errs = append(errs, e.proj.Close())
		e.proj, e.fs = nil, nil
	}
	e.ix = nil
	return errors.Join(errs...)
}
