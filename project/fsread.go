package project

import (
	"io/fs"
	"path"
	"strings"
	"time"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/taskctl/taskctl/internal/diag"
	"github.com/taskctl/taskctl/root"
	"github.com/taskctl/taskctl/state"
)

// An Entry is a file or directory as FS.Stat and FS.List see it: what
// lstat says, no symbolic link followed.
type Entry struct {
	Name    string
	Path    string // absolute
	Rel     string // relative to the directory listed (List), or to the project dir (Stat)
	Type    string // "file", "directory", "symlink", "fifo", "socket", "device"
	Size    int64
	ModTime time.Time
	Mode    fs.FileMode
	Hidden  bool // the name starts with "."
}

func entryOf(name, abs, rel string, st state.NameInfo) Entry {
	return Entry{Name: name, Path: abs, Rel: rel, Type: typeName(st.Mode), Size: st.Size,
		ModTime: st.ModTime, Mode: st.Mode, Hidden: strings.HasPrefix(name, ".")}
}

func typeName(m fs.FileMode) string {
	switch {
	case m.IsRegular():
		return "file"
	case m.IsDir():
		return "directory"
	case m&fs.ModeSymlink != 0:
		return "symlink"
	case m&fs.ModeNamedPipe != 0:
		return "fifo"
	case m&fs.ModeSocket != 0:
		return "socket"
	}
	return "device"
}

// readPlace is where a path given to a read leads: into the workspace
// (comps below it, none for the workspace itself), or into the project.
type readPlace struct {
	abs   string
	inWS  bool
	comps []string
}

// readTarget places s, a path relative to the base dir.
func (f *FS) readTarget(s string) (*readPlace, *diag.Warning) {
	if msg := root.CheckInput(s); msg != "" {
		return nil, warnf(diag.PathInvalid, s, "%s: %s", root.Quote(s), msg)
	}
	abs := cleanJoin(f.base, s)
	if !root.Within(f.ws, abs) {
		return &readPlace{abs: abs}, nil
	}
	rp := &readPlace{abs: abs, inWS: true}
	if abs != f.ws {
		rp.comps = strings.Split(abs[len(f.ws)+1:], "/")
		for _, c := range rp.comps {
			if root.AlwaysExcluded(c) {
				return nil, warnf(diag.PathIgnored, abs, "inside %s/, which is always excluded", c)
			}
		}
	}
	return rp, nil
}

// ReadFile reads the file s, a path as a user types it: a file of the
// project as Read reads it (the name rules apply: .git/, .taskctl/,
// sensitive names), or a file of the workspace, reached without following
// a symbolic link and read only if it is a regular file of one link.
func (f *FS) ReadFile(s string) (*root.File, *diag.Warning) {
	return f.readJudged(s, nil)
}

// ReadRange reads the part win of the file s, as ReadFile reads a whole
// file (the same open, name rules and content policy, applied to the part
// read), on files over the whole-file cap too; at most the cap's worth is
// returned (File.Cut).
func (f *FS) ReadRange(s string, win root.Window) (*root.File, *diag.Warning) {
	return f.readJudged(s, &win)
}

// readJudged is readFile and the content policy.
func (f *FS) readJudged(s string, win *root.Window) (*root.File, *diag.Warning) {
	file, w := f.readFile(s, win)
	if w != nil {
		return nil, w
	}
	// The content policy, decided here once for every file operation
	// (fs read, read_file, copy_file): a file holding a secret is
	// refused, unless the policy redacts secrets, where the caller shows
	// it redacted (File.Judged).
	jc := f.p.fsys.JudgeContent(file.Content)
	file.Judged = &jc
	if file.Around != nil && !jc.Binary {
		// A range: a secret its edge cuts is not found in it, so its
		// surroundings are judged too; one found there and not in the
		// range refuses it, whatever the policy (it cannot be redacted).
		if ja := f.p.fsys.JudgeContent(file.Around); len(ja.Secrets) > len(jc.Secrets) {
			return nil, warnf(diag.SecretDetected, file.Path, "%s at or within %d bytes of the range's edge (a secret is never read a piece at a time)",
				ja.SecretReason(), root.WindowMargin)
		}
	}
	if jc.HoldsSecret() && !f.p.Policy().RedactSecrets {
		return nil, warnf(diag.SecretDetected, file.Path, "%s (assemble leaves it out too)", jc.SecretReason())
	}
	return file, nil
}

// readFile is ReadFile before the content policy.
func (f *FS) readFile(s string, win *root.Window) (*root.File, *diag.Warning) {
	rp, w := f.readTarget(s)
	if w != nil {
		return nil, w
	}
	if !rp.inWS {
		// s was checked once, by readTarget: resolved and read without
		// checking it again (it was checked three times).
		c, w := f.p.resolveChecked(f.base, s)
		if w != nil {
			return nil, w
		}
		return f.p.fsys.ReadResolved(c.Path, win)
	}
	if len(rp.comps) == 0 {
		return nil, warnf(diag.PathIsDir, rp.abs, "is a directory")
	}
	d, err := f.openDir(f.ws, rp.comps[:len(rp.comps)-1], false)
	if err != nil {
		return nil, refusal(rp.abs, err)
	}
	defer d.Close()
	return f.readIn(d, rp.comps[len(rp.comps)-1], rp.abs, true, win)
}

// Stat says what s is (a path as a user types it), without following a
// symbolic link in the workspace; in the project, symbolic links are
// resolved as every read resolves them and the real path is described.
// A missing file is a PATH_NOT_FOUND warning.
func (f *FS) Stat(s string) (*Entry, *diag.Warning) {
	rp, w := f.readTarget(s)
	if w != nil {
		return nil, w
	}
	if !rp.inWS {
		res, w := f.p.resolve(f.base, s)
		if w != nil {
			return nil, w
		}
		rel, w := f.p.checkNameRel(res, s)
		if w != nil {
			return nil, w
		}
		st := state.NameInfo{Name: path.Base(res.real), Mode: res.info.Mode(), Size: res.info.Size(), ModTime: res.info.ModTime()}
		e := entryOf(st.Name, res.real, rel, st)
		return &e, nil
	}
	if len(rp.comps) == 0 {
		parent, err := state.Open(path.Dir(f.ws))
		if err != nil {
			return nil, refusal(rp.abs, err)
		}
		defer parent.Close()
		st, err := parent.Lstat(path.Base(f.ws))
		if err != nil {
			return nil, refusal(rp.abs, err)
		}
		e := entryOf(st.Name, rp.abs, f.p.fsys.Rel(rp.abs), st)
		return &e, nil
	}
	d, err := f.openDir(f.ws, rp.comps[:len(rp.comps)-1], false)
	if err != nil {
		return nil, refusal(rp.abs, err)
	}
	defer d.Close()
	st, err := d.Lstat(rp.comps[len(rp.comps)-1])
	if err != nil {
		return nil, refusal(rp.abs, err)
	}
	e := entryOf(st.Name, rp.abs, f.p.fsys.Rel(rp.abs), st)
	return &e, nil
}

// ListOptions say what List yields.
type ListOptions struct {
	Pattern       string // doublestar pattern on the name (on the path below the directory when it holds "/"); "" for all
	Recursive     bool
	IncludeHidden bool
	MaxDepth      int // with Recursive, how many levels (1 = the directory's own entries); 0 for no limit
	Limit         int // at most this many entries (0: the policy's MaxFiles)
	// namedNodeModules: the directory listed lies in node_modules/, which
	// naming it includes (set by List).
	namedNodeModules bool
}

// A Listing is what List found.
type Listing struct {
	Path      string // the directory, absolute
	Entries   []Entry
	Truncated bool // Limit was reached
	Warnings  []diag.Warning
}

// List lists the directory s (a path as a user types it): its entries,
// sorted by name, without following symbolic links (they are listed as
// such); in the project, .git/, .taskctl/ and what the .gitignore family
// or the policy excludes are left out, as from every directory named
// literally.
func (f *FS) List(s string, o ListOptions) (*Listing, *diag.Warning) {
	if o.Limit <= 0 {
		o.Limit = f.p.Policy().MaxFiles
	}
	if o.Pattern != "" && !doublestar.ValidatePattern(o.Pattern) {
		return nil, warnf(diag.PathInvalid, "", "bad pattern %s", root.Quote(o.Pattern))
	}
	rp, w := f.readTarget(s)
	if w != nil {
		return nil, w
	}
	var d *state.Dir
	var err error
	dir := rp.abs
	if rp.inWS {
		d, err = f.openDir(f.ws, rp.comps, false)
	} else {
		res, w := f.p.resolve(f.base, s)
		if w != nil {
			return nil, w
		}
		if _, w := f.p.checkNameRel(res, s); w != nil {
			return nil, w
		}
		if !res.info.IsDir() {
			return nil, warnf(diag.PathNotFound, res.real, "not a directory")
		}
		dir = res.real
		_, why := f.p.Ignored(f.p.fsys.Rel(dir), true)
		o.namedNodeModules = strings.HasPrefix(why, "node_modules/")
		d, err = state.Open(dir)
	}
	if err != nil {
		return nil, refusal(dir, err)
	}
	defer d.Close()
	l := &Listing{Path: dir, Entries: []Entry{}}
	f.listDir(l, d, dir, "", 1, rp.inWS, o)
	return l, nil
}

// listDir adds the entries of d (abs, rel below the listed directory, at
// depth) to l.
func (f *FS) listDir(l *Listing, d *state.Dir, abs, rel string, depth int, inWS bool, o ListOptions) {
	ents, err := d.ReadDir()
	if err != nil {
		l.Warnings = append(l.Warnings, *refusal(abs, err))
		return
	}
	for _, de := range ents {
		if l.Truncated {
			return
		}
		name := de.Name()
		full := joinReal(abs, name)
		erel := name
		if rel != "" {
			erel = rel + "/" + name
		}
		if msg := root.CheckWalkedName(name); msg != "" {
			l.Warnings = append(l.Warnings, diag.Warning{Code: diag.PathInvalid, Message: root.Quote(erel) + ": " + msg})
			continue
		}
		if root.AlwaysExcluded(name) || (!o.IncludeHidden && strings.HasPrefix(name, ".")) {
			continue
		}
		if f.p.fsys.NameHoldsSecret(erel) {
			continue // a name that is a secret is content (see ReadRefusal)
		}
		st, err := d.Lstat(name)
		if err != nil {
			continue // gone since the listing
		}
		if !inWS {
			if ign, why := f.p.Ignored(f.p.fsys.Rel(full), st.Mode.IsDir()); ign &&
				!(o.namedNodeModules && strings.HasPrefix(why, "node_modules/")) {
				continue
			}
		}
		if f.matches(o.Pattern, name, erel) {
			if len(l.Entries) >= o.Limit {
				l.Truncated = true
				return
			}
			l.Entries = append(l.Entries, entryOf(name, full, erel, st))
		}
		if st.Mode.IsDir() && o.Recursive && (o.MaxDepth == 0 || depth < o.MaxDepth) {
			sub, _, err := d.SubDir(name, false)
			if err != nil {
				l.Warnings = append(l.Warnings, *refusal(full, err))
				continue
			}
			f.listDir(l, sub, full, erel, depth+1, inWS, o)
			sub.Close()
		}
	}
}

func (f *FS) matches(pattern, name, rel string) bool {
	if pattern == "" {
		return true
	}
	if strings.Contains(pattern, "/") {
		ok, _ := doublestar.Match(pattern, rel)
		return ok
	}
	ok, _ := doublestar.Match(pattern, name)
	return ok
}

// IsNotFound reports whether w says a path does not exist.
func IsNotFound(w *diag.Warning) bool {
	return w != nil && w.Code == diag.PathNotFound
}
