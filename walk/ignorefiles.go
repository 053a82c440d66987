package walk

import (
	"errors"
	"fmt"
	"io/fs"
	"syscall"

	"github.com/taskctl/taskctl/ignore"
	"github.com/taskctl/taskctl/root"
	"github.com/taskctl/taskctl/state"
)

// This file is the I/O half of the ignore rules: package ignore matches
// and never opens a file, and these read the ignore files it is given.

// The names of the ignore files, and the cap on their size, as ignore has
// them.
const (
	gitignoreName     = ignore.GitignoreName
	taskctlignoreName = ignore.TaskctlignoreName
	infoExcludeName   = ignore.InfoExcludeName
	maxIgnoreFile     = ignore.MaxFileBytes
)

// NewMatcher returns an ignore.Matcher of taskctl's ignore files (see
// ignore.New) read from fsys, whose root is the top of the tree: regular
// files of at most ignore.MaxFileBytes.
func NewMatcher(fsys fs.FS) *ignore.Matcher {
	return ignore.New(ignoreReader(func(name string) ([]byte, error) { return readSmall(fsys, name) }))
}

// NewGitMatcher returns an ignore.Matcher of what git reads for git
// ls-files --exclude-standard and git check-ignore (see ignore.NewGit),
// read from fsys, whose root is the top of the worktree.
func NewGitMatcher(fsys fs.FS) *ignore.Matcher {
	return ignore.NewGit(ignoreReader(func(name string) ([]byte, error) { return readSmall(fsys, name) }))
}

// RootMatcher returns the ignore.Matcher of taskctl's ignore files below
// the root directory d: read as NewMatcher reads them, opened below d.
func RootMatcher(d *root.Dir) *ignore.Matcher {
	return ignore.New(ignoreReader(func(name string) ([]byte, error) { return readBelow(d, name) }))
}

// readBelow reads an ignore file below the root d (readSmall's rules):
// with one openat2 where the kernel has it (root.Dir.ReadSmall), else, and
// for a path through a symbolic link, which the os.Root follows while it
// stays inside, through the os.Root.
func readBelow(d *root.Dir, name string) ([]byte, error) {
	data, declined, err := d.ReadSmall(name, maxIgnoreFile)
	switch {
	case declined:
		return readSmall(d.OS().FS(), name)
	case errors.Is(err, root.ErrTooLarge):
		return nil, fmt.Errorf("larger than %d bytes", maxIgnoreFile)
	case errors.Is(err, state.ErrNotRegular):
		return nil, fmt.Errorf("not a regular file")
	}
	return data, err
}

// ignoreReader turns read, which reports a missing file as fs.ErrNotExist,
// into an ignore.ReadFunc, for which a missing file is no content.
func ignoreReader(read func(name string) ([]byte, error)) ignore.ReadFunc {
	return func(name string) ([]byte, error) {
		data, err := read(name)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		return data, err
	}
}

// readSmall reads a regular file of at most maxIgnoreFile bytes.
func readSmall(fsys fs.FS, name string) ([]byte, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := state.ReadRegular(f, maxIgnoreFile)
	var tl *state.TooLargeError
	switch {
	case errors.As(err, &tl):
		return nil, fmt.Errorf("larger than %d bytes", maxIgnoreFile)
	case errors.Is(err, state.ErrNotRegular), errors.Is(err, syscall.EISDIR):
		return nil, fmt.Errorf("not a regular file")
	}
	return data, err
}
