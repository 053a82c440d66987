package project

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/taskctl/taskctl/ignore"
	"github.com/taskctl/taskctl/root"
	"github.com/taskctl/taskctl/state"
	"github.com/taskctl/taskctl/walk"
)

// Markers are the built-in project markers, in order of priority: the
// nearest ".git" wins, else the nearest "package.json", else the first of the
// rest found upwards. Extra markers come after them.
var builtinMarkers = []string{".git", "package.json", "pyproject.toml", "Cargo.toml", "go.mod", "pom.xml", "build.gradle", ".taskctl"}

// Markers returns the built-in project markers in priority order.
func Markers() []string { return append([]string(nil), builtinMarkers...) }

// WorkspaceName is the directory, in the project dir, taskctl writes to.
const WorkspaceName = ".taskctl"

// Options say where a project is.
type Options struct {
	WorkingDir string      // absolute (a relative one is made absolute); "" means os.Getwd()
	ProjectDir string      // "" means Detect from WorkingDir; relative means relative to WorkingDir
	Markers    []string    // extra markers, tried after the built-in ones
	Policy     root.Policy // zero fields take their defaults
}

// A Project is an opened project: its three directories, its policy, and
// the confined root (a root.Root at the project dir and the extra roots)
// that every read goes through (on Linux, with openat2 from a descriptor
// of the same directory first; see root.Root.Read). Its methods are safe for
// concurrent use. Close it when done.
type Project struct {
	dir, workingDir, marker string
	fsys                    *root.Root // the confined file system
	roots                   []*rootDir // roots[0] is the project dir
	// dirs caches the real path of directories resolve has evaluated
	// (lexical absolute path → *dirEval), so a command printing thousands
	// of paths in a few directories costs one lstat a path. Reads never
	// trust it: they go through the os.Root.
	dirs sync.Map
	// lists caches directory listings for ResolveFrom (real dir →
	// *dirListing); see listed.
	lists sync.Map
	// direntBufs holds the *[]byte buffers listed reads directories into.
	direntBufs sync.Pool
}

// rootDir is one allowed directory of the root as project sees it: the
// root.Dir itself (which owns its path, its os.Root and its descriptor),
// its ignore rules, and the walk tree over both.
type rootDir struct {
	d      *root.Dir
	ignore *ignore.Matcher
	tree   *walk.Tree // the same, as walks see it
}

// Detect finds the project dir of workingDir: upwards from the real path of
// workingDir, the nearest directory holding ".git" (a directory, or a file as
// in worktrees and submodules); else the nearest holding "package.json";
// else, for each of the other markers in order ("pyproject.toml",
// "Cargo.toml", "go.mod", "pom.xml", "build.gradle", ".taskctl", then
// extraMarkers), the nearest holding it. marker names what decided; when
// nothing is found dir is workingDir's real path and marker is "".
func Detect(workingDir string, extraMarkers []string) (dir, marker string, err error) {
	wd, err := realDir(workingDir)
	if err != nil {
		return "", "", err
	}
	markers := append(Markers(), extraMarkers...)
	for _, m := range markers {
		if m == "" || strings.ContainsRune(m, '/') || m == "." || m == ".." {
			continue
		}
		for d := wd; ; d = filepath.Dir(d) {
			if _, err := os.Lstat(filepath.Join(d, m)); err == nil {
				return d, m, nil
			}
			if d == "/" || d == filepath.Dir(d) {
				break
			}
		}
	}
	return wd, "", nil
}

// realDir returns the real absolute path of an existing directory.
func realDir(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", err
	}
	st, err := os.Stat(real)
	if err != nil {
		return "", err
	}
	if !st.IsDir() {
		return "", &fs.PathError{Op: "open", Path: abs, Err: errors.New("not a directory")}
	}
	return real, nil
}

// Open opens the project that opts describe. The working dir and the
// project dir must exist; both are kept as real paths (symlinks evaluated),
// so every path the Project returns is real and absolute.
func Open(opts Options) (*Project, error) {
	wd := opts.WorkingDir
	if wd == "" {
		var err error
		if wd, err = os.Getwd(); err != nil {
			return nil, fmt.Errorf("working dir: %w", err)
		}
	}
	wd, err := realDir(wd)
	if err != nil {
		return nil, fmt.Errorf("working dir: %w", err)
	}
	p := &Project{workingDir: wd}
	if opts.ProjectDir != "" {
		pd := opts.ProjectDir
		if !filepath.IsAbs(pd) {
			pd = filepath.Join(wd, pd)
		}
		if p.dir, err = realDir(pd); err != nil {
			return nil, fmt.Errorf("project dir: %w", err)
		}
		for _, m := range append(Markers(), opts.Markers...) {
			if _, err := os.Lstat(filepath.Join(p.dir, m)); err == nil && m != "" && !strings.Contains(m, "/") {
				p.marker = m
				break
			}
		}
	} else if p.dir, p.marker, err = Detect(wd, opts.Markers); err != nil {
		return nil, fmt.Errorf("detect project: %w", err)
	}
	dirs := []string{p.dir}
	pol := opts.Policy.WithDefaults()
	for _, r := range pol.ExtraRoots {
		if !filepath.IsAbs(r) {
			return nil, fmt.Errorf("extra root %s: not an absolute path", r)
		}
		rd, err := realDir(r)
		if err != nil {
			return nil, fmt.Errorf("extra root: %w", err)
		}
		dirs = append(dirs, rd)
	}
	if p.fsys, err = root.Open(dirs, pol); err != nil {
		return nil, err
	}
	for _, d := range p.fsys.Dirs() {
		rd := &rootDir{d: d, ignore: walk.RootMatcher(d)}
		rd.tree = p.tree(rd)
		p.roots = append(p.roots, rd)
	}
	return p, nil
}

// Close closes the roots.
func (p *Project) Close() error {
	if p.fsys == nil {
		return nil
	}
	p.roots = nil
	return p.fsys.Close()
}

// Dir returns the project dir (real, absolute).
func (p *Project) Dir() string { return p.dir }

// WorkingDir returns the working dir (real, absolute).
func (p *Project) WorkingDir() string { return p.workingDir }

// Workspace returns <project>/.taskctl, whether or not it exists yet.
func (p *Project) Workspace() string { return filepath.Join(p.dir, WorkspaceName) }

// Marker returns the marker that decided the project dir (".git",
// "package.json", ...), or "" when it fell back to the working dir. When the
// project dir was given, it is the first marker present in it, or "".
func (p *Project) Marker() string { return p.marker }

// Confined returns the project's confined file system, which every read
// goes through: the project dir and the extra roots, the name policy and
// the content policy.
func (p *Project) Confined() *root.Root { return p.fsys }

// Policy returns the effective policy (defaults filled in).
func (p *Project) Policy() root.Policy { return p.fsys.Policy() }

// Ignored reports whether rel (slash-separated, relative to the project
// dir) is left out of walks and globs, and why: "always excluded: .git/",
// "node_modules/ (name it explicitly to include it)", "policy exclude:
// PATTERN", or the deciding ignore-file rule as "FILE:LINE: PATTERN". The
// precedence, highest first: .git/ and .taskctl/; node_modules/; the policy's
// Exclude patterns; the .gitignore family (see ignore.Matcher).
func (p *Project) Ignored(rel string, isDir bool) (bool, string) {
	rel = strings.Trim(filepath.ToSlash(rel), "/")
	if rel == "" || rel == "." {
		return false, ""
	}
	comps := strings.Split(rel, "/")
	for i, c := range comps {
		if root.AlwaysExcluded(c) {
			return true, "always excluded: " + c + "/"
		}
		if isNodeModules(c) && (i < len(comps)-1 || isDir) {
			return true, "node_modules/ (name it explicitly to include it)"
		}
	}
	if pat := p.fsys.ExcludedPath(rel); pat != "" {
		return true, "policy exclude: " + pat
	}
	ign, r := p.roots[0].ignore.Match(rel, isDir)
	if ign {
		return true, explain(r)
	}
	return false, ""
}

// Reload forgets the ignore files (.gitignore, .taskctlignore,
// .git/info/exclude) read so far, which a Project otherwise keeps for as
// long as it is open, so that later walks, globs and matches see them as
// they are now: for a Project that outlives changes to the tree, such as
// the steps of a workflow, whose executors may edit them.
func (p *Project) Reload() {
	for _, r := range p.roots {
		r.ignore.Forget()
	}
}

// IgnoreErrors returns the problems met reading ignore files so far (bad
// pattern lines, unreadable files). They never stop a walk.
func (p *Project) IgnoreErrors() []error {
	var errs []error
	for _, r := range p.roots {
		errs = append(errs, r.ignore.Errors()...)
	}
	return errs
}

// EnsureWorkspace creates <project>/.taskctl/<sub...> if needed and returns
// its absolute path. It works through state.Make from the project dir:
// no component is followed if it is a symbolic link (a *state.UnsafeError), so
// nothing is ever written outside the project; into every directory it
// creates it writes a ".gitignore" holding "*" so the workspace never gets
// committed. Each sub must be a single plain name (no "/", ".", ".." or
// NUL). OpenWorkspace returns the directory open.
func (p *Project) EnsureWorkspace(sub ...string) (string, error) {
	d, err := p.OpenWorkspace(sub...)
	if err != nil {
		return "", err
	}
	d.Close()
	return d.Path(), nil
}

// OpenWorkspace is EnsureWorkspace returning the directory as a state.Dir,
// through which its files are created, replaced, locked and read.
func (p *Project) OpenWorkspace(sub ...string) (*state.Dir, error) {
	path := filepath.Join(p.dir, WorkspaceName)
	for _, s := range sub {
		if s == "" || s == "." || s == ".." || strings.ContainsAny(s, "/\\\x00") {
			return nil, fmt.Errorf("workspace: bad directory name %q", s)
		}
		path = filepath.Join(path, s)
	}
	d, err := state.Make(path)
	if err != nil {
		return nil, fmt.Errorf("workspace: %w", err)
	}
	return d, nil
}

// rootOf returns the allowed directory that real lies in, and real
// relative to it (see root.Root.DirOf).
func (p *Project) rootOf(real string) (*rootDir, string) {
	d, rel := p.fsys.DirOf(real)
	for _, r := range p.roots {
		if r.d == d {
			return r, rel
		}
	}
	return nil, ""
}

// SizeOf is the size of c's file as seen beneath the allowed root it lies
// in (lstat through that root's os.Root), or false when it cannot be had.
// Nothing outside the allowed roots is stat'ed.
func (p *Project) SizeOf(c Candidate) (int64, bool) {
	r, rel := p.rootOf(c.Path)
	if r == nil {
		return 0, false
	}
	fi, err := r.d.OS().Lstat(filepath.FromSlash(rel))
	if err != nil {
		return 0, false
	}
	return fi.Size(), true
}

// isNodeModules reports whether name is node_modules, which walks and
// globs leave out unless it is named.
func isNodeModules(name string) bool { return name == "node_modules" }
