package sandbox

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Mode is how much a sandbox confines.
type Mode string

// Modes.
const (
	Off             Mode = "off"
	ReadOnlyProject Mode = "read-only-project"
	Strict          Mode = "strict"
)

// ParseMode parses a mode as a user writes it (--sandbox, <sandbox>).
func ParseMode(s string) (Mode, error) {
	switch m := Mode(s); m {
	case Off, ReadOnlyProject, Strict:
		return m, nil
	}
	return "", fmt.Errorf("sandbox mode %q: want off, read-only-project or strict", s)
}

// HelperArg is the argument that makes taskctl the sandbox helper: a
// program whose first argument it is calls Exec with the arguments after
// it.
const HelperArg = "__sandbox-exec"

// ErrUnavailable is wrapped by the error of Check for a mode the kernel
// cannot enforce.
var ErrUnavailable = errors.New("sandbox unavailable")

// minABI is the Landlock ABI a mode needs: file system rules for
// read-only-project, and the TCP rules of ABI 4 for strict.
func minABI(m Mode) int {
	if m == Strict {
		return 4
	}
	return 1
}

// Check reports whether the running kernel can enforce mode m (off always
// can), wrapping ErrUnavailable if not.
func Check(m Mode) error {
	if m == Off {
		return nil
	}
	abi := ABI()
	if abi == 0 {
		return fmt.Errorf("%w: this kernel has no Landlock (Linux 5.13 or later with Landlock enabled)", ErrUnavailable)
	}
	if abi < minABI(m) {
		return fmt.Errorf("%w: %s mode needs Landlock ABI %d for its network rules; this kernel has ABI %d",
			ErrUnavailable, m, minABI(m), abi)
	}
	return nil
}

// Plan is the confinement of one program: what the helper is told.
type Plan struct {
	Mode Mode
	// Write are the directory trees the program may write in.
	Write []string
	// Files are single files it may write (device files).
	Files []string
	// PrivateTemp says that the system's temporary directory is not
	// writable: the caller should set TMPDIR to a directory under Write.
	PrivateTemp bool
}

// devices are the device files a confined program may open for writing.
// (Not /dev/tty: a program taskctl starts has no controlling terminal.)
var devices = []string{"/dev/null", "/dev/zero", "/dev/full"}

// NewPlan plans mode m (read-only-project or strict) for a program that
// works on project and may write in the directories write.
func NewPlan(m Mode, project string, write []string) (*Plan, error) {
	if m != ReadOnlyProject && m != Strict {
		return nil, fmt.Errorf("sandbox: no plan for mode %q", m)
	}
	p := &Plan{Mode: m, Files: devices}
	for _, dir := range write {
		if err := writable(dir, project); err != nil {
			return nil, err
		}
		p.Write = append(p.Write, dir)
	}
	p.PrivateTemp = true
	if m == ReadOnlyProject {
		if tmp, err := filepath.EvalSymlinks(os.TempDir()); err == nil && !within(project, tmp) {
			p.Write = append(p.Write, tmp)
			p.PrivateTemp = false
		}
	}
	return p, nil
}

// writable checks a directory that is to be writable.
func writable(dir, project string) error {
	if !filepath.IsAbs(dir) {
		return fmt.Errorf("sandbox: writable directory %s: not an absolute path", dir)
	}
	dir = filepath.Clean(dir)
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return fmt.Errorf("sandbox: writable directory: %w", err)
	}
	if real != dir {
		return fmt.Errorf("sandbox: writable directory %s: a symbolic link is on its way (it is %s)", dir, real)
	}
	if fi, err := os.Lstat(dir); err != nil || !fi.IsDir() {
		return fmt.Errorf("sandbox: writable directory %s: not a directory", dir)
	}
	if project != "" && within(project, dir) {
		return fmt.Errorf("sandbox: writable directory %s holds the project %s, which would be writable", dir, project)
	}
	return nil
}

// within reports whether path lies in dir (or is dir), by path components.
func within(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, "../") && !filepath.IsAbs(rel)
}

// Command returns the command line that runs argv (an absolute program
// path and its arguments) confined by p, through helper, the command line
// of the helper (taskctl itself and HelperArg).
func (p *Plan) Command(helper, argv []string) []string {
	out := append([]string(nil), helper...)
	out = append(out, "--mode", string(p.Mode))
	for _, d := range p.Write {
		out = append(out, "--write", d)
	}
	for _, f := range p.Files {
		out = append(out, "--file", f)
	}
	out = append(out, "--")
	return append(out, argv...)
}

// parseArgs reads the helper's arguments back into a plan and the program.
func parseArgs(args []string) (*Plan, []string, error) {
	p := &Plan{}
	for len(args) > 0 {
		a := args[0]
		if a == "--" {
			if len(args) < 2 {
				return nil, nil, errors.New("no program after --")
			}
			if p.Mode == "" {
				return nil, nil, errors.New("no --mode")
			}
			return p, args[1:], nil
		}
		if len(args) < 2 {
			return nil, nil, fmt.Errorf("%s needs a value", a)
		}
		v := args[1]
		switch a {
		case "--mode":
			m, err := ParseMode(v)
			if err != nil || m == Off {
				return nil, nil, fmt.Errorf("--mode %q: want read-only-project or strict", v)
			}
			p.Mode = m
		case "--write":
			p.Write = append(p.Write, v)
		case "--file":
			p.Files = append(p.Files, v)
		default:
			return nil, nil, fmt.Errorf("unknown argument %q", a)
		}
		args = args[2:]
	}
	return nil, nil, errors.New("no -- before the program")
}
