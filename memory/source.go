package memory

import (
	"context"
	"errors"
	"hash/crc32"
	"io/fs"
	"path/filepath"
	"time"

	"github.com/taskctl/taskctl/project"
)

// MaxFileSize is the size above which a file is not indexed (the project
// policy's cap).
const MaxFileSize = 10 << 20

// Source is what the index reads a project through. ProjectSource (and
// DirSource, which opens a project first) implements it over the project
// package's walker and reader.
type Source interface {
	// Walk calls fn for every regular file that should be indexed
	// (not ignored, passing the policy), with its slash-separated path
	// relative to the project root, its size and its modification time.
	// An error returned by fn stops the walk and is returned.
	Walk(ctx context.Context, fn func(rel string, size int64, mtime time.Time) error) error
	// ReadFile returns the content of the file at rel.
	ReadFile(rel string) ([]byte, error)
	// Root is the absolute directory the relative paths are relative to:
	// a warning about a file names it by its absolute path there.
	Root() string
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

// A FilteringSource is a Source whose files are indexed and quoted as
// Filter makes them (the command line's redacts secrets). Refresh decides
// whether a file changed from its content as read, and filters only a file
// it analyses, so that a file touched but not changed costs a read and a
// hash; search filters a file before quoting its best line.
type FilteringSource interface {
	Source
	// Filter returns the text to index for a file's content, nil for
	// content that is not text (the file is listed, not indexed). It
	// may return data itself, or modify it. Refresh calls it from
	// several goroutines at once.
	Filter(data []byte) []byte
	// FilterID names what Filter does, and changes when that changes:
	// a file indexed under another ID is analysed again.
	FilterID() string
}

// filter is src's Filter of data, or data.
func filter(src Source, data []byte) []byte {
	if f, ok := src.(FilteringSource); ok {
		return f.Filter(data)
	}
	return data
}

// filterSum is what an index records of src's filter and of the analysis:
// the CRC-32C of analysisID and src's FilterID. An index recorded with
// another (written by an older taskctl, or through another filter) has
// nothing to reuse: every file is analysed again.
func filterSum(src Source) uint32 {
	id := analysisID
	if f, ok := src.(FilteringSource); ok {
		id += "\x00" + f.FilterID()
	}
	return max(crc32.Checksum([]byte(id), crc32.MakeTable(crc32.Castagnoli)), 1)
}

// analysisID changes when what the index makes of a file's text changes,
// so that an index an older taskctl wrote is analysed again by the next
// Refresh (quietly: it is no damage, see filterSum). It ends with the
// first eight digits of goldenIndexHash (golden_test.go; TestIndexGolden
// checks), so a change to the analysis that changes the golden index
// cannot land without a new analysisID. 2: lock files are indexed by path
// and name only; 3: definitions of Dart, Swift, Lua, Haskell, Elixir,
// Erlang, Julia, OCaml, Zig, R, Objective-C, Kotlin, Scala and C# (and
// every change to the analysis between 2 and 3 that did not say so); 4:
// headers over several lines (a class's members keep its name), Dart's
// record returns and getters, Elixir's defimpl.
const analysisID = "analysis 4 49d9a81e"

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

// ErrBinary is what a Source's read returns for a binary file: the index
// lists the file without indexing it, as it does one whose content a
// FilteringSource finds no text in, and warns of no error.
var ErrBinary = errors.New("binary file")

// walkFile is the name of the walk cache in the index directory.
const walkFile = "walk.bin"

// ProjectSource returns the Source of p's files: its walk is p.Walk, so
// the index sees exactly the files the project's policy admits (ignore
// rules, always-excluded directories, sensitive names, the size cap), and
// its reads go through p.ReadInto, which checks each file again and opens
// it below the project dir. It is a CachingSource whose walk cache is
// p.WalkCached's, and a BufferedSource. A binary file (root.File.Binary)
// reads as ErrBinary, and the index lists it without indexing it.
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
// candidate is made directly rather than resolved again: root.Root.Read checks
// a hand-made candidate as fully as one from the resolver (the allowed
// root, the name rules, the file type, the size cap) and opens it below the
// root without following symlinks.
func (s projectSource) Root() string { return s.p.Dir() }

func (s projectSource) ReadFile(rel string) ([]byte, error) { return s.ReadFileInto(rel, -1, nil) }

func (s projectSource) ReadFileInto(rel string, _ int64, buf []byte) ([]byte, error) {
	f, w := s.p.Confined().ReadInto(filepath.Join(s.p.Dir(), filepath.FromSlash(rel)), buf)
	if w != nil {
		return nil, w
	}
	if f.Binary {
		return nil, ErrBinary
	}
	return f.Content, nil
}

// Head returns the commit the project's own git directory (.git at its
// root, a directory) is at: "" when there is none. The history is read
// with go-git (see GitLog) through the project's root, by its view of
// .git (root.GitDir), the one way into .git: not through the project's
// reads, which never enter it.
func (s projectSource) Head() (string, error) {
	g, done := s.gitLog()
	if g == nil {
		return "", nil
	}
	defer done()
	return g.Head()
}

// Log lists the commits reachable from head (see HistorySource).
func (s projectSource) Log(ctx context.Context, head, since string, fn func(LogCommit) (bool, error)) (bool, error) {
	g, done := s.gitLog()
	if g == nil {
		return false, nil
	}
	defer done()
	return g.Log(ctx, head, since, fn)
}

// gitLog opens the log of the project's .git directory, nil when it has
// none that git could read (none at all, a file naming a worktree's
// directory elsewhere, a symbolic link).
func (s projectSource) gitLog() (*GitLog, func()) {
	r := s.p.Confined()
	dir, err := r.GitDir(filepath.Join(r.Dir(), ".git"))
	if err != nil {
		return nil, nil
	}
	g, err := OpenGitLog(dir)
	if err != nil {
		return nil, nil
	}
	return g, func() { g.Close() }
}

// DirSource returns ProjectSource over the project opened at root with
// the default policy (project.Open; root is the project dir, marker or not,
// and the working dir): a convenience for tests, benchmarks and tools that
// index a directory outside the command line. The project stays open for
// the life of the program. If it cannot be opened, every method of the
// source returns that error.
func DirSource(root string) CachingSource {
	p, err := project.Open(project.Options{WorkingDir: root, ProjectDir: root})
	if err != nil {
		return errSource{err}
	}
	return ProjectSource(p)
}

// errSource is a Source that cannot be walked or read.
type errSource struct{ err error }

func (s errSource) Walk(context.Context, func(string, int64, time.Time) error) error { return s.err }

func (s errSource) WalkCached(context.Context, []byte, func(string, int64, time.Time) error) ([]byte, error) {
	return nil, s.err
}

func (s errSource) ReadFile(string) ([]byte, error) { return nil, s.err }

func (s errSource) Root() string { return "" }
