package project

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/taskctl/taskctl/internal/diag"
	"github.com/taskctl/taskctl/root"
	"github.com/taskctl/taskctl/state"
)

// FSOptions say where agents may write.
type FSOptions struct {
	// Workspace is the directory agents write in, absolute; "" is
	// <project>/.taskctl/workspace. It must lie inside the project dir or
	// an extra root, and inside .taskctl/ only as .taskctl/workspace or
	// below it. It is created on first write.
	Workspace string
	// WriteRoots are further directories, absolute, inside the project
	// dir, where agents may write (a team's choice to let an agent edit
	// sources). Each must exist; none may be or lie in .git/ or .taskctl/.
	WriteRoots []string
	// Base is the directory a relative path resolves against, for reads
	// and writes alike (absolute; "" is the working dir): the working dir
	// on the command line, the project dir for an MCP client, which has no
	// working dir (DESIGN §2). One string names one file.
	Base string
}

// An FS is the file operations of agents and scripts over a project
// (seed 001): reads of the project and the workspace, writes that go only
// to the workspace and the write roots. A relative path resolves against
// one base dir (FSOptions.Base) whether it is read or written, so one
// string names one file.
//
// # Guarantees of the writes
//
//   - The path, made absolute against the base dir, must lie lexically and
//     by path components in the workspace or a write root ("/p/ws-evil"
//     is not in "/p/ws"). Paths are cleaned lexically:
//     since no symbolic link is followed, ".." can never lead through one.
//   - The directory of the target is reached from the root's real path one
//     component at a time with openat(O_NOFOLLOW|O_DIRECTORY) and held
//     open (a state.Dir); a symbolic link on the way is refused
//     (STATE_UNSAFE), never followed.
//   - No component may be .git or .taskctl (case-insensitively), except
//     the .taskctl/ of a workspace inside it; sensitive names are refused
//     unless the policy allows them.
//   - Content is written to a new temporary file in the target's
//     directory and renamed over the name, so a symbolic link, FIFO or
//     hard link swapped in at the name is replaced, never written
//     through. What stands at a name before a write is checked: a
//     symbolic link, special file, directory or file with more than one
//     link is refused. A name that must not exist is created with
//     renameat2(RENAME_NOREPLACE) on Linux.
//   - A backup of replaced or deleted content goes to
//     <project>/.taskctl/backups/, a delete moves the file there.
//
// # Not guaranteed
//
//   - A write root or workspace reached through a symlinked path is
//     refused, not resolved: paths are written as their real paths.
//   - Elsewhere than Unix, names are checked with lstat before use, which
//     a concurrent swap can race.
type FS struct {
	p     *Project
	base  string   // what a relative path is relative to, clean absolute
	ws    string   // the workspace, clean absolute
	roots []string // the write roots, clean absolute (real)
}

// OpenFS checks the options and returns the file operations. A write root
// that is missing, not a directory, reached through a symbolic link or
// inside .git/ or .taskctl/ is left out with a warning.
func (p *Project) OpenFS(o FSOptions) (*FS, []diag.Warning, error) {
	f := &FS{p: p, base: p.workingDir, ws: filepath.Join(p.dir, WorkspaceName, "workspace")}
	if o.Base != "" {
		if !filepath.IsAbs(o.Base) {
			return nil, nil, fmt.Errorf("base dir %s: not an absolute path", o.Base)
		}
		f.base = filepath.Clean(o.Base)
	}
	if o.Workspace != "" {
		ws, err := p.checkWorkspace(o.Workspace)
		if err != nil {
			return nil, nil, err
		}
		f.ws = ws
	}
	var warns []diag.Warning
	for _, r := range o.WriteRoots {
		if w := p.checkWriteRoot(r); w != nil {
			warns = append(warns, *w)
			continue
		}
		f.roots = append(f.roots, filepath.Clean(r))
	}
	return f, warns, nil
}

// checkWorkspace returns the workspace ws, clean, or why it cannot be one.
func (p *Project) checkWorkspace(ws string) (string, error) {
	if !filepath.IsAbs(ws) {
		return "", fmt.Errorf("workspace %s: not an absolute path", ws)
	}
	if msg := root.CheckInput(ws); msg != "" {
		return "", fmt.Errorf("workspace %s: %s", root.Quote(ws), msg)
	}
	ws = filepath.Clean(ws)
	r, rel := p.rootOf(ws)
	if r == nil || rel == "." {
		return "", fmt.Errorf("workspace %s: must lie inside the project dir %s or an allowed root", ws, p.dir)
	}
	if d := root.AlwaysExcludedDir(rel); d != "" {
		if r != p.roots[0] || !root.Within(WorkspaceName+"/workspace", rel) {
			return "", fmt.Errorf("workspace %s: inside %s/, where only .taskctl/workspace may be", ws, d)
		}
	}
	return ws, nil
}

// checkWriteRoot says why dir cannot be a write root, or nil.
func (p *Project) checkWriteRoot(dir string) *diag.Warning {
	if !filepath.IsAbs(dir) {
		return warnf(diag.ConfigIgnored, "", "write root %s: not an absolute path", root.Quote(dir))
	}
	if msg := root.CheckInput(dir); msg != "" {
		return warnf(diag.ConfigIgnored, "", "write root %s: %s", root.Quote(dir), msg)
	}
	dir = filepath.Clean(dir)
	if !root.Within(p.dir, dir) {
		return warnf(diag.ConfigIgnored, dir, "write root outside the project dir %s: ignored", p.dir)
	}
	if d := root.AlwaysExcludedDir(p.fsys.Rel(dir)); d != "" {
		return warnf(diag.ConfigIgnored, dir, "write root inside %s/: ignored", d)
	}
	real, err := p.fsys.Eval(dir)
	if err != nil {
		return warnf(diag.ConfigIgnored, dir, "write root: %v: ignored", err)
	}
	if real != dir {
		return warnf(diag.ConfigIgnored, dir, "write root reached through a symbolic link (to %s): ignored", real)
	}
	if st, err := root.LstatType(dir); err != nil || !st.IsDir() {
		return warnf(diag.ConfigIgnored, dir, "write root is not a directory: ignored")
	}
	return nil
}

// Workspace returns the workspace's absolute path (it may not exist yet).
func (f *FS) Workspace() string { return f.ws }

// EnsureWorkspace makes the workspace if it is missing (as the first
// write does: each directory it makes holds a ".gitignore" of "*") and
// returns its path.
func (f *FS) EnsureWorkspace() (string, error) {
	d, err := state.Make(f.ws)
	if err != nil {
		return "", fmt.Errorf("workspace: %w", err)
	}
	d.Close()
	return f.ws, nil
}

// WriteRoots returns the write roots in force.
func (f *FS) WriteRoots() []string { return append([]string(nil), f.roots...) }

// A target is a path a write names: the root it lies in and its
// components below it.
type target struct {
	abs   string
	root  string
	comps []string // at least one
}

func (t *target) name() string { return t.comps[len(t.comps)-1] }

// Base returns the directory relative paths resolve against.
func (f *FS) Base() string { return f.base }

// writeTarget resolves s, as given to a write, to a target: relative to
// the base dir, inside the workspace or a write root, through the name
// rules.
func (f *FS) writeTarget(s string) (*target, *diag.Warning) {
	if msg := root.CheckInput(s); msg != "" {
		return nil, warnf(diag.PathInvalid, s, "%s: %s", root.Quote(s), msg)
	}
	abs := cleanJoin(f.base, s)
	area := ""
	for _, r := range append([]string{f.ws}, f.roots...) {
		if root.Within(r, abs) && len(r) > len(area) {
			area = r
		}
	}
	if area == "" {
		return nil, warnf(diag.PathNotWritable, abs, "outside the workspace %s%s%s", f.ws, f.rootsNote(), f.workspaceHint(abs))
	}
	if abs == area {
		return nil, warnf(diag.PathIsDir, abs, "is the area of the write area, not a file in it")
	}
	comps := strings.Split(abs[len(area)+1:], "/")
	for _, c := range comps {
		if root.AlwaysExcluded(c) {
			return nil, warnf(diag.PathNotWritable, abs, "inside %s/, which is never written", c)
		}
	}
	if area == f.ws && len(comps) == 1 && comps[0] == ".gitignore" {
		return nil, warnf(diag.PathNotWritable, abs, "the workspace's own .gitignore, which keeps its files out of git: never written, moved or deleted")
	}
	if !f.p.Policy().AllowSensitive {
		if pat := f.p.fsys.SensitiveMatch(f.p.fsys.Rel(abs), comps[len(comps)-1]); pat != "" {
			return nil, warnf(diag.PathSensitive, abs, "sensitive name (matches %q): never written", pat)
		}
	}
	return &target{abs: abs, root: area, comps: comps}, nil
}

// workspaceHint names where in the workspace a refused write of abs could
// go: the same path below the workspace, relative to the project dir (as
// a relative path of the base dir when the base is the project dir,
// absolute otherwise).
func (f *FS) workspaceHint(abs string) string {
	r, rel := f.p.rootOf(abs)
	if r != f.p.roots[0] || rel == "." || root.AlwaysExcludedDir(rel) != "" {
		return ""
	}
	in := filepath.Join(f.ws, filepath.FromSlash(rel))
	if f.base == f.p.dir && root.Within(f.p.dir, in) {
		in = f.p.fsys.Rel(in)
	}
	return "; write " + in + " instead"
}

func (f *FS) rootsNote() string {
	if len(f.roots) == 0 {
		return " (no write root is configured)"
	}
	return " and the write roots " + strings.Join(f.roots, ", ")
}

// openParent opens the directory that holds t's last component, each
// component without following a symbolic link; with create, missing
// directories are made (the workspace itself with a .gitignore).
func (f *FS) openParent(t *target, create bool) (*state.Dir, error) {
	return f.openDir(t.root, t.comps[:len(t.comps)-1], create)
}

// openDir opens the directory comps below root (see openParent).
func (f *FS) openDir(root string, comps []string, create bool) (*state.Dir, error) {
	var d *state.Dir
	var err error
	if root == f.ws && create {
		d, err = state.Make(root)
	} else {
		d, err = state.Open(root)
	}
	if err != nil {
		return nil, err
	}
	for _, c := range comps {
		next, _, err := d.SubDir(c, create)
		d.Close()
		if err != nil {
			return nil, err
		}
		d = next
	}
	return d, nil
}

// refusal turns the failure of a write step on t into a warning.
func refusal(abs string, err error) *diag.Warning {
	var w *diag.Warning
	if errors.As(err, &w) {
		return w
	}
	var se *state.UnsafeError
	if errors.As(err, &se) {
		return warnf(diag.WriteUnsafe, se.Path, "%s: nothing was written", se.Reason)
	}
	var tl *state.TooLargeError
	if errors.As(err, &tl) {
		return warnf(diag.FileTooLarge, abs, "%d bytes, over the %d-byte cap", tl.Size, tl.Limit)
	}
	switch {
	case errors.Is(err, syscall.ENOTEMPTY):
		// Before ErrExist, which ENOTEMPTY also is to errors.Is.
		return warnf(diag.PathIsDir, abs, "is a directory that is not empty: delete its files first")
	case errors.Is(err, fs.ErrExist):
		return warnf(diag.FileExists, abs, "already exists (ask to overwrite it)")
	case errors.Is(err, syscall.EXDEV):
		return warnf(diag.PathUnreadable, abs, "source and destination are on different file systems")
	}
	code, msg := root.ClassifyErr(err)
	return warnf(code, abs, "%s", msg)
}

// checkWritable refuses what stands at name in d unless it is nothing or
// a regular file of one link; it returns what is there (ok false when
// nothing is).
func checkWritable(d *state.Dir, name, abs string) (state.NameInfo, bool, *diag.Warning) {
	st, err := d.Lstat(name)
	if errors.Is(err, fs.ErrNotExist) {
		return state.NameInfo{}, false, nil
	}
	if err != nil {
		return state.NameInfo{}, false, refusal(abs, err)
	}
	switch {
	case st.Mode.IsDir():
		return st, true, warnf(diag.PathIsDir, abs, "is a directory")
	case st.Mode&fs.ModeSymlink != 0:
		return st, true, warnf(diag.WriteUnsafe, abs, "is a symbolic link: never written through nor replaced")
	case !st.Mode.IsRegular():
		return st, true, warnf(diag.PathSpecialFile, abs, "special file (%s): never opened", root.KindName(st.Mode))
	case st.Links > 1:
		return st, true, warnf(diag.WriteUnsafe, abs, "a file with %d links (a hard link): never written", st.Links)
	}
	return st, true, nil
}

// backupName is a new name in .taskctl/backups/ for a copy of abs: the
// time, a random part, then backupSuffix(abs), so that the backups of one
// file can be found (and sorted by time) by name alone.
func backupName(abs string) string {
	var b [4]byte
	_, _ = rand.Read(b[:])
	return time.Now().UTC().Format("20060102T150405.000000000Z") + "-" + hex.EncodeToString(b[:]) + backupSuffix(abs)
}

// backupSuffix ends the name of every backup of abs: a tag of its path
// (8 hex digits of its sha256) and its base name.
func backupSuffix(abs string) string {
	sum := sha256.Sum256([]byte(abs))
	base := filepath.Base(abs)
	if len(base) > 180 {
		base = base[:180]
	}
	return "-" + hex.EncodeToString(sum[:4]) + "-" + base
}

// BackupsKept is how many backups of one file .taskctl/backups/ keeps:
// the oldest beyond it are removed when a new one is made (five overwrites
// of a 9.9 MiB file used to leave 50 MB).
const BackupsKept = 5

// A Backup is one kept copy of a file.
type Backup struct {
	Name    string // in .taskctl/backups/
	Path    string // absolute
	Size    int64
	ModTime time.Time
}

// backupsOf lists the backups of abs in bd, oldest first.
func backupsOf(bd *state.Dir, abs string) ([]Backup, error) {
	ents, err := bd.ReadDir()
	if err != nil {
		return nil, err
	}
	suffix := backupSuffix(abs)
	var out []Backup
	for _, e := range ents {
		if !strings.HasSuffix(e.Name(), suffix) || len(e.Name()) == len(suffix) {
			continue
		}
		st, err := bd.Lstat(e.Name())
		if err != nil || !st.Mode.IsRegular() {
			continue
		}
		out = append(out, Backup{Name: e.Name(), Path: filepath.Join(bd.Path(), e.Name()), Size: st.Size, ModTime: st.ModTime})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// pruneBackups removes the backups of abs beyond the newest BackupsKept.
func pruneBackups(bd *state.Dir, abs string) {
	all, err := backupsOf(bd, abs)
	if err != nil {
		return // kept: a failed cleanup never fails the write
	}
	for len(all) > BackupsKept {
		_ = bd.RemoveFile(all[0].Name)
		all = all[1:]
	}
}

// ListBackups lists the backups of the file s of the write area (which
// need not exist any more), oldest first.
func (f *FS) ListBackups(s string) (string, []Backup, *diag.Warning) {
	t, w := f.writeTarget(s)
	if w != nil {
		return "", nil, w
	}
	bd, err := f.backups()
	if err != nil {
		return "", nil, refusal(t.abs, err)
	}
	defer bd.Close()
	all, err := backupsOf(bd, t.abs)
	if err != nil {
		return "", nil, refusal(t.abs, err)
	}
	return t.abs, all, nil
}

// RestoreBackup writes the backup name of the file s back to s, keeping
// what s holds now as a backup. name must be a backup of s.
func (f *FS) RestoreBackup(s, name string) (*WriteResult, *diag.Warning) {
	t, w := f.writeTarget(s)
	if w != nil {
		return nil, w
	}
	if strings.ContainsAny(name, "/\\\x00") || !strings.HasSuffix(name, backupSuffix(t.abs)) || len(name) == len(backupSuffix(t.abs)) {
		return nil, warnf(diag.PathNotFound, t.abs, "%s is not a backup of this file (list_backups names them)", root.Quote(name))
	}
	bd, err := f.backups()
	if err != nil {
		return nil, refusal(t.abs, err)
	}
	data, err := bd.ReadFile(name, f.p.Policy().MaxFileBytes)
	bd.Close()
	if err != nil {
		return nil, refusal(filepath.Join(f.p.dir, WorkspaceName, "backups", name), err)
	}
	return f.writeAt(t, data, true, true)
}

// backups opens <project>/.taskctl/backups, made if missing.
func (f *FS) backups() (*state.Dir, error) {
	return state.Make(filepath.Join(f.p.dir, WorkspaceName, "backups"))
}
