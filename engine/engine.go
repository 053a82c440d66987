package engine

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/taskctl/taskctl/internal/diag"
	"github.com/taskctl/taskctl/memory"
	"github.com/taskctl/taskctl/project"
)

// Options say how to open a project.
type Options struct {
	// Cwd is the working dir ("": the process's). Relative paths a user
	// types resolve against it.
	Cwd string
	// ProjectDir overrides the detection of the project dir; relative, it
	// is relative to the process's working dir, not to Cwd.
	ProjectDir string
	// ConfigFile is read after the user's and the project's config.
	ConfigFile string
	// Overrides are the settings given for this invocation (the CLI's
	// flags), applied last.
	Overrides Overrides
	// Getenv reads the environment (XDG_CONFIG_HOME, HOME, NO_COLOR…);
	// nil is os.Getenv.
	Getenv func(string) string
	// Progress, when set, is told how far a long index build is.
	Progress func(done, total int)
	// Spell names a Field of a request or a setting as the door's users
	// know it (the CLI's flags, the MCP server's arguments), "" for one
	// the door does not have; nil: the field's own name.
	Spell func(Field) string
	// Command names the front door's operation ("index", "search"…); the
	// index service fails where it would fall back to memory when the
	// operation is the index itself.
	Command string
}

// Engine is one opened project for one operation (or a series of them by
// the same front door): the dirs, the merged settings, the project and its
// index. Each operation's warnings come back with its result.
type Engine struct {
	opts       Options
	getenv     func(string) string
	workingDir string
	argDir     string // what relative FILE arguments are relative to
	projectDir string // --project-dir, absolute
	// fromProject: relative paths of requests resolve against the project
	// dir (the MCP door, see ResolveFromProject).
	fromProject bool

	settings *Settings
	proj     *project.Project
	fs       *project.FS    // the file operations, opened once (see FS)
	fsWarns  []diag.Warning // what opening them said, repeated by every call
	ix       *memory.Index
	watched  bool // a watcher (index --watch) answered the index's refresh
	audit    *auditLog
	changes  *project.Watcher // a session's watch of the tree (see Session)
	// configWarns are what loading the settings said (ConfigWarnings):
	// written once, by Settings.
	configWarns warnings

	// facts for a front door's metadata (Meta)
	tokenizer  string
	tokenCache *TokenCache
}

// Open resolves the working dir and the project dir. A missing --cwd or
// --project-dir is a usage error. The settings and the project are opened
// on first use ([Engine.Settings], [Engine.Project]).
func Open(ctx context.Context, o Options) (*Engine, error) {
	e := &Engine{opts: o, getenv: o.Getenv}
	if e.getenv == nil {
		e.getenv = os.Getenv
	}
	wd := o.Cwd
	if wd == "" {
		var err error
		if wd, err = os.Getwd(); err != nil {
			return nil, fmt.Errorf("working dir: %w", err)
		}
	}
	abs, err := filepath.Abs(wd)
	if err != nil {
		return nil, UsageError("%s %s: %v", e.name(FieldCwd), wd, err)
	}
	if err := isDir(e.name(FieldCwd), wd, abs); err != nil {
		return nil, err
	}
	e.workingDir, e.argDir = abs, abs
	if o.ProjectDir != "" {
		// Like every path given on the command line, --project-dir is
		// relative to where taskctl was started, not to --cwd.
		p, err := filepath.Abs(o.ProjectDir)
		if err != nil {
			return nil, UsageError("%s %s: %v", e.name(FieldProjectDir), o.ProjectDir, err)
		}
		if err := isDir(e.name(FieldProjectDir), o.ProjectDir, p); err != nil {
			return nil, err
		}
		e.projectDir = p
		// Without --cwd, a working dir outside the given project would make
		// every relative path resolve outside it: work from the project dir.
		// FILE arguments stay relative to where taskctl was started, as the
		// user's shell (and its completion) sees them.
		if o.Cwd == "" && !within(e.workingDir, p) {
			e.workingDir = p
		}
	}
	return e, nil
}

func isDir(flag, given, abs string) error {
	st, err := os.Stat(abs)
	if err != nil {
		return UsageError("%s %s: no such directory", flag, given)
	}
	if !st.IsDir() {
		return UsageError("%s %s: not a directory", flag, given)
	}
	return nil
}

// WorkingDir is the absolute working dir.
func (e *Engine) WorkingDir() string { return e.workingDir }

// ArgPath makes a FILE argument absolute: relative to --cwd if given, else
// to the directory taskctl was started in.
func (e *Engine) ArgPath(p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(e.argDir, p)
}

// SpellWith makes the engine's messages name the fields of a request and
// the settings as spell does (Options.Spell): the MCP server, which serves
// an engine the CLI opened, names them as its arguments.
func (e *Engine) SpellWith(spell func(Field) string) { e.opts.Spell = spell }

// ResolveFromProject makes every relative path of a request (a file
// operation's path, read or written, a template or config file to assemble
// or validate) resolve against the project dir instead of the working dir:
// the rule of the MCP door, whose client has no working dir (DESIGN §2).
// Flags given when the engine was opened (--config, --workspace) keep
// their meaning.
func (e *Engine) ResolveFromProject() {
	e.fromProject = true
	e.fs, e.fsWarns = nil, nil // opened with the working dir as its base
}

// requestPath makes a path of a request absolute (see ResolveFromProject):
// on the command line as ArgPath does.
func (e *Engine) requestPath(p string) (string, error) {
	if filepath.IsAbs(p) || !e.fromProject {
		return e.ArgPath(p), nil
	}
	proj, err := e.Project()
	if err != nil {
		return "", err
	}
	return filepath.Join(proj.Dir(), p), nil
}

// within reports whether dir lies in root (or is root), by path components
// after evaluating symlinks.
func within(dir, root string) bool {
	if d, err := filepath.EvalSymlinks(dir); err == nil {
		dir = d
	}
	if r, err := filepath.EvalSymlinks(root); err == nil {
		root = r
	}
	rel, err := filepath.Rel(root, dir)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, "../") && !filepath.IsAbs(rel)
}

// Settings loads the effective settings once: the defaults, the user's
// config, the project's, --config, then the overrides. The project's config
// is found from the project dir, which is detected without opening the
// project.
func (e *Engine) Settings() (*Settings, error) {
	if e.settings != nil {
		return e.settings, nil
	}
	s := defaultSettings()
	// What loading said stays with the engine, the settings loaded or
	// not (a failure is reported with the warnings before it).
	e.configWarns = nil
	warn := e.configWarns.add
	if err := loadConfig(s, e.userConfigPath(), "", nil, warn); err != nil {
		return nil, err
	}
	projDir := e.projectDir
	if projDir == "" {
		// Markers from the user config take part in detection.
		if d, _, err := project.Detect(e.workingDir, s.Markers); err == nil {
			projDir = d
		}
	}
	if projDir != "" {
		// Every trust and origin decision is made on real paths: a
		// --project-dir through a symbolic link names the same config,
		// with the same trust, as the project's real path (which the
		// project, its workspace and 'taskctl trust' use).
		if real, err := filepath.EvalSymlinks(projDir); err == nil {
			projDir = real
		}
		// The project's own config is the repository's, not the user's
		// (DESIGN §3): trusted only as 'taskctl trust' recorded it.
		path := filepath.Join(projDir, ".taskctl", "config.xml")
		s.projectConfig = path
		trusted := func(data []byte) (bool, string) { return e.trusted(path, data) }
		read := func(path string) ([]byte, error) { return readIn(projDir, path) }
		if err := loadConfigWith(s, path, "", trusted, warn, read); err != nil {
			return nil, err
		}
	}
	if e.opts.ConfigFile != "" {
		if err := loadConfig(s, e.ArgPath(e.opts.ConfigFile), e.name(FieldConfig), nil, warn); err != nil {
			return nil, err
		}
	}
	s.applyOverrides(e.opts.Overrides)
	e.settings = s
	return s, nil
}

// userConfigPath is $XDG_CONFIG_HOME/taskctl/config.xml (or ~/.config/…).
func (e *Engine) userConfigPath() string {
	if dir := e.userConfigDir(); dir != "" {
		return filepath.Join(dir, "config.xml")
	}
	return ""
}

// userConfigDir is $XDG_CONFIG_HOME/taskctl (or ~/.config/taskctl), or ""
// when neither is set.
func (e *Engine) userConfigDir() string {
	if x := e.getenv("XDG_CONFIG_HOME"); x != "" && filepath.IsAbs(x) {
		return filepath.Join(x, "taskctl")
	}
	if h := e.getenv("HOME"); h != "" {
		return filepath.Join(h, ".config", "taskctl")
	}
	return ""
}

// Project opens the project once.
func (e *Engine) Project() (*project.Project, error) {
	if e.proj != nil {
		return e.proj, nil
	}
	cfg, err := e.Settings()
	if err != nil {
		return nil, err
	}
	p, err := project.Open(project.Options{
		WorkingDir: e.workingDir,
		ProjectDir: e.projectDir,
		Markers:    cfg.Markers,
		Policy:     cfg.Policy(),
	})
	if err != nil {
		return nil, fmt.Errorf("open project: %w", err)
	}
	e.proj = p
	return p, nil
}

// Dirs returns the working dir and the project dir, absolute whenever they
// can be known: an operation that fails before it opens the project (an
// invalid template, a task not found) still reports the dir detection (or
// --project-dir) gives.
func (e *Engine) Dirs() (cwd, root string) {
	if e.proj != nil {
		return e.workingDir, e.proj.Dir()
	}
	var markers []string
	if e.settings != nil {
		markers = e.settings.Markers
	}
	return e.workingDir, guessRoot(e.workingDir, e.opts.ProjectDir, markers)
}

// GuessDirs is [Engine.Dirs] for a front door whose Open failed (a usage
// error before, a --cwd that does not exist): cwd and projectDir as given.
// Only a --cwd that does not exist leaves root empty.
func GuessDirs(cwd, projectDir string) (string, string) {
	if cwd != "" {
		cwd, _ = filepath.Abs(cwd)
	} else {
		cwd, _ = os.Getwd()
	}
	if cwd == "" {
		return "", ""
	}
	return cwd, guessRoot(cwd, projectDir, nil)
}

func guessRoot(cwd, projectDir string, markers []string) string {
	if projectDir != "" {
		abs, err := filepath.Abs(projectDir)
		if err != nil {
			return ""
		}
		if real, err := filepath.EvalSymlinks(abs); err == nil {
			abs = real
		}
		return abs
	}
	if d, _, err := project.Detect(cwd, markers); err == nil {
		return d
	}
	return ""
}

// ReloadProject reads the project's ignore files again, if it is open: a
// workflow step's executor may have changed them.
func (e *Engine) ReloadProject() {
	if e.proj != nil {
		e.proj.Reload()
	}
}
