package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/taskctl/taskctl/memory"
)

// blob is one file of a git tree.
type blob struct {
	rel  string
	id   string // object name
	size int64
}

// treeSource is a memory.Source over a commit's tree, read through git
// itself: the tree at a commit is what a checkout of it would contain, so
// no work tree needs to be written. Its "modification time" is derived from
// the blob's object name, so the index sees a file as changed exactly when
// its content changed. It remembers what it read, so that the baseline,
// which reads the same changed files after the index, does not ask git for
// them again; each reader gets its own copy.
type treeSource struct {
	files []blob
	byRel map[string]*blob
	cat   *catFile
	mu    sync.Mutex
	read  map[string][]byte // object name → content

	// the history the index learns from (memory.HistorySource): the
	// commits before head, read from the repository by go-git as the
	// command line reads a project's .git; nil for none
	log  *memory.GitLog
	head string
	skip string // a subject whose commits are left out (the query's own)
}

// Head is the commit the tree is at: the history is what came before it.
func (s *treeSource) Head() (string, error) {
	if s.log == nil {
		return "", nil
	}
	return s.head, nil
}

// Log lists the commits before the tree, leaving out those whose subject
// is the query's: a change cherry-picked to another branch is the same
// change, and its message would name the answer.
func (s *treeSource) Log(ctx context.Context, head, since string, fn func(memory.LogCommit) (bool, error)) (bool, error) {
	if s.log == nil {
		return false, nil
	}
	if s.skip != "" {
		since = "" // the commits listed before may hold the query's own
	}
	return s.log.Log(ctx, head, since, func(c memory.LogCommit) (bool, error) {
		if s.skip != "" && subjectOf(c.Message) == s.skip {
			return true, nil
		}
		return fn(c)
	})
}

// subjectOf is the first line of a commit message, trimmed.
func subjectOf(msg string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(msg), "\n")
	return strings.TrimSpace(line)
}

// listTree lists the files of commit's tree. A blob the repository lacks
// (a snapshot may leave out the largest) is left out of the list and
// counted in missing: the tree is what a checkout around it would hold.
func listTree(repo, commit string) (files []blob, missing int, err error) {
	out, err := exec.Command("git", "-C", repo, "ls-tree", "-r", "-l", "-z", "--full-tree", commit).Output()
	if err != nil {
		return nil, 0, fmt.Errorf("git ls-tree %s: %w", commit, err)
	}
	for _, rec := range bytes.Split(out, []byte{0}) {
		// <mode> SP <type> SP <object> SP+ <size> TAB <path>; the size
		// of a missing blob is "BAD".
		tab := bytes.IndexByte(rec, '\t')
		if tab < 0 {
			continue
		}
		meta := bytes.Fields(rec[:tab])
		if len(meta) != 4 || string(meta[1]) != "blob" || string(meta[0]) == "120000" {
			continue
		}
		size, err := strconv.ParseInt(string(meta[3]), 10, 64)
		if err != nil {
			missing++
			continue
		}
		files = append(files, blob{rel: string(rec[tab+1:]), id: string(meta[2]), size: size})
	}
	return files, missing, nil
}

func newTreeSource(files []blob, cat *catFile) *treeSource {
	s := &treeSource{files: files, byRel: make(map[string]*blob, len(files)), cat: cat, read: map[string][]byte{}}
	for i := range files {
		s.byRel[files[i].rel] = &files[i]
	}
	return s
}

// Root is the repository's directory, where a checkout of the commit
// would put the files.
func (s *treeSource) Root() string { return s.cat.repo }

func (s *treeSource) Walk(ctx context.Context, fn func(string, int64, time.Time) error) error {
	for _, f := range s.files {
		if err := ctx.Err(); err != nil {
			return err
		}
		id, _ := hex.DecodeString(f.id)
		var ns int64
		if len(id) >= 8 {
			ns = int64(binary.LittleEndian.Uint64(id) >> 2)
		}
		if err := fn(f.rel, f.size, time.Unix(0, ns)); err != nil {
			return err
		}
	}
	return nil
}

func (s *treeSource) ReadFile(rel string) ([]byte, error) {
	b, ok := s.byRel[rel]
	if !ok {
		return nil, fmt.Errorf("%s: not in tree", rel)
	}
	s.mu.Lock()
	data, ok := s.read[b.id]
	s.mu.Unlock()
	if !ok {
		var err error
		if data, err = s.cat.read(b.id); err != nil {
			return nil, err
		}
		s.mu.Lock()
		s.read[b.id] = data
		s.mu.Unlock()
	}
	return bytes.Clone(data), nil
}

var _ memory.Source = (*treeSource)(nil)

// catFile serves blobs from one long-running "git cat-file --batch".
type catFile struct {
	mu  sync.Mutex
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Reader

	repo string // the repository's directory
}

func newCatFile(repo string) (*catFile, error) {
	cmd := exec.Command("git", "-C", repo, "cat-file", "--batch")
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	return &catFile{repo: repo, cmd: cmd, in: in, out: bufio.NewReaderSize(out, 1<<20)}, nil
}

func (c *catFile) read(id string) ([]byte, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, err := io.WriteString(c.in, id+"\n"); err != nil {
		return nil, err
	}
	line, err := c.out.ReadString('\n')
	if err != nil {
		return nil, err
	}
	f := bytes.Fields([]byte(line))
	if len(f) != 3 {
		return nil, fmt.Errorf("cat-file %s: %s", id, bytes.TrimSpace([]byte(line)))
	}
	n, err := strconv.Atoi(string(f[2]))
	if err != nil {
		return nil, err
	}
	data := make([]byte, n+1)
	if _, err := io.ReadFull(c.out, data); err != nil {
		return nil, err
	}
	return data[:n], nil
}

func (c *catFile) close() {
	c.in.Close()
	c.cmd.Wait()
}
