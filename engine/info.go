package engine

import (
	"runtime/debug"

	"github.com/taskctl/taskctl/schema"
)

// version is the release this source tree describes.
const version = "0.1.0"

// Version is taskctl's version: the module's, when the binary was built
// from a tagged module, else the release this source tree describes.
func Version() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return version
}

// Commit is the VCS revision taskctl was built from, as the Go toolchain
// records it in the build info (go build, go install from a checkout):
// its first 12 hex digits, "+dirty" when the tree had uncommitted changes,
// and "" when the build recorded none (go run, -buildvcs=false, a module
// download).
func Commit() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	var rev string
	var dirty bool
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		return ""
	}
	rev = rev[:min(12, len(rev))]
	if dirty {
		rev += "+dirty"
	}
	return rev
}

// RootResult is the three directories and the marker that decided the
// project dir ("none" when nothing did, "--project-dir" when it was given).
type RootResult struct {
	Marker     string `json:"marker"`
	ProjectDir string `json:"project_dir"`
	WorkingDir string `json:"working_dir"`
	// Workspace is where fs write, the MCP server's writes and executors
	// write (.taskctl/workspace/, or <workspace> in config); StateDir is
	// .taskctl/, where taskctl keeps its index, runs and caches.
	Workspace string `json:"workspace"`
	StateDir  string `json:"state_dir"`
	Report
}

// Root opens the project and reports its directories.
func (e *Engine) Root() (*RootResult, error) {
	p, err := e.Project()
	if err != nil {
		return nil, err
	}
	marker := p.Marker()
	if marker == "" {
		marker = "none"
		if e.projectDir != "" {
			marker = e.name(FieldProjectDir)
		}
	}
	res := &RootResult{Marker: marker, ProjectDir: p.Dir(), WorkingDir: p.WorkingDir(), StateDir: p.Workspace()}
	var ws warnings
	f, err := e.openFS(&ws)
	if err != nil {
		return nil, withWarnings(err, ws)
	}
	res.Workspace = f.Workspace()
	return done(res, nil, ws)
}

// SchemaResult is one of the embedded XSDs.
type SchemaResult struct {
	Schema string `json:"schema"` // "template" or "config"
	XSD    string `json:"xsd"`
}

// Schema returns the XSD templates ("template") or config files ("config")
// are validated against.
func Schema(which string) (*SchemaResult, error) {
	var s *schema.Schema
	switch which {
	case "template":
		s = schema.Template()
	case "config":
		s = schema.Config()
	default:
		return nil, UsageError("unknown schema %q: want template or config", which)
	}
	return &SchemaResult{Schema: which, XSD: string(s.Source())}, nil
}
