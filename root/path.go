package root

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"unicode/utf8"

	"github.com/taskctl/taskctl/internal/diag"
)

const (
	maxPathLen  = 4096 // PATH_MAX on Linux
	maxNameLen  = 255  // NAME_MAX
	maxSymlinks = 40   // the kernel's limit on links followed in one lookup
)

// CheckInput rejects what is never a portable path, before anything
// touches the file system: empty, over 4096 bytes or a component over 255,
// a NUL, a control or bidirectional character, a backslash, invalid UTF-8,
// a drive letter, a leading "//". It returns a message, or "".
func CheckInput(s string) string {
	switch {
	case s == "":
		return "empty path"
	case len(s) > maxPathLen:
		return fmt.Sprintf("path is %d bytes long (the limit is %d)", len(s), maxPathLen)
	case strings.IndexByte(s, 0) >= 0:
		return "path holds a NUL byte"
	case strings.IndexByte(s, '\\') >= 0:
		return `path holds a backslash (use "/"; Windows forms are not accepted)`
	case len(s) >= 2 && s[1] == ':' && (s[0]|0x20 >= 'a' && s[0]|0x20 <= 'z'):
		return "path has a Windows drive letter"
	case strings.HasPrefix(s, "//"):
		return "path has a UNC-style leading //"
	case !utf8.ValidString(s):
		return "path is not valid UTF-8"
	}
	if msg := checkChars(s); msg != "" {
		return msg
	}
	for rest := s; rest != ""; {
		c := rest
		if i := strings.IndexByte(rest, '/'); i >= 0 {
			c, rest = rest[:i], rest[i+1:]
		} else {
			rest = ""
		}
		if len(c) > maxNameLen {
			return fmt.Sprintf("a path component is %d bytes long (the limit is %d)", len(c), maxNameLen)
		}
	}
	return ""
}

// checkChars refuses control characters (C0, DEL, C1) and the
// bidirectional controls that make a displayed path differ from the real
// one; s must be valid UTF-8.
func checkChars(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == 0x7f {
			return fmt.Sprintf("path holds control character %U", rune(c))
		} else if c >= 0x80 {
			for _, r := range s[i:] {
				switch {
				case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0):
					return fmt.Sprintf("path holds control character %U", r)
				case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x200e, r == 0x200f:
					return fmt.Sprintf("path holds bidirectional control %U", r)
				}
			}
			return ""
		}
	}
	return ""
}

// CheckWalkedName refuses a walked file name that CheckInput would refuse:
// such names cannot be printed one per line, or display as something else.
func CheckWalkedName(name string) string {
	if !utf8.ValidString(name) {
		return "file name is not valid UTF-8"
	}
	if strings.IndexByte(name, '\\') >= 0 {
		return "file name holds a backslash"
	}
	return checkChars(name)
}

// Quote shortens and quotes raw input for a message.
func Quote(s string) string {
	if len(s) > 120 {
		s = s[:120] + "..."
	}
	return fmt.Sprintf("%q", s)
}

// Within reports whether p lies in or is dir, comparing path components.
// Both are clean absolute paths.
func Within(dir, p string) bool {
	if dir == "/" {
		return strings.HasPrefix(p, "/")
	}
	if len(p) < len(dir) || p[:len(dir)] != dir {
		return false
	}
	return len(p) == len(dir) || p[len(dir)] == '/'
}

// ErrLoop and ErrNotDir are the failures of Eval besides *PathError.
var (
	ErrLoop   = errors.New("too many levels of symbolic links")
	ErrNotDir = errors.New("not a directory")
)

// Where says how an absolute clean path stands to the allowed roots:
// inside one (1), a strict ancestor of one (2: a real directory, as the
// roots' paths are real and were so when opened), or neither (0).
func (r *Root) Where(path string) int {
	anc := false
	for _, d := range r.dirs {
		if Within(d.path, path) {
			return 1
		}
		if Within(path, d.path) {
			anc = true
		}
	}
	if anc {
		return 2
	}
	return 0
}

// Eval resolves every symlink of the absolute path path the way the
// kernel would: component by component, ".." applied to the directory
// reached so far (not lexically), a relative link target relative to the
// link's directory, an absolute one from "/". It returns the real path,
// which has no symlink left at the time of the lookup.
//
// Nothing outside the allowed roots is looked at (#21 point 6): a
// component outside them (or an ancestor of one) is taken lexically, as
// a directory, and never lstat'ed, so the answer for an outside path never
// depends on what is there: a path ending outside is outside, and one that
// comes back in through ".." (a link to an outside directory, then "..")
// is resolved from there, as if the outside part were plain directories.
// What is read is always the real path inside a root. On failure it also returns
// how far it got: the real path of the part resolved, joined lexically with
// the rest; the caller uses it only to tell "outside" from "not found".
func (r *Root) Eval(path string) (real string, err error) { return r.eval(path, nil) }

// eval is Eval; with in, it is held to that directory (a command's
// resolution, see Shell.Resolve): path must lie in it, and instead of
// being taken lexically, a component that leaves it (".." past it, an
// absolute link target elsewhere) is ErrOutside, a component inside .git/
// or .taskctl/ a *StateError, and every lookup goes through its *os.Root.
func (r *Root) eval(path string, in *Dir) (real string, err error) {
	resolved, rest := "/", path
	if in != nil {
		resolved, rest = in.path, strings.TrimPrefix(strings.TrimPrefix(path, in.path), "/")
	}
	links := 0
	for rest != "" {
		comp, more := rest, false
		if i := strings.IndexByte(rest, '/'); i >= 0 {
			comp, rest, more = rest[:i], rest[i+1:], true
		} else {
			rest = ""
		}
		switch comp {
		case "", ".":
			continue
		case "..":
			if in != nil && resolved == in.path {
				return resolved, ErrOutside
			}
			resolved = filepath.Dir(resolved)
			continue
		}
		if in != nil && resolved != in.path && AlwaysExcluded(filepath.Base(resolved)) {
			return resolved, &StateError{Dir: in.rel(resolved)}
		}
		next := filepath.Join(resolved, comp)
		if in == nil && r.Where(next) != 1 {
			// An ancestor of a root, or outside: taken as it is
			// written, never looked at. A ".." may still lead back
			// inside (dir_link_out/../proj/x); if not, the path
			// is outside whatever is there.
			resolved = next
			continue
		}
		st, err := in.lstat(next)
		if err != nil {
			return filepath.Join(next, rest), err
		}
		if st.Mode()&fs.ModeSymlink == 0 {
			if more && !st.IsDir() {
				return filepath.Join(next, rest), in.notDir()
			}
			resolved = next
			continue
		}
		links++
		if links > maxSymlinks {
			return filepath.Join(next, rest), in.loop()
		}
		target, err := in.readlink(next)
		if err != nil {
			return filepath.Join(next, rest), err
		}
		if target == "" {
			return filepath.Join(next, rest), syscall.ENOENT
		}
		if strings.HasPrefix(target, "/") {
			if resolved = "/"; in != nil {
				t := filepath.Clean(target)
				if !Within(in.path, t) {
					return next, ErrOutside
				}
				resolved, target = in.path, strings.TrimPrefix(strings.TrimPrefix(t, in.path), "/")
			}
		}
		if more {
			rest = target + "/" + rest
		} else {
			rest = target
		}
	}
	return resolved, nil
}

// The lookups of eval: by absolute path for a Root's Eval (d nil), through
// the directory's *os.Root for a command's, with the kernel's errors.

func (d *Dir) lstat(abs string) (fs.FileInfo, error) {
	if d == nil {
		return os.Lstat(abs)
	}
	return d.os.Lstat(d.rel(abs))
}

func (d *Dir) readlink(abs string) (string, error) {
	if d == nil {
		return os.Readlink(abs)
	}
	return d.os.Readlink(d.rel(abs))
}

func (d *Dir) notDir() error {
	if d == nil {
		return ErrNotDir
	}
	return syscall.ENOTDIR
}

func (d *Dir) loop() error {
	if d == nil {
		return ErrLoop
	}
	return syscall.ELOOP
}

// rel is the path of abs, which lies in d, relative to d ("." for d).
func (d *Dir) rel(abs string) string {
	if abs == d.path {
		return "."
	}
	off := len(d.path) + 1
	if d.path == "/" {
		off = 1
	}
	return abs[off:]
}

// ClassifyErr maps a lookup failure to a warning code and a short message.
func ClassifyErr(err error) (code diag.Code, msg string) {
	switch {
	case errors.Is(err, ErrLoop), errors.Is(err, syscall.ELOOP):
		return diag.PathInvalid, "too many levels of symbolic links"
	case errors.Is(err, ErrNotDir), errors.Is(err, syscall.ENOTDIR):
		return diag.PathNotFound, "a path component is not a directory"
	case errors.Is(err, fs.ErrNotExist):
		return diag.PathNotFound, "no such file or directory"
	case errors.Is(err, syscall.ENAMETOOLONG):
		return diag.PathInvalid, "file name too long"
	case errors.Is(err, fs.ErrPermission):
		return diag.PathUnreadable, "permission denied"
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return diag.PathUnreadable, pe.Err.Error()
	}
	return diag.PathUnreadable, err.Error()
}
