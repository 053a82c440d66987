//go:build !linux

package memory

import (
	"context"
	"io/fs"
	"path/filepath"
	"strings"
	"time"
)

// walkCached is the portable walk: filepath.WalkDir, without a cache.
func (d *dirSource) walkCached(ctx context.Context, _ []byte, _ bool, fn func(string, int64, time.Time) error) ([]byte, error) {
	return nil, d.walkDir(ctx, fn)
}

func (d *dirSource) readFast(string) ([]byte, bool, error) { return nil, false, nil }

func (d *dirSource) ReadFileInto(rel string, _ int64, _ []byte) ([]byte, error) {
	return d.ReadFile(rel)
}

func (d *dirSource) walkDir(ctx context.Context, fn func(string, int64, time.Time) error) error {
	pats := readIgnore(filepath.Join(d.root, ".git", "info", "exclude"), nil)
	// stack holds the directories being walked, innermost last; the
	// bottom is the root.
	var stack []*ignoreDir
	return filepath.WalkDir(d.root, func(p string, de fs.DirEntry, err error) error {
		if ctxErr := ctx.Err(); ctxErr != nil {
			return ctxErr
		}
		if err != nil {
			if p == d.root {
				return err
			}
			if de != nil && de.IsDir() {
				return fs.SkipDir
			}
			return nil // one unreadable entry is not a failed walk
		}
		rel, _ := filepath.Rel(d.root, p)
		rel = filepath.ToSlash(rel)
		if rel == "." {
			rel = ""
		}
		// leave directories we have walked out of
		for len(stack) > 0 {
			top := stack[len(stack)-1].rel
			if top == "" || len(rel) > len(top) && rel[len(top)] == '/' && rel[:len(top)] == top {
				break
			}
			stack = stack[:len(stack)-1]
		}
		var parts []string
		if rel != "" {
			parts = strings.Split(rel, "/")
		}
		var parent *ignoreDir
		if len(stack) > 0 {
			parent = stack[len(stack)-1]
			pats = pats[:len(parent.state)]
		}
		if de.IsDir() {
			if rel != "" {
				switch de.Name() {
				case ".git", ".taskctl", "node_modules":
					return fs.SkipDir
				}
				if ignored(pats, parent, parts, true) {
					return fs.SkipDir
				}
			}
			dir := &ignoreDir{rel: rel, state: make([]uint8, len(pats))}
			if parent != nil {
				last := parts[len(parts)-1]
				for k, st := range parent.state {
					pt := &pats[k]
					if pt.glob != nil || len(parts) <= pt.depth {
						continue
					}
					if st == nameNone {
						if ok, err := pt.matchName(last); err != nil {
							st = nameError
						} else if ok {
							st = nameMatched
						}
					}
					dir.state[k] = st
				}
			}
			pats = append(pats, readIgnore(filepath.Join(p, ".gitignore"), parts)...)
			dir.state = append(dir.state, make([]uint8, len(pats)-len(dir.state))...)
			stack = append(stack, dir)
			return nil
		}
		if !de.Type().IsRegular() || ignored(pats, parent, parts, false) {
			return nil
		}
		info, err := de.Info()
		if err != nil {
			return nil
		}
		return fn(rel, info.Size(), info.ModTime())
	})
}
