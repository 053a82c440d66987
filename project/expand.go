package project

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/taskctl/taskctl/ignore"
	"github.com/taskctl/taskctl/internal/diag"
	"github.com/taskctl/taskctl/root"
	"github.com/taskctl/taskctl/walk"
)

// hasMeta reports whether s holds a glob metacharacter.
func hasMeta(s string) bool { return strings.ContainsAny(s, "*?[{") }

// resolved is a path that passed resolution: real path, root, rel in root.
type resolved struct {
	real string
	root *rootDir
	rel  string // relative to root, slash-separated, "." for the root itself
	info fs.FileInfo
}

// resolve turns s (already through checkInput) into a real path inside an
// allowed root, relative paths taken from base (absolute).
func (p *Project) resolve(base, s string) (*resolved, *diag.Warning) {
	return p.resolveKind(base, s, false)
}

// resolveKind is resolve; with typeOnly, the returned info may hold only the
// file's type (from a cached directory listing), which is all ResolveFrom
// needs.
func (p *Project) resolveKind(base, s string, typeOnly bool) (*resolved, *diag.Warning) {
	lexical := cleanJoin(base, s)
	real, st, err := p.evalCached(base, s, lexical, typeOnly)
	// One answer for every path that leads outside, whatever is there and
	// wherever a link points: the target is never named.
	outside := func() (*resolved, *diag.Warning) {
		return nil, warnf(diag.PathOutsideProject, lexical, "%s is outside the project dir %s", root.Quote(s), p.dir)
	}
	if err != nil {
		if r, _ := p.rootOf(filepath.Clean(real)); r == nil {
			return outside()
		}
		code, msg := root.ClassifyErr(err)
		return nil, warnf(code, lexical, "%s", msg)
	}
	r, rel := p.rootOf(real)
	if r == nil {
		return outside()
	}
	// st is an lstat of the real path, which holds no symlink; the
	// authoritative check is Read's, through the os.Root.
	return &resolved{real: real, root: r, rel: rel, info: st}, nil
}

// cleanJoin is filepath.Clean(base + "/" + s) (s itself when absolute) for
// a clean absolute base, without Clean's copy when s is a plain relative
// path, as most command output is ("./a/b.go", "a/b.go").
func cleanJoin(base, s string) string {
	if strings.HasPrefix(s, "/") {
		return filepath.Clean(s)
	}
	rest := s
	for strings.HasPrefix(rest, "./") {
		rest = rest[2:]
	}
	if !isCleanRel(rest) {
		return filepath.Clean(base + "/" + s)
	}
	if base == "/" {
		return "/" + rest
	}
	return base + "/" + rest
}

// isCleanRel reports whether s is a non-empty relative path that
// filepath.Clean leaves as it is and that has no ".." component.
func isCleanRel(s string) bool {
	if s == "" || s[0] == '/' || s[len(s)-1] == '/' {
		return false
	}
	start := 0
	for i := 0; i <= len(s); i++ {
		if i < len(s) && s[i] != '/' {
			continue
		}
		switch s[start:i] {
		case "", ".", "..":
			return false
		}
		start = i + 1
	}
	return true
}

// hasDotDot reports whether the path p has a ".." component.
func hasDotDot(p string) bool {
	for i := 0; ; {
		j := strings.Index(p[i:], "..")
		if j < 0 {
			return false
		}
		j += i
		if (j == 0 || p[j-1] == '/') && (j+2 == len(p) || p[j+2] == '/') {
			return true
		}
		i = j + 1
	}
}

// splitDir splits the clean absolute path p (not "/") into its directory
// and last element, as filepath.Dir and filepath.Base would.
func splitDir(p string) (dir, base string) {
	i := strings.LastIndexByte(p, '/')
	if i == 0 {
		return "/", p[1:]
	}
	return p[:i], p[i+1:]
}

// joinReal joins a name onto a clean absolute directory.
func joinReal(dir, name string) string {
	if dir == "/" {
		return "/" + name
	}
	return dir + "/" + name
}

// evalCached is evalPath through a cache of directory resolutions
// (p.dirs): a path costs one lstat of its last component once its
// directory is known, and a directory one lstat once its parent is. Paths
// with ".." are evaluated in full (after a symlink, ".." is not lexical), and
// so is anything unusual — a symlink, an error — so results and errors are
// exactly evalPath's. The path is s, relative to the clean absolute dir
// base unless absolute; clean is cleanJoin(base, s). It also returns the
// lstat of the real path.
func (p *Project) evalCached(baseDir, s, clean string, typeOnly bool) (string, fs.FileInfo, error) {
	full := func() (string, fs.FileInfo, error) {
		abs := s
		if !strings.HasPrefix(s, "/") {
			abs = baseDir + "/" + s
		}
		real, err := p.fsys.Eval(abs)
		if err != nil {
			return real, nil, err
		}
		st, err := os.Lstat(real)
		return real, st, err
	}
	// baseDir is clean, so only s can hold a "..".
	if clean == "/" || hasDotDot(s) {
		return full()
	}
	dir, base := splitDir(clean)
	dr, ok := p.evalDir(dir)
	if !ok {
		return full()
	}
	next := clean // the directory is real as it is: no copy
	if dr != dir {
		next = joinReal(dr, base)
	}
	var st fs.FileInfo
	if typeOnly {
		if mode, ok := p.listed(dr, base); ok {
			st = typeInfo{name: base, mode: mode}
		}
	}
	if st == nil && typeOnly {
		mode, err := root.LstatType(next)
		if err != nil {
			return full()
		}
		st = typeInfo{name: base, mode: mode}
	}
	if st == nil {
		var err error
		if st, err = os.Lstat(next); err != nil {
			return full()
		}
	}
	if st.Mode()&fs.ModeSymlink != 0 {
		return full()
	}
	if strings.HasSuffix(s, "/") && !st.IsDir() {
		return next, nil, root.ErrNotDir
	}
	return next, st, nil
}

// dirListing is the names and types of one real directory, read once it
// has been asked about often enough to be worth it.
type dirListing struct {
	asked atomic.Int32
	once  sync.Once
	types map[string]fs.FileMode
	ready atomic.Bool // types is set
}

// listThreshold is how many lookups in one directory are made with lstat
// before its listing is read (one getdents answers the rest).
const listThreshold = 3

// listed returns the type of name in the real directory dir from its
// listing, once the directory has had listThreshold lookups. ok is false
// when the listing is not read yet, cannot be read, or does not hold name.
func (p *Project) listed(dir, name string) (fs.FileMode, bool) {
	v, ok := p.lists.Load(dir)
	if !ok {
		v, _ = p.lists.LoadOrStore(dir, &dirListing{})
	}
	l := v.(*dirListing)
	if l.asked.Add(1) <= listThreshold {
		return 0, false
	}
	l.once.Do(func() {
		buf, _ := p.direntBufs.Get().(*[]byte)
		if buf == nil {
			buf = new([]byte)
		}
		l.types, _ = root.ListTypes(dir, buf)
		l.ready.Store(true)
		p.direntBufs.Put(buf)
	})
	mode, ok := l.types[name]
	if mode&fs.ModeIrregular != 0 {
		return 0, false // the file system did not say: lstat it
	}
	return mode, ok
}

// typeInfo is a FileInfo that knows only a name and a type.
type typeInfo struct {
	name string
	mode fs.FileMode
}

func (t typeInfo) Name() string       { return t.name }
func (t typeInfo) Size() int64        { return 0 }
func (t typeInfo) Mode() fs.FileMode  { return t.mode }
func (t typeInfo) ModTime() time.Time { return time.Time{} }
func (t typeInfo) IsDir() bool        { return t.mode.IsDir() }
func (t typeInfo) Sys() any           { return nil }

// evalDir returns the real path of the clean absolute directory dir, from
// the cache or from its parent's plus one lstat. ok is false when dir is not
// a plain directory reachable that way (the caller then evaluates in full).
// Each directory is evaluated once, however many goroutines ask for it at
// the same time.
func (p *Project) evalDir(dir string) (string, bool) {
	if dir == "/" {
		return "/", true
	}
	v, ok := p.dirs.Load(dir)
	if !ok {
		v, _ = p.dirs.LoadOrStore(dir, &dirEval{})
	}
	e := v.(*dirEval)
	e.once.Do(func() { e.real, e.ok = p.evalDirOnce(dir) })
	return e.real, e.ok
}

// dirEval is one directory's entry in p.dirs.
type dirEval struct {
	once sync.Once
	real string
	ok   bool
}

func (p *Project) evalDirOnce(dir string) (string, bool) {
	switch p.fsys.Where(dir) {
	case 0:
		return "", false // nothing outside is looked at: evalPath decides
	case 2:
		return dir, true // an ancestor of a root: a real directory
	}
	parent, name := splitDir(dir)
	pr, ok := p.evalDir(parent)
	if !ok {
		return "", false
	}
	next := joinReal(pr, name)
	// A listing of the parent, if one was read, says whether next is a
	// directory (not a symlink to one) without an lstat.
	if v, ok := p.lists.Load(pr); ok {
		if l := v.(*dirListing); l.ready.Load() && l.types[name] == fs.ModeDir {
			return next, true
		}
	}
	mode, err := root.LstatType(next)
	if err != nil {
		return "", false
	}
	real := next
	switch {
	case mode&fs.ModeSymlink != 0:
		if real, err = p.fsys.Eval(next); err != nil {
			return "", false
		}
		if st, err := os.Stat(real); err != nil || !st.IsDir() {
			return "", false
		}
	case !mode.IsDir():
		return "", false
	}
	return real, true
}

// checkName applies the name rules to a file: .git/ and .taskctl/ anywhere
// in its path relative to its root, the policy's Exclude patterns, and the
// sensitive names (of the file and of the name it was given by).
func (p *Project) checkName(res *resolved, given string) *diag.Warning {
	_, w := p.checkNameRel(res, given)
	return w
}

// checkNameRel is checkName that also returns res.real relative to the
// project dir (see root.Root.CheckName).
func (p *Project) checkNameRel(res *resolved, given string) (string, *diag.Warning) {
	return p.fsys.CheckName(res.real, res.rel, given)
}

// fileKind refuses what is not a regular file.
func fileKind(res *resolved) *diag.Warning { return root.FileKind(res.real, res.info.Mode()) }

// ResolveFrom resolves one plain path, as a command printed it while
// running in dir (absolute): absolute paths as they are, others relative to
// dir. Glob characters are taken literally. The rules are those of a path
// named explicitly: the .gitignore family and node_modules/ do not apply, the
// policy's name rules do (.git/, .taskctl/, Exclude, sensitive names), and
// the path must be a regular file (a directory gives PATH_IS_DIR).
func (p *Project) ResolveFrom(dir, s string) (Candidate, *diag.Warning) {
	if msg := root.CheckInput(s); msg != "" {
		return Candidate{}, warnf(diag.PathInvalid, s, "%s: %s", root.Quote(s), msg)
	}
	return p.resolveChecked(dir, s)
}

// resolveChecked is ResolveFrom for an input s already checked
// (checkInput): the file operations check a path once, where it enters.
func (p *Project) resolveChecked(dir, s string) (Candidate, *diag.Warning) {
	if !filepath.IsAbs(dir) {
		return Candidate{}, warnf(diag.PathInvalid, s, "base directory %s is not absolute", root.Quote(dir))
	}
	res, w := p.resolveKind(filepath.Clean(dir), s, true)
	if w != nil {
		return Candidate{}, w
	}
	if w := fileKind(res); w != nil {
		return Candidate{}, w
	}
	rel, w := p.checkNameRel(res, s)
	if w != nil {
		return Candidate{}, w
	}
	return Candidate{Path: res.real, Rel: rel, Spec: s}, nil
}

// globSpec is one glob, or one directory named literally, to match in the
// walk of one root.
type globSpec struct {
	spec    string
	root    *rootDir
	start   string // directory to walk, relative to root ("" for the root)
	pattern string // doublestar pattern relative to root; "" with all
	segs    []string
	all     bool // everything under start matches
	allowNM bool // names node_modules: may see inside it
	fresh   bool // a named directory that is itself ignored: only rules from start down apply
	isDir   bool // a directory named literally
	count   int
}

// under reports whether rel lies strictly below start.
func under(start, rel string) bool {
	if start == "" {
		return true
	}
	return len(rel) > len(start) && rel[len(start)] == '/' && rel[:len(start)] == start
}

func (g *globSpec) matchFile(rel string, inNM bool) bool {
	if inNM && !g.allowNM || !under(g.start, rel) {
		return false
	}
	return g.all || doublestar.MatchUnvalidated(g.pattern, rel)
}

// couldHold reports whether directory rel (at or below start) can hold a
// match.
func (g *globSpec) couldHold(rel string) bool {
	if g.all || g.segs == nil {
		return true
	}
	i := 0
	for len(rel) > 0 {
		seg := rel
		if k := strings.IndexByte(rel, '/'); k >= 0 {
			seg, rel = rel[:k], rel[k+1:]
		} else {
			rel = ""
		}
		if i >= len(g.segs)-1 {
			return false // files match the last segment; no deeper dir can
		}
		if g.segs[i] == "**" {
			return true
		}
		if !doublestar.MatchUnvalidated(g.segs[i], seg) {
			return false
		}
		i++
	}
	return true
}

func hasSeg(p, seg string) bool {
	for _, s := range strings.Split(p, "/") {
		if s == seg {
			return true
		}
	}
	return false
}

// escapeMeta escapes glob metacharacters of a literal path.
func escapeMeta(s string) string {
	if !strings.ContainsAny(s, `*?[]{}\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if strings.IndexByte(`*?[]{}\`, s[i]) >= 0 {
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// compileGlob resolves a glob's literal base directory and anchors the
// pattern to the root that directory lies in.
// specBase is the directory a path spec of a template is taken from
// (DESIGN §2): "./p", "../p", "." and ".." from the working dir (the
// user's "here"), any other relative path or glob from the project dir, so
// that what a template selects does not depend on where it is run from.
func (p *Project) specBase(s string) string {
	if s == "." || s == ".." || strings.HasPrefix(s, "./") || strings.HasPrefix(s, "../") {
		return p.workingDir
	}
	return p.dir
}

func (p *Project) compileGlob(s string) (*globSpec, *diag.Warning) {
	anchor := p.specBase(s)
	if strings.HasPrefix(s, "/") {
		anchor = ""
	}
	base, pat := doublestar.SplitPattern(s)
	if hasSeg(pat, "..") {
		return nil, warnf(diag.PathInvalid, s, "glob %s: \"..\" after a glob metacharacter is not allowed", root.Quote(s))
	}
	if !doublestar.ValidatePattern(pat) {
		return nil, warnf(diag.PathInvalid, s, "glob %s: bad pattern", root.Quote(s))
	}
	baseAbs := base
	if anchor != "" {
		baseAbs = anchor + "/" + base
	}
	lexical := filepath.Clean(baseAbs)
	real, err := p.fsys.Eval(baseAbs)
	if err != nil {
		if r, _ := p.rootOf(filepath.Clean(real)); r == nil {
			return nil, warnf(diag.PathOutsideProject, lexical, "glob %s: its base directory lies outside the project dir %s", root.Quote(s), p.dir)
		}
		_, msg := root.ClassifyErr(err)
		return nil, warnf(diag.GlobNoMatch, lexical, "glob %s matched no file: its base directory: %s", root.Quote(s), msg)
	}
	r, rel := p.rootOf(real)
	if r == nil {
		return nil, warnf(diag.PathOutsideProject, lexical, "glob %s: its base directory lies outside the project dir %s", root.Quote(s), p.dir)
	}
	if st, err := os.Lstat(real); err != nil || !st.IsDir() {
		return nil, warnf(diag.GlobNoMatch, lexical, "glob %s matched no file: its base is not a directory", root.Quote(s))
	}
	g := &globSpec{spec: s, root: r}
	full := pat
	if rel != "." {
		g.start = rel
		full = escapeMeta(rel) + "/" + pat
	}
	g.pattern = full
	g.allowNM = hasSeg(full, "node_modules")
	g.all = pat == "**" || pat == "**/*"
	if !strings.Contains(full, "{") {
		g.segs = strings.Split(full, "/")
	}
	if g.start != "" {
		if ign, why := p.ignoredIn(r, g.start, true, g.allowNM); ign {
			return nil, warnf(diag.GlobNoMatch, real, "glob %s matched no file: its base directory is ignored (%s)", root.Quote(s), why)
		}
	}
	return g, nil
}

// linkToIgnored refuses the target of a symlink met by a glob or a walk at
// path when the ignore rules leave the target out: the link's own name was
// admitted, but a walk must not take through it what it would not take
// directly. (A link named explicitly, like an ignored file named
// explicitly, is taken.)
func (p *Project) linkToIgnored(res *resolved, path string, allowNM bool) *diag.Warning {
	if ign, why := p.ignoredIn(res.root, res.rel, false, allowNM); ign {
		return warnf(diag.PathIgnored, path, "a symlink to %s, which is ignored (%s)", res.real, why)
	}
	return nil
}

// ignoredIn is Ignored for any root; allowNM lets node_modules through.
func (p *Project) ignoredIn(r *rootDir, rel string, isDir, allowNM bool) (bool, string) {
	comps := strings.Split(rel, "/")
	for i, c := range comps {
		if root.AlwaysExcluded(c) {
			return true, "always excluded: " + c + "/"
		}
		if !allowNM && isNodeModules(c) && (i < len(comps)-1 || isDir) {
			return true, "node_modules/ (name it explicitly to include it)"
		}
	}
	if pat := p.fsys.ExcludedPath(p.fsys.Rel(filepath.Join(r.d.Path(), rel))); pat != "" {
		return true, "policy exclude: " + pat
	}
	if ign, rule := r.ignore.Match(rel, isDir); ign {
		return true, explain(rule)
	}
	return false, ""
}

// Expand resolves the specs of one source: literal paths (DESIGN §2:
// absolute as they are; "./p", "../p" against the working dir, bare
// relative paths against the project dir) and globs (doublestar syntax; a
// glob starting with "./" or "../" against the working dir, an absolute one
// as it is, any other against the project dir). A caller with paths a user
// typed (bare ones meant from the working dir) makes them absolute first.
//
//   - A literal file is taken even if the .gitignore family ignores it; the
//     policy's name rules still apply (.git/, .taskctl/, Exclude, sensitive
//     names). A spec with glob characters that names an existing path
//     literally (e.g. "app/[id]/page.tsx") is taken literally.
//   - A literal directory ("src" or "src/") stands for the files under it
//     that the ignore rules let through; if the directory itself is ignored,
//     only the ignore files inside it apply.
//   - Globs skip ignored files, never enter .git/, .taskctl/ or (unless the
//     pattern names it) node_modules/, and do not follow symlinked
//     directories; a symlinked file they match is taken at its real path if
//     that lies inside an allowed root.
//
// All globs and directories share one walk of the tree. The result holds the
// literal files in the order given, then every file globs and directories
// yielded, sorted by Rel; each real path appears once. At most
// Policy.MaxFiles candidates are returned (one TOO_MANY_FILES warning says
// how many were dropped). Every refusal is a Warning; none is fatal. If ctx
// is cancelled the walk stops and the candidates found so far are returned
// with a warning.
func (p *Project) Expand(ctx context.Context, specs []string) ([]Candidate, []diag.Warning) {
	var out []Candidate
	var warns []diag.Warning
	seen := make(map[string]bool)
	var globs []*globSpec
	for _, s := range specs {
		if msg := root.CheckInput(s); msg != "" {
			warns = append(warns, *warnf(diag.PathInvalid, s, "%s: %s", root.Quote(s), msg))
			continue
		}
		var res *resolved
		var w *diag.Warning
		base := p.specBase(s)
		if hasMeta(s) {
			res, w = p.resolve(base, s)
			if w != nil {
				g, gw := p.compileGlob(s)
				if gw != nil {
					warns = append(warns, *gw)
				} else {
					globs = append(globs, g)
				}
				continue
			}
		} else if res, w = p.resolve(base, s); w != nil {
			warns = append(warns, *w)
			continue
		}
		if res.info.IsDir() {
			g, w := p.dirSpec(s, res)
			if w != nil {
				warns = append(warns, *w)
			} else {
				globs = append(globs, g)
			}
			continue
		}
		if w := fileKind(res); w != nil {
			warns = append(warns, *w)
			continue
		}
		if w := p.checkName(res, s); w != nil {
			warns = append(warns, *w)
			continue
		}
		if !seen[res.real] {
			seen[res.real] = true
			out = append(out, Candidate{Path: res.real, Rel: p.fsys.Rel(res.real), Spec: s})
		}
	}
	if len(globs) > 0 {
		found, links, gw := p.expandGlobs(ctx, globs)
		warns = append(warns, gw...)
		// Regular files a walk yields are distinct; only files reached
		// through a symlink, or named literally too, can repeat.
		if out == nil && !links {
			out = found // globs only, no symlink: taken as the walks made it
		} else {
			for _, f := range found {
				if !seen[f.Path] {
					seen[f.Path] = true
					out = append(out, f)
				}
			}
		}
	}
	if max := p.Policy().MaxFiles; len(out) > max {
		warns = append(warns, diag.Warning{Code: diag.TooManyFiles,
			Message: fmt.Sprintf("%d files matched; kept the first %d (max files per source)", len(out), max)})
		out = out[:max:max]
	}
	return out, warns
}

// dirSpec turns a directory named literally into a walk of it.
func (p *Project) dirSpec(s string, res *resolved) (*globSpec, *diag.Warning) {
	g := &globSpec{spec: s, root: res.root, all: true, isDir: true}
	if res.rel != "." {
		g.start = res.rel
		for _, c := range strings.Split(res.rel, "/") {
			if root.AlwaysExcluded(c) {
				return nil, warnf(diag.PathIgnored, res.real, "inside %s/, which is always excluded", c)
			}
		}
		if pat := p.fsys.ExcludedPath(p.fsys.Rel(res.real)); pat != "" {
			return nil, warnf(diag.PathIgnored, res.real, "excluded by the policy pattern %q", pat)
		}
		g.allowNM = hasSeg(res.rel, "node_modules")
		if ign, _ := res.root.ignore.Match(res.rel, true); ign {
			g.fresh = true
		}
	}
	return g, nil
}

// expandGlobs runs the walks the globs need (one per root, plus one per
// ignored directory named literally) and returns the matches sorted by Rel,
// and whether any was reached through a symlink (and so may repeat
// another's path).
func (p *Project) expandGlobs(ctx context.Context, globs []*globSpec) ([]Candidate, bool, []diag.Warning) {
	type walkKey struct {
		root  *rootDir
		fresh string
	}
	groups := make(map[walkKey][]*globSpec)
	var keys []walkKey
	for _, g := range globs {
		k := walkKey{root: g.root}
		if g.fresh {
			k.fresh = g.start
		}
		if _, ok := groups[k]; !ok {
			keys = append(keys, k)
		}
		groups[k] = append(groups[k], g)
	}
	var all []Candidate
	var warns []diag.Warning
	links := false
	for _, k := range keys {
		f, l, w, err := p.walkGlobs(ctx, k.root, groups[k], k.fresh != "")
		links = links || l
		if all == nil {
			all = f // the one walk of most tasks: not copied
		} else {
			all = append(all, f...)
		}
		warns = append(warns, w...)
		if err != nil {
			warns = append(warns, diag.Warning{Code: diag.WalkStopped, Message: fmt.Sprintf("walk stopped: %v", err)})
			break
		}
	}
	slices.SortFunc(all, func(a, b Candidate) int { return strings.Compare(a.Rel, b.Rel) })
	for _, g := range globs {
		if g.count == 0 {
			what := "glob"
			if g.isDir {
				what = "directory"
			}
			warns = append(warns, diag.Warning{Code: diag.GlobNoMatch, Path: filepath.Join(g.root.d.Path(), g.start),
				Message: fmt.Sprintf("%s %s yielded no file (after ignore rules and policy)", what, root.Quote(g.spec))})
		}
	}
	sort.SliceStable(warns, func(i, j int) bool { return warns[i].Path < warns[j].Path })
	return all, links, warns
}

// walkGlobs walks one root once for a group of globs: the files it found,
// whether any through a symlink, and the warnings.
func (p *Project) walkGlobs(ctx context.Context, r *rootDir, specs []*globSpec, fresh bool) ([]Candidate, bool, []diag.Warning, error) {
	allowNM := false
	for _, g := range specs {
		allowNM = allowNM || g.allowNM
	}
	res := make([]globResult, walk.Workers())
	for i := range res {
		res[i].counts = make([]int, len(specs))
	}
	g := globWalk{p: p, r: r, specs: specs, allowNM: allowNM}
	err := walk.Run(ctx, r.tree, globStarts(r, specs, fresh), walk.Options{
		AllowNM: allowNM,
		Enter:   globsEnter(specs),
		File: func(w int, inNM bool, path, rel, name string, t fs.FileMode) {
			g.take(&res[w], inNM, path, rel, name, t)
		},
		DirErr: func(w int, full string, err error) {
			_, msg := root.ClassifyErr(err)
			res[w].warns = append(res[w].warns, *warnf(diag.PathUnreadable, full, "directory not read (%s): files under it are not listed", msg))
		},
	})
	n := 0
	for _, rs := range res {
		n += rs.found.len
	}
	out := make([]Candidate, 0, n)
	var warns []diag.Warning
	links := false
	for _, rs := range res {
		out = rs.found.appendTo(out)
		warns = append(warns, rs.warns...)
		links = links || rs.links
		for i, c := range rs.counts {
			specs[i].count += c
		}
	}
	return out, links, warns, err
}

// globStarts returns the directories a walk for specs starts from: the
// distinct starts, minus those below another, each with the ignore rules
// that apply inside it (with fresh, only its own).
func globStarts(r *rootDir, specs []*globSpec, fresh bool) []walk.Start {
	starts := make([]string, 0, len(specs))
	for _, g := range specs {
		starts = append(starts, g.start)
	}
	sort.Strings(starts)
	var roots []string
	for _, s := range starts {
		if len(roots) > 0 && (roots[len(roots)-1] == s || under(roots[len(roots)-1], s)) {
			continue
		}
		roots = append(roots, s)
	}
	var jobs []walk.Start
	for _, s := range roots {
		var ch *ignore.Stack
		if fresh {
			ch = ch.Push(r.ignore.Dir(s))
		} else {
			ch = r.ignore.Stack(s)
		}
		jobs = append(jobs, walk.Start{Rel: s, Rules: ch, InNM: hasSeg(s, "node_modules")})
	}
	return jobs
}

// globsEnter returns the walker's enter for specs: a directory is entered
// when some glob could match below it. It is nil (enter everything) when
// every spec takes all below its start.
func globsEnter(specs []*globSpec) func(rel string) bool {
	onlyAll := true
	for _, g := range specs {
		onlyAll = onlyAll && g.all
	}
	if onlyAll {
		return nil
	}
	return func(rel string) bool {
		for _, g := range specs {
			if (g.start == rel || under(g.start, rel)) && g.couldHold(rel) {
				return true
			}
			if under(rel, g.start) {
				return true
			}
		}
		return false
	}
}

// globResult is what one worker of a glob walk found.
type globResult struct {
	found  chunks[Candidate]
	links  bool // some of found were reached through a symlink
	warns  []diag.Warning
	counts []int // per spec: the files it matched
}

// chunks is a list that grows a block at a time: a worker's list of the
// files of a large tree is never copied as it grows, as append would copy
// it, several times over, into fresh memory.
type chunks[T any] struct {
	blocks [][]T
	len    int
}

const chunkLen = 512

func (c *chunks[T]) add(v T) {
	if k := len(c.blocks); k == 0 || len(c.blocks[k-1]) == chunkLen {
		c.blocks = append(c.blocks, make([]T, 0, chunkLen))
	}
	last := &c.blocks[len(c.blocks)-1]
	*last = append(*last, v)
	c.len++
}

// appendTo appends the list to dst.
func (c *chunks[T]) appendTo(dst []T) []T {
	for _, b := range c.blocks {
		dst = append(dst, b...)
	}
	return dst
}

// globWalk is a walk of root r for a group of globs.
type globWalk struct {
	p       *Project
	r       *rootDir
	specs   []*globSpec
	allowNM bool
}

// take decides for one entry (not a directory) that the ignore rules let
// through: counted for every spec that matches it, and found for the
// first, unless its name, the policy or its kind leaves it out with a
// warning.
func (g *globWalk) take(rs *globResult, inNM bool, path, rel, name string, t fs.FileMode) {
	p := g.p
	first := -1
	for i, s := range g.specs {
		if s.matchFile(rel, inNM) {
			rs.counts[i]++
			if first < 0 {
				first = i
			}
		}
	}
	if first < 0 {
		return
	}
	if msg := root.CheckWalkedName(rel); msg != "" {
		rs.warns = append(rs.warns, *warnf(diag.PathInvalid, path, "%s", msg))
		return
	}
	if !p.Policy().AllowSensitive {
		if pat := p.fsys.SensitiveMatch(rel, name); pat != "" {
			rs.warns = append(rs.warns, *root.SensitiveWarning(path, pat))
			return
		}
	}
	switch {
	case t.IsRegular():
		projRel := rel
		if g.r != p.roots[0] {
			projRel = p.fsys.Rel(path)
		}
		rs.found.add(Candidate{Path: path, Rel: projRel, Spec: g.specs[first].spec})
	case t&fs.ModeSymlink != 0:
		f, wn := g.link(path, rel)
		if wn != nil {
			rs.warns = append(rs.warns, *wn)
			return
		}
		if f != nil {
			f.Spec = g.specs[first].spec
			rs.found.add(*f)
			rs.links = true
		}
	default:
		rs.warns = append(rs.warns, *warnf(diag.PathSpecialFile, path, "special file (%s): never opened", root.KindName(t)))
	}
}

// link resolves a symlink a glob matched: its target, unless it is a
// directory (not followed: nil, nil) or the target is refused (a warning).
func (g *globWalk) link(path, rel string) (*Candidate, *diag.Warning) {
	p := g.p
	res, wn := p.resolve(g.r.d.Path(), rel)
	if wn != nil {
		return nil, wn
	}
	if res.info.IsDir() {
		return nil, nil // symlinked directories are not followed
	}
	if wn := fileKind(res); wn != nil {
		return nil, wn
	}
	if wn := p.checkName(res, rel); wn != nil {
		return nil, wn
	}
	if wn := p.linkToIgnored(res, path, g.allowNM); wn != nil {
		return nil, wn
	}
	return &Candidate{Path: res.real, Rel: p.fsys.Rel(res.real)}, nil
}
