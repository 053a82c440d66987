package shellexec

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/taskctl/taskctl/root"
	"mvdan.cc/sh/v3/interp"
)

// projectFS is the only way shellexec reaches files: every access goes
// through the project's confined root (root.Shell), so neither a "..", nor
// an absolute path, nor a symlink can leave it.
type projectFS struct {
	sh      *root.Shell
	rootDir string
	outside outsideLog // what a run tried to read outside the project
	// allowSecrets turns the content policy's secret check off (see
	// judge); secrets logs the files it refused. Both are the root's
	// policy.
	allowSecrets bool
	secrets      refusalLog
	maxFile      int64 // the policy's cap on a file a command is shown
	// content is set once a command has read a file's content (not a
	// listing, not git's own reads): its output may hold that content.
	content atomic.Bool
}

// outsideLog keeps the first paths outside the project a run tried to
// read, once each, so that a refusal is reported even when the command
// goes on and succeeds (echo /*, cat ../x || true).
type outsideLog struct {
	mu    sync.Mutex
	paths []string
}

// maxOutside bounds the paths an outsideLog keeps.
const maxOutside = 10

func (l *outsideLog) add(p string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.paths) < maxOutside && !slices.Contains(l.paths, p) {
		l.paths = append(l.paths, p)
	}
}

func (l *outsideLog) list() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.paths)
}

// relInside reports the root-relative form of the absolute path p and
// whether p lies inside root, comparing path components.
func relInside(root, p string) (string, bool) {
	rel, err := filepath.Rel(root, p)
	if err != nil || !filepath.IsLocal(rel) && rel != "." {
		return "", false
	}
	return rel, true
}

// abs joins name onto dir unless name is absolute.
func abs(dir, name string) string {
	if filepath.IsAbs(name) {
		return filepath.Clean(name)
	}
	return filepath.Join(dir, name)
}

// rel maps name (relative to dir) to a path for the os.Root.
func (f *projectFS) rel(dir, name string) (string, error) {
	a := abs(dir, name)
	r, ok := relInside(f.rootDir, a)
	if !ok {
		f.outside.add(a)
		return "", &fs.PathError{Op: "open", Path: name, Err: errOutside}
	}
	return r, nil
}

// pathErr is the package's pathErr for a path of this file system: a path
// that turns out to lead outside (through a symlink) is logged.
func (f *projectFS) pathErr(op, dir, name string, err error) error {
	e := pathErr(op, name, err)
	if errors.Is(e, errOutside) {
		f.outside.add(abs(dir, name))
	}
	return e
}

func pathErr(op, name string, err error) error { return root.CommandPathError(op, name, err) }

// openFile opens name for reading (see open.go). It refuses anything
// that is neither a regular file nor a directory before opening it, so a
// FIFO or device in the tree can neither block nor stream forever, and
// anything inside .git/ or .taskctl/.
func (f *projectFS) openFile(dir, name string) (*os.File, error) {
	fh, _, err := f.open(dir, name, openOpts{})
	return fh, err
}

// readFile reads a whole regular file in as few syscalls as its size
// allows. The name policy is not asked: git diff hashes what it reads and
// prints none of it. Commands that print content use readContent.
func (f *projectFS) readFile(dir, name string) ([]byte, error) {
	return f.readWith(dir, name, openOpts{})
}

// readContent is readFile for a command that shows what it reads: the
// root's name policy decides, by the name given and by the real path.
func (f *projectFS) readContent(dir, name string) ([]byte, error) {
	return f.readWith(dir, name, openOpts{content: true})
}

// readGitFile reads name (slash-separated, relative to the git directory
// of the worktree at top: "index", "info/exclude") for git's own reads,
// through the root's view of that directory (root.GitDir), the one way
// into .git/: no symbolic link in it followed, nothing outside it. charge,
// if set, is asked for its size first.
func (f *projectFS) readGitFile(top, name string, charge func(int64) error) ([]byte, error) {
	shown := ".git/" + name
	rel, err := f.rel(top, ".git")
	if err != nil {
		return nil, err
	}
	g, err := f.sh.GitDir(rel)
	if err != nil {
		return nil, f.pathErr("open", top, ".git", err)
	}
	fh, err := g.Open(name)
	if err != nil {
		if pe, ok := errors.AsType[*fs.PathError](err); ok {
			err = pe.Err
		}
		return nil, f.pathErr("open", top, shown, err)
	}
	return readCharged(fh, shown, charge)
}

func (f *projectFS) readWith(dir, name string, o openOpts) ([]byte, error) {
	if abs(dir, name) == "/dev/null" {
		return nil, nil
	}
	fh, _, err := f.open(dir, name, o)
	if err != nil {
		return nil, err
	}
	data, err := readCharged(fh, name, o.charge)
	if err == nil && o.content {
		err = f.judge(abs(dir, name), name, data)
	}
	if err != nil {
		return nil, err
	}
	return data, nil
}

// readCharged reads the opened file fh whole and closes it; charge, if
// set, is asked for its size (plus one) before its buffer is allocated.
func readCharged(fh *os.File, name string, charge func(int64) error) ([]byte, error) {
	defer fh.Close()
	if charge != nil {
		fi, err := fh.Stat()
		if err != nil {
			return nil, pathErr("read", name, err)
		}
		if err := charge(fi.Size() + 1); err != nil {
			return nil, &fs.PathError{Op: "read", Path: name, Err: err}
		}
	}
	return readOpened(fh, name, nil)
}

// maxFileBytes bounds one file read into memory.
const maxFileBytes = root.MaxCommandFile

func (f *projectFS) stat(dir, name string) (fs.FileInfo, error) {
	if abs(dir, name) == "/dev/null" {
		return devNullInfo{}, nil
	}
	r, err := f.rel(dir, name)
	if err != nil {
		return nil, err
	}
	fi, err := f.sh.Stat(r)
	if err != nil {
		return nil, f.pathErr("stat", dir, name, err)
	}
	return fi, nil
}

func (f *projectFS) lstat(dir, name string) (fs.FileInfo, error) {
	if abs(dir, name) == "/dev/null" {
		return devNullInfo{}, nil
	}
	r, err := f.rel(dir, name)
	if err != nil {
		return nil, err
	}
	fi, err := f.sh.Lstat(r)
	if err != nil {
		return nil, f.pathErr("lstat", dir, name, err)
	}
	return fi, nil
}

// readDir lists a directory in the order the OS returns it (like GNU
// tools, which do not sort).
func (f *projectFS) readDir(dir, name string) ([]fs.DirEntry, error) {
	fh, err := f.openFile(dir, name)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	ents, err := fh.ReadDir(-1)
	if err != nil {
		return nil, f.pathErr("readdir", dir, name, err)
	}
	return ents, nil
}

// The interpreter's handlers.

type devNull struct{}

func (devNull) Read([]byte) (int, error)    { return 0, io.EOF }
func (devNull) Write(p []byte) (int, error) { return len(p), nil }
func (devNull) Close() error                { return nil }

func (s *session) open(ctx context.Context, path string, flag int, _ os.FileMode) (io.ReadWriteCloser, error) {
	if path == "/dev/null" {
		return devNull{}, nil
	}
	if flag&(os.O_WRONLY|os.O_RDWR|os.O_APPEND|os.O_CREATE|os.O_TRUNC) != 0 {
		return nil, &fs.PathError{Op: "open", Path: path, Err: errors.New("writing is not allowed (read-only)")}
	}
	hc := interp.HandlerCtx(ctx)
	f, _, err := s.fs.open(hc.Dir, path, openOpts{content: true})
	if err != nil {
		return nil, err
	}
	if s.fs.allowSecrets {
		s.fs.content.Store(true)
		return f, nil
	}
	return s.judged(f, hc.Dir, path)
}

// judged reads the file f a redirection opened whole, charged to the
// run's memory budget until it is closed, and hands its bytes to the
// command only once the content policy let them through (see judge).
func (s *session) judged(f *os.File, dir, path string) (io.ReadWriteCloser, error) {
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, pathErr("read", path, err)
	}
	n := fi.Size() + 1
	if err := s.mem.acquire(n); err != nil {
		return nil, &fs.PathError{Op: "read", Path: path, Err: err}
	}
	data, err := readOpened(f, path, nil)
	if err == nil {
		err = s.fs.judge(abs(dir, path), path, data)
	}
	if err != nil {
		s.mem.release(n)
		return nil, err
	}
	return &judgedFile{Reader: bytes.NewReader(data), release: func() { s.mem.release(n) }}, nil
}

// judgedFile is a file's judged content as a redirection reads it.
type judgedFile struct {
	*bytes.Reader
	release func()
	once    sync.Once
}

func (j *judgedFile) Write([]byte) (int, error) {
	return 0, errors.New("writing is not allowed (read-only)")
}
func (j *judgedFile) Close() error {
	j.once.Do(j.release)
	return nil
}

func (s *session) readDir(ctx context.Context, path string) ([]fs.DirEntry, error) {
	hc := interp.HandlerCtx(ctx)
	return s.fs.readDir(hc.Dir, path)
}

func (s *session) stat(ctx context.Context, name string, follow bool) (fs.FileInfo, error) {
	hc := interp.HandlerCtx(ctx)
	if follow {
		return s.fs.stat(hc.Dir, name)
	}
	return s.fs.lstat(hc.Dir, name)
}

func (s *session) access(ctx context.Context, path string, mode interp.AccessMode) error {
	hc := interp.HandlerCtx(ctx)
	if _, err := s.fs.stat(hc.Dir, path); err != nil {
		return err
	}
	if mode&interp.AccessWrite != 0 {
		return &fs.PathError{Op: "access", Path: path, Err: syscall.EACCES}
	}
	return nil
}

func isNotExist(err error) bool { return errors.Is(err, fs.ErrNotExist) }

func readOpened(fh *os.File, shown string, buf []byte) ([]byte, error) {
	return root.ReadOpened(fh, shown, buf)
}

func (f *projectFS) readlink(dir, name string) (string, error) {
	r, err := f.rel(dir, name)
	if err != nil {
		return "", err
	}
	t, err := f.sh.Readlink(r)
	if err != nil {
		return "", f.pathErr("readlink", dir, name, err)
	}
	return t, nil
}

// devNullInfo describes /dev/null, the one path outside the project that
// commands may name: it reads empty.
type devNullInfo struct{}

func (devNullInfo) Name() string       { return "null" }
func (devNullInfo) Size() int64        { return 0 }
func (devNullInfo) Mode() fs.FileMode  { return fs.ModeDevice | fs.ModeCharDevice | 0o666 }
func (devNullInfo) ModTime() time.Time { return time.Time{} }
func (devNullInfo) IsDir() bool        { return false }
func (devNullInfo) Sys() any           { return nil }

func errText(err error) string {
	if pe, ok := err.(*fs.PathError); ok {
		err = pe.Err
	}
	switch {
	case isNotExist(err):
		return "No such file or directory"
	case err == errOutside:
		return "Permission denied (outside the project)"
	}
	if se, ok := err.(*stateError); ok {
		return "Permission denied (" + se.Error() + ")"
	}
	s := err.Error()
	if s == "permission denied" {
		return "Permission denied"
	}
	if s == "not a directory" {
		return "Not a directory"
	}
	return s
}

func joinPath(dir, name string) string {
	switch {
	case dir == "":
		return name
	case strings.HasSuffix(dir, "/"):
		return dir + name
	}
	return dir + "/" + name
}

// newProjectFS is the file system of one run over the root r.
func newProjectFS(r *root.Root) *projectFS {
	sh := r.Shell()
	pol := sh.Policy()
	return &projectFS{sh: sh, rootDir: sh.Dir(), allowSecrets: pol.AllowSecrets, maxFile: pol.MaxFileBytes}
}
