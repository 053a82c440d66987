package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/taskctl/taskctl/memory"
	"github.com/taskctl/taskctl/root"
)

// rankers holds both rankers' state for one repository: taskctl's index,
// kept in a temporary directory as the command line keeps it under
// .taskctl/index/, and the plain BM25 baseline. Moving them from one commit
// to another re-reads only the blobs that differ, so queries against
// nearby commits share most of the work.
type rankers struct {
	repo     string // git directory or working tree
	ix       *memory.Index
	plain    *plainBM25
	dir      string
	cat      *catFile
	files    memory.Source  // the working tree's, opened once (it keeps a project open)
	commit   string         // the commit both rankers hold; "" for none yet
	tree     []blob         // its files
	missing  int            // blobs of that tree the repository lacks, left out
	log      *memory.GitLog // the repository's history, nil without (-no-history)
	logDir   *root.Root
	triedLog bool
	skip     string // the subject of the query at commit, left out of the history
}

// noHistory turns off the history the index learns from (-no-history).
var noHistory bool

// history opens the repository's log, which the index reads the commits
// before each tree from, as the command line reads a project's .git.
func (r *rankers) history() *memory.GitLog {
	if noHistory || r.log != nil || r.triedLog {
		return r.log
	}
	r.triedLog = true
	for _, d := range []string{r.repo, filepath.Join(r.repo, ".git")} { // bare, or a clone's
		d, err := filepath.Abs(d)
		if err == nil {
			d, err = filepath.EvalSymlinks(d) // the root takes real paths
		}
		if err != nil {
			continue
		}
		dir, err := root.Open([]string{d}, root.Policy{})
		if err != nil {
			continue
		}
		g, err := dir.GitDir(d)
		if err == nil {
			r.log, err = memory.OpenGitLog(g)
		}
		if err != nil {
			dir.Close()
			r.log = nil
			continue
		}
		r.logDir = dir
		break
	}
	return r.log
}

// treeSource returns the source of files at commit, with the history
// before it.
func (r *rankers) treeSource(files []blob, commit string) *treeSource {
	s := newTreeSource(files, r.cat)
	if commit != "" {
		s.log, s.head, s.skip = r.history(), commit, r.skip
	}
	return s
}

func newRankers(repo string) (*rankers, error) {
	dir, err := os.MkdirTemp("", "taskctl-bench-index-")
	if err != nil {
		return nil, err
	}
	ix, _, err := memory.Open(dir)
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	return &rankers{repo: repo, ix: ix, plain: newPlainBM25(), dir: dir}, nil
}

// at brings both rankers to the tree at commit ("": the directory as it is
// on disk) and returns the index's refresh statistics and the source it
// read. A commit they already hold costs nothing; its statistics are then
// zero but for Files.
func (r *rankers) at(ctx context.Context, commit string) (memory.Stats, memory.Source, error) {
	if commit != "" && commit == r.commit {
		return memory.Stats{Files: len(r.tree)}, r.treeSource(r.tree, commit), nil
	}
	var src memory.Source
	var files []blob
	if commit == "" {
		if r.files == nil {
			r.files = memory.DirSource(r.repo)
		}
		src = r.files
		err := src.Walk(ctx, func(rel string, size int64, mt time.Time) error {
			files = append(files, blob{rel: rel, id: fmt.Sprint(size, mt.UnixNano()), size: size})
			return nil
		})
		if err != nil {
			return memory.Stats{}, nil, err
		}
	} else {
		if r.cat == nil {
			c, err := newCatFile(r.repo)
			if err != nil {
				return memory.Stats{}, nil, err
			}
			r.cat = c
		}
		var err error
		if files, r.missing, err = listTree(r.repo, commit); err != nil {
			return memory.Stats{}, nil, err
		}
		src = r.treeSource(files, commit)
	}
	st, err := r.ix.Refresh(ctx, src, nil)
	if err != nil {
		return st, nil, fmt.Errorf("refresh at %s: %w", commit, err)
	}
	r.plain.sync(files, src.ReadFile)
	r.commit, r.tree = commit, files
	return st, src, nil
}

// close stops the blob reader and removes the index directory.
func (r *rankers) close() {
	if r.cat != nil {
		r.cat.close()
	}
	if r.logDir != nil {
		r.logDir.Close()
	}
	os.RemoveAll(r.dir)
}
