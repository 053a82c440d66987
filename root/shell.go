package root

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// How a command's path becomes an open file (#21 points 2 and 4, #29):
// the shell builtins (cat, grep, find, git …) reach files only through a
// Shell, the view of a Root a command run gets: the project dir alone,
// paths relative to it, the same confinement and name policy as every
// other reader.
//
//  1. The caller makes the path root-relative; one that leaves the project
//     lexically never gets here.
//  2. A path inside .git/ or .taskctl/ (any case) is refused: commands read
//     nothing there (git's own reads inside .git/, its index, info/exclude
//     and object store, go through a GitDir, the view of that directory
//     alone). Naming .git itself (ls -a, test -d) is not reading.
//  3. The file is opened only along a path with no symbolic link in it
//     (openat2 with RESOLVE_NO_SYMLINKS on Linux), after an O_PATH
//     descriptor of it said it is a regular file or a directory, so a FIFO,
//     device or socket is refused before it is ever opened. When the path
//     holds a link, the links are resolved inside the root (Resolve, the
//     root's symlink evaluation confined to the project dir: an absolute
//     or ".." target leading outside is refused without looking at it),
//     step 2 is applied to the real path, and that real path is opened the
//     same way: a link swapped in meanwhile makes the open fail instead of
//     being followed.
//  4. A file whose content a command reads (ModeContent) is judged by the
//     root's name policy (ReadRefusal: Exclude, sensitive names, names
//     holding a secret) by the name it was given and by its real path,
//     which is the path of what was opened.

var (
	// ErrOutside is the error for a path a command names that leaves
	// the project.
	ErrOutside = errors.New("outside the project (permission denied)")
	// ErrSwapped says a path changed between its resolution and its open.
	ErrSwapped = errors.New("changed while it was opened (a symbolic link was swapped in)")
	// errLink says a path holds a symbolic link: resolve it and try again.
	errLink = errors.New("path holds a symbolic link")
)

// A StateError is the refusal of a path inside .git/ or .taskctl/ to a
// command. Dir is the directory, relative to the project dir.
type StateError struct{ Dir string }

func (e *StateError) Error() string {
	return "inside " + filepath.Base(e.Dir) + "/: commands never read there"
}

// A RefusedError is the name policy's reason for keeping a file's content
// from a command ("not read: …"); it never quotes the content.
type RefusedError string

func (e RefusedError) Error() string { return string(e) }

// StateDir returns the .git or .taskctl directory the root-relative path
// rel lies inside, or "". With self, rel naming such a directory itself
// counts too (listing it is reading inside it).
func StateDir(rel string, self bool) string {
	rel = filepath.ToSlash(rel)
	d := AlwaysExcludedDir(rel)
	if d == "" || d == rel && !self {
		return ""
	}
	return d
}

// Mode says what a command's open is for.
type Mode uint8

const (
	// ModeContent: the content will be read and shown; the name policy
	// applies.
	ModeContent Mode = 1 << iota
)

// A Shell is the view of a Root that a command run gets: the project dir,
// paths relative to it (slash-separated, clean).
type Shell struct {
	r *Root
	d *Dir
}

// Shell returns the view of r for commands.
func (r *Root) Shell() *Shell { return &Shell{r: r, d: r.dirs[0]} }

// Dir returns the project dir (real, absolute).
func (s *Shell) Dir() string { return s.d.path }

// Policy returns the root's policy.
func (s *Shell) Policy() Policy { return s.r.policy }

// JudgeContent applies the content policy under the root's policy.
func (s *Shell) JudgeContent(data []byte) Content { return s.r.JudgeContent(data) }

// Open opens rel for reading, as the steps above say, and returns the
// file and its real root-relative path. Errors are the lookup's, or
// ErrOutside, ErrSwapped, ErrNotRegular, a *StateError or a RefusedError.
func (s *Shell) Open(rel string, m Mode) (*os.File, string, error) {
	if d := StateDir(rel, true); d != "" {
		return nil, "", &StateError{Dir: d}
	}
	fh, err := s.openNoLinks(rel)
	real := rel
	if errors.Is(err, errLink) {
		if real, err = s.Resolve(rel); err == nil {
			if d := StateDir(real, true); d != "" {
				err = &StateError{Dir: d}
			} else if fh, err = s.openNoLinks(real); errors.Is(err, errLink) {
				err = ErrSwapped
			}
		}
	}
	if err != nil {
		return nil, "", err
	}
	if m&ModeContent != 0 {
		err := s.Refusal(rel)
		if err == nil && real != rel {
			err = s.Refusal(real)
		}
		if err != nil {
			fh.Close()
			return nil, "", err
		}
	}
	return fh, real, nil
}

// Refusal is the name policy for a command's read of the content of the
// file at rel (root-relative): a RefusedError saying why, or nil.
func (s *Shell) Refusal(rel string) error {
	if w := s.r.ReadRefusal(filepath.ToSlash(rel)); w != nil {
		return RefusedError("not read: " + w.Message)
	}
	return nil
}

// Resolve resolves the symbolic links of the clean root-relative path rel
// inside the project dir, as the kernel would, and returns the
// root-relative path of the file, which holds no link at the time of the
// lookup. It is the root's one symlink evaluation (Eval) held to the
// project dir: a link leading outside (an absolute target elsewhere, or
// ".." past the root) is ErrOutside and its target is not looked at; a
// path entering .git/ or .taskctl/ is refused as soon as it does, so no
// link inside them is read either.
func (s *Shell) Resolve(rel string) (string, error) {
	real, err := s.r.eval(filepath.Join(s.d.path, rel), s.d)
	if err != nil {
		return "", err
	}
	_, r := s.r.DirOf(real)
	return r, nil
}

// statPath checks the root-relative path rel that stat or lstat is about
// to look up: nothing inside .git/ or .taskctl/, by name or through a
// symlink in a directory component (the os.Root follows those while they
// stay inside). It returns the path to look up: rel, or rel with its
// directory resolved.
func (s *Shell) statPath(rel string) (string, error) {
	if d := StateDir(rel, false); d != "" {
		return "", &StateError{Dir: d}
	}
	i := strings.LastIndexByte(rel, '/')
	if i < 0 {
		return rel, nil
	}
	dir, base := rel[:i], rel[i+1:]
	if !s.d.dirHasLinks(dir) {
		return rel, nil
	}
	real, err := s.Resolve(dir)
	if err != nil {
		return "", err
	}
	if d := StateDir(real, true); d != "" {
		return "", &StateError{Dir: d}
	}
	return real + "/" + base, nil
}

// Stat describes the file at rel (root-relative) as a command's stat
// does: a symbolic link is followed inside the root only, its target
// judged by its real path, nothing inside .git/ or .taskctl/.
func (s *Shell) Stat(rel string) (fs.FileInfo, error) {
	r, err := s.statPath(rel)
	if err != nil {
		return nil, err
	}
	fi, err := s.d.os.Lstat(r)
	if err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		var real string
		if real, err = s.Resolve(r); err == nil {
			if d := StateDir(real, false); d != "" {
				return nil, &StateError{Dir: d}
			}
			fi, err = s.d.os.Lstat(real)
		}
	}
	return fi, err
}

// Lstat describes the file at rel (root-relative) without following it,
// nothing inside .git/ or .taskctl/.
func (s *Shell) Lstat(rel string) (fs.FileInfo, error) {
	r, err := s.statPath(rel)
	if err != nil {
		return nil, err
	}
	return s.d.os.Lstat(r)
}

// Readlink reads the symbolic link at rel (root-relative), nothing inside
// .git/ or .taskctl/.
func (s *Shell) Readlink(rel string) (string, error) {
	if d := StateDir(rel, false); d != "" {
		return "", &StateError{Dir: d}
	}
	return s.d.os.Readlink(rel)
}

// openNoLinksPortable is openNoLinks through the os.Root alone: each
// component of rel is lstat'ed (a link is errLink, a last component that is
// neither a regular file nor a directory ErrNotRegular, both before any
// open), then rel is opened as readRoot opens (openSame: the file opened
// must be the one lstat saw, ErrSwapped otherwise). A link swapped into a
// directory component between the two is followed, but only inside the
// root.
func (s *Shell) openNoLinksPortable(rel string) (*os.File, error) {
	var fi fs.FileInfo
	for i := 0; i <= len(rel); i++ {
		if i < len(rel) && rel[i] != '/' {
			continue
		}
		var err error
		if fi, err = s.d.os.Lstat(rel[:i]); err != nil {
			return nil, err
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			return nil, errLink
		}
		if i == len(rel) && !fi.Mode().IsRegular() && !fi.IsDir() {
			return nil, ErrNotRegular
		}
	}
	fh, _, err := s.d.openSame(rel, fi)
	if errors.Is(err, errLink) {
		err = ErrSwapped
	}
	return fh, err
}
