package memory

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"

	"github.com/taskctl/taskctl/project"
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

// A BufferedSource is a Source that can read a file into a buffer of the
// caller's. Refresh reads each file through one buffer per worker, and so
// allocates (and the kernel zeroes) far less memory on a cold build.
type BufferedSource interface {
	Source
	// ReadFileInto is ReadFile for a file the walk reported size bytes
	// long, reading into buf when it fits in buf's capacity. The result
	// may share buf's array.
	ReadFileInto(rel string, size int64, buf []byte) ([]byte, error)
}

// A CachingSource is a Source whose walk can reuse what an earlier walk
// learnt about the tree. Refresh keeps the state it returns in the index
// directory and hands it back next time.
type CachingSource interface {
	Source
	// WalkCached is Walk given the state an earlier WalkCached returned
	// (nil for none). It returns the state for the next walk, or nil when
	// prev still describes the tree. A state it cannot use (damaged, or
	// from another tree) makes it walk as if it had none; a stale one must
	// never make it miss a change Walk would have seen.
	WalkCached(ctx context.Context, prev []byte, fn func(rel string, size int64, mtime time.Time) error) (next []byte, err error)
}

// DirSource returns a CachingSource over the directory root: it walks the
// tree in lexical order, skips .git, .taskctl and node_modules, honours
// nested .gitignore files and .git/info/exclude (as go-git's gitignore
// matcher does, with ignored directories pruned), and lists only regular
// files. Symbolic links are not followed.
//
// With a walk cache (WalkCached), a directory whose inode, change and
// modification times and ignore files are the ones recorded is not listed
// again; its files are still stat'ed one by one (see walkcache.go).
// Files are read through an os.Root opened on first use and kept open (on
// Linux, with openat2(RESOLVE_BENEATH) from the root first).
func DirSource(root string) CachingSource { return &dirSource{root: root} }

type dirSource struct {
	root string
	once sync.Once
	r    *os.Root
	err  error

	fdOnce sync.Once // the root directory's descriptor (Linux)
	fd     int
	fdErr  error
}

func (d *dirSource) Walk(ctx context.Context, fn func(string, int64, time.Time) error) error {
	_, err := d.walkCached(ctx, nil, false, fn)
	return err
}

func (d *dirSource) WalkCached(ctx context.Context, prev []byte, fn func(string, int64, time.Time) error) ([]byte, error) {
	return d.walkCached(ctx, prev, true, fn)
}

func (d *dirSource) ReadFile(rel string) ([]byte, error) {
	if !filepath.IsLocal(filepath.FromSlash(rel)) {
		return nil, &fs.PathError{Op: "read", Path: rel, Err: fs.ErrInvalid}
	}
	if data, ok, err := d.readFast(rel); ok {
		return data, err
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

// ProjectSource returns the Source of p's files: its walk is p.Walk, so
// the index sees exactly the files the project's policy admits (ignore
// rules, always-excluded directories, sensitive names, the size cap), and
// its reads go through p.ReadInto, which checks each file again and opens
// it below the project dir. It is a CachingSource whose walk cache is
// p.WalkCached's, and a BufferedSource. A binary file (project.File.Binary)
// is an error to read, so the index lists it without indexing it.
//
// The caller keeps p open while the source is in use and closes it after.
func ProjectSource(p *project.Project) CachingSource { return projectSource{p} }

type projectSource struct{ p *project.Project }

func (s projectSource) Walk(ctx context.Context, fn func(rel string, size int64, mtime time.Time) error) error {
	return s.p.Walk(ctx, func(c project.Candidate, info fs.FileInfo) error {
		return fn(c.Rel, info.Size(), info.ModTime())
	})
}

func (s projectSource) WalkCached(ctx context.Context, prev []byte, fn func(rel string, size int64, mtime time.Time) error) ([]byte, error) {
	return s.p.WalkCached(ctx, prev, func(c project.Candidate, info fs.FileInfo) error {
		return fn(c.Rel, info.Size(), info.ModTime())
	})
}

// ReadFile reads a file the walk yielded. The walk gives real paths, so the
// candidate is made directly rather than resolved again: project.Read checks
// a hand-made candidate as fully as one from the resolver (the allowed
// root, the name rules, the file type, the size cap) and opens it below the
// root without following symlinks.
func (s projectSource) ReadFile(rel string) ([]byte, error) { return s.ReadFileInto(rel, -1, nil) }

func (s projectSource) ReadFileInto(rel string, _ int64, buf []byte) ([]byte, error) {
	f, w := s.p.ReadInto(project.Candidate{Path: filepath.Join(s.p.Dir(), filepath.FromSlash(rel)), Rel: rel}, buf)
	if w != nil {
		return nil, w
	}
	if f.Binary {
		return nil, fmt.Errorf("%s: binary file", f.Path)
	}
	return f.Content, nil
}
