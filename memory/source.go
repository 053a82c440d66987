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
	var patterns []gitignore.Pattern
	patterns = append(patterns, readIgnore(filepath.Join(d.root, ".git", "info", "exclude"), nil)...)
	type level struct {
		dir string // slash rel path of the directory
		n   int    // len(patterns) before the directory's .gitignore was added
	}
	var stack []level
	matcher := gitignore.NewMatcher(patterns)
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
		for len(stack) > 0 && !(rel == stack[len(stack)-1].dir || strings.HasPrefix(rel, stack[len(stack)-1].dir+"/") || stack[len(stack)-1].dir == "") {
			patterns = patterns[:stack[len(stack)-1].n]
			stack = stack[:len(stack)-1]
			matcher = gitignore.NewMatcher(patterns)
		}
		var parts []string
		if rel != "" {
			parts = strings.Split(rel, "/")
		}
		if de.IsDir() {
			if rel != "" {
				switch de.Name() {
				case ".git", ".taskctl", "node_modules":
					return fs.SkipDir
				}
				if matcher.Match(parts, true) {
					return fs.SkipDir
				}
			}
			if ps := readIgnore(filepath.Join(p, ".gitignore"), parts); len(ps) > 0 {
				stack = append(stack, level{dir: rel, n: len(patterns)})
				patterns = append(patterns, ps...)
				matcher = gitignore.NewMatcher(patterns)
			}
			return nil
		}
		if !de.Type().IsRegular() || matcher.Match(parts, false) {
			return nil
		}
		info, err := de.Info()
		if err != nil {
			return nil
		}
		return fn(rel, info.Size(), info.ModTime())
	})
}

func readIgnore(name string, domain []string) []gitignore.Pattern {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil
	}
	var ps []gitignore.Pattern
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), "\r")
		if strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "" {
			continue
		}
		ps = append(ps, gitignore.ParsePattern(line, domain))
	}
	return ps
}
