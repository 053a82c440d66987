package memory

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
)

// MaxFileSize is the size above which a file is not indexed (the project
// policy's cap).
const MaxFileSize = 10 << 20

// Source is what the index reads a project through. The project package's
// walker implements it in production; DirSource implements it for tests and
// benchmarks.
type Source interface {
	// Walk calls fn for every regular file that should be indexed
	// (not ignored, passing the policy), with its slash-separated path
	// relative to the project root, its size and its modification time.
	// An error returned by fn stops the walk and is returned.
	Walk(ctx context.Context, fn func(rel string, size int64, mtime time.Time) error) error
	// ReadFile returns the content of the file at rel.
	ReadFile(rel string) ([]byte, error)
}

// DirSource returns a Source over the directory root: it walks with
// filepath.WalkDir, skips .git, .taskctl and node_modules, honours nested
// .gitignore files and .git/info/exclude (go-git's gitignore matcher, with
// ignored directories pruned), and lists only regular files. Symbolic links
// are not followed.
// Files are read through an os.Root opened on first use and kept open.
func DirSource(root string) Source { return &dirSource{root: root} }

type dirSource struct {
	root string
	once sync.Once
	r    *os.Root
	err  error
}

func (d *dirSource) ReadFile(rel string) ([]byte, error) {
	if !filepath.IsLocal(filepath.FromSlash(rel)) {
		return nil, &fs.PathError{Op: "read", Path: rel, Err: fs.ErrInvalid}
	}
	d.once.Do(func() { d.r, d.err = os.OpenRoot(d.root) })
	if d.err != nil {
		return nil, d.err
	}
	f, err := d.r.Open(filepath.FromSlash(rel))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() && fi.Size() <= MaxFileSize {
		buf := make([]byte, fi.Size()+1)
		n, err := io.ReadFull(f, buf)
		if err == io.ErrUnexpectedEOF || err == io.EOF {
			return buf[:n], nil
		}
		if err != nil {
			return nil, err
		}
		// grew while reading
	}
	return io.ReadAll(io.LimitReader(f, MaxFileSize+1))
}

func (d *dirSource) Walk(ctx context.Context, fn func(string, int64, time.Time) error) error {
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

// ignorePattern is one line of a .gitignore (or .git/info/exclude) file,
// parsed as go-git's gitignore.ParsePattern parses it. A pattern with a
// slash is matched by go-git itself (glob); a simple name pattern, which
// go-git matches against every component of the path below its domain, is
// matched here against one component at a time, each directory keeping
// the outcome for its own path, so that a walk does not match every
// pattern against every ancestor of every file again.
type ignorePattern struct {
	glob gitignore.Pattern // non-nil: a pattern with a slash
	name string
	// name as literal prefix and suffix around one star (star set), or a
	// literal (star unset), when it has that form; else nameOther
	form           uint8
	prefix, suffix string
	depth          int // components in the pattern's domain (the .gitignore's directory)
	dirOnly        bool
	inclusion      bool
}

// ignoreDir is a directory being walked: state[k] is what go-git's
// simple-name match of pattern k found over the directory's path below the
// pattern's domain, scanning components in order.
type ignoreDir struct {
	rel   string
	state []uint8
}

const (
	nameNone    = iota // no component matched
	nameMatched        // a component matched: the pattern matches everything below
	nameError          // filepath.Match failed on a component first: it never matches below
)

func (d *ignoreDir) stateOf(k int) uint8 {
	if d == nil || k >= len(d.state) {
		return nameNone
	}
	return d.state[k]
}

func parseIgnore(line string, domain []string) ignorePattern {
	pt := ignorePattern{depth: len(domain)}
	p := line
	if strings.HasPrefix(p, "!") {
		pt.inclusion = true
		p = p[1:]
	}
	if !strings.HasSuffix(p, "\\ ") {
		p = strings.TrimRight(p, " ")
	}
	if strings.HasSuffix(p, "/") {
		pt.dirOnly = true
		p = p[:len(p)-1]
	}
	if strings.Contains(p, "/") {
		pt.glob = gitignore.ParsePattern(line, domain)
	}
	pt.name = p
	pt.form = nameOther
	if !strings.ContainsAny(p, "?[\\") {
		switch strings.Count(p, "*") {
		case 0:
			pt.form, pt.prefix = nameLiteral, p
		case 1:
			pt.form = nameStar
			pt.prefix, pt.suffix, _ = strings.Cut(p, "*")
		}
	}
	return pt
}

// Forms of a simple name pattern, for which filepath.Match reduces to
// string comparisons (a path component holds no separator).
const (
	nameOther   = iota
	nameLiteral // name == prefix
	nameStar    // prefix, anything, suffix
)

// matchName is filepath.Match(pt.name, name) for a path component.
func (pt *ignorePattern) matchName(name string) (bool, error) {
	switch pt.form {
	case nameLiteral:
		return name == pt.prefix, nil
	case nameStar:
		return len(name) >= len(pt.prefix)+len(pt.suffix) && strings.HasPrefix(name, pt.prefix) && strings.HasSuffix(name, pt.suffix), nil
	}
	return filepath.Match(pt.name, name)
}

// ignored reports whether go-git's gitignore matcher over pats would
// exclude the entry at parts, whose parent directory is dir.
func ignored(pats []ignorePattern, dir *ignoreDir, parts []string, isDir bool) bool {
	last := ""
	if len(parts) > 0 {
		last = parts[len(parts)-1]
	}
	for k := len(pats) - 1; k >= 0; k-- {
		pt := &pats[k]
		if len(parts) <= pt.depth {
			continue
		}
		if pt.glob != nil {
			if r := pt.glob.Match(parts, isDir); r > gitignore.NoMatch {
				return r == gitignore.Exclude
			}
			continue
		}
		var m bool
		if st := dir.stateOf(k); st != nameNone {
			m = st == nameMatched
		} else {
			ok, err := pt.matchName(last)
			m = err == nil && ok && !(pt.dirOnly && !isDir)
		}
		if m {
			return !pt.inclusion
		}
	}
	return false
}

func readIgnore(name string, domain []string) []ignorePattern {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil
	}
	var ps []ignorePattern
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), "\r")
		if strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "" {
			continue
		}
		ps = append(ps, parseIgnore(line, domain))
	}
	return ps
}
