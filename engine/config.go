package engine

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/taskctl/taskctl/root"
)

// Settings is the effective configuration: built-in defaults, then the
// user's config, the project's config, --config, then flags (overrides).
// Sources records which of those set each key; Files lists the config files
// read, in order.
type Settings struct {
	Markers        []string
	AllowedRoots   []string
	Exclude        []string
	Sensitive      []string
	AllowSensitive bool
	MaxFileBytes   int64 // policy: files larger than this are not read
	MaxFiles       int

	Style         string
	Tokenizer     string
	MaxTokens     int
	DocFileBytes  int64 // assemble: per-file content cap (0 = none)
	ScanSecrets   bool
	RedactSecrets bool
	KeepGenerated bool // assemble: pack lock files, minified bundles and source maps a glob selects

	CommandTimeout  time.Duration
	CommandMaxBytes int64
	CommandMaxLines int

	Executor    string
	StepTimeout time.Duration
	Sandbox     string // "" for the default
	// AllowScripts lets a director_evaluator_loop's script step run; an
	// untrusted project config may not turn it on.
	AllowScripts bool

	Audit bool

	Workspace  string   // where agents write ("": .taskctl/workspace); absolute from a file
	WriteRoots []string // more directories inside the project agents may write in

	Sources map[string]string
	Files   []string

	// projectConfig is the real path of the project's own config, the
	// repository's (whether it exists or not): a setting whose source it
	// is came with the repository.
	projectConfig string
}

// kind is the type of a setting's value in a config file.
type kind int

const (
	kindString  kind = iota // *string
	kindStrings             // *[]string, one element a value
	kindPaths               // *[]string of directories, relative to the config file
	kindPath                // *string, a directory relative to the config file
	kindBool                // *bool
	kindInt                 // *int
	kindInt64               // *int64
	kindSeconds             // *time.Duration, written as whole seconds
)

// merge is how a later source's value combines with the earlier ones.
type merge int

const (
	replace    merge = iota // the later value wins
	appendList              // the later values are added
)

// origin is a bit set of where a setting may come from.
type origin int

const (
	fromFile     origin = 1 << iota // a config file (user, project, --config)
	fromOverride                    // an invocation's Overrides (a door's flag or argument)
)

// untrusted is what a config file that is not trusted (the project's own
// .taskctl/config.xml until 'taskctl trust', DESIGN §3) may do with a
// setting: it may only narrow the policy and may not name an executor. A
// value equal to the one in force changes nothing and is always taken.
type untrusted int

const (
	anyValue  untrusted = iota // not policy: any value is taken
	never                      // widens by nature (a root, a marker, an executor): ignored
	lowerOnly                  // a cap: only a positive value not above the one in force
	trueOnly                   // a safeguard: may be turned on, not off
	falseOnly                  // a permission: may be turned off, not on
)

// setting is one row of the configuration table: the key (which is also
// the element path under <config>, "policy.max_files" is
// <config><policy><max_files>), the value's kind, how it merges, where it
// may come from, what an untrusted file may do with it and where its value
// lives.
type setting struct {
	key       string
	kind      kind
	merge     merge
	from      origin
	untrusted untrusted
	field     func(s *Settings) any
	print     func(s *Settings) any // the printable value; nil: *field
}

// table is every setting, in the order 'taskctl config' lists them.
var table = []setting{
	{key: "project.marker", untrusted: never, kind: kindStrings, merge: appendList, from: fromFile,
		field: func(s *Settings) any { return &s.Markers }},
	{key: "policy.allowed_root", untrusted: never, kind: kindPaths, merge: appendList, from: fromFile,
		field: func(s *Settings) any { return &s.AllowedRoots }},
	{key: "policy.write_root", untrusted: never, kind: kindPaths, merge: appendList, from: fromFile,
		field: func(s *Settings) any { return &s.WriteRoots }},
	{key: "policy.exclude", kind: kindStrings, merge: appendList, from: fromFile,
		field: func(s *Settings) any { return &s.Exclude }},
	{key: "policy.sensitive", kind: kindStrings, merge: appendList, from: fromFile,
		field: func(s *Settings) any { return &s.Sensitive }},
	{key: "policy.allow_sensitive", untrusted: falseOnly, kind: kindBool, from: fromFile,
		field: func(s *Settings) any { return &s.AllowSensitive }},
	{key: "policy.max_file_bytes", untrusted: lowerOnly, kind: kindInt64, from: fromFile,
		field: func(s *Settings) any { return &s.MaxFileBytes }},
	{key: "policy.max_files", untrusted: lowerOnly, kind: kindInt, from: fromFile | fromOverride,
		field: func(s *Settings) any { return &s.MaxFiles }},
	{key: "assemble.style", kind: kindString, from: fromFile | fromOverride,
		field: func(s *Settings) any { return &s.Style }},
	{key: "assemble.tokenizer", kind: kindString, from: fromFile | fromOverride,
		field: func(s *Settings) any { return &s.Tokenizer }},
	// The token budget and a file's content cap are the user's caps too: a
	// file that is not trusted may lower them, never raise them.
	{key: "assemble.max_tokens", untrusted: lowerOnly, kind: kindInt, from: fromFile | fromOverride,
		field: func(s *Settings) any { return &s.MaxTokens }},
	{key: "assemble.max_file_bytes", untrusted: lowerOnly, kind: kindInt64, from: fromFile | fromOverride,
		field: func(s *Settings) any { return &s.DocFileBytes }},
	{key: "assemble.scan_secrets", untrusted: trueOnly, kind: kindBool, from: fromFile,
		field: func(s *Settings) any { return &s.ScanSecrets }},
	{key: "assemble.redact_secrets", untrusted: falseOnly, kind: kindBool, from: fromFile | fromOverride,
		field: func(s *Settings) any { return &s.RedactSecrets }},
	{key: "assemble.keep_generated", kind: kindBool, from: fromFile,
		field: func(s *Settings) any { return &s.KeepGenerated }},
	{key: "command.timeout", untrusted: lowerOnly, kind: kindSeconds, from: fromFile,
		field: func(s *Settings) any { return &s.CommandTimeout },
		print: func(s *Settings) any { return s.CommandTimeout.String() }},
	{key: "command.max_output_bytes", untrusted: lowerOnly, kind: kindInt64, from: fromFile,
		field: func(s *Settings) any { return &s.CommandMaxBytes }},
	{key: "command.max_output_lines", untrusted: lowerOnly, kind: kindInt, from: fromFile,
		field: func(s *Settings) any { return &s.CommandMaxLines }},
	{key: "run.executor", untrusted: never, kind: kindString, from: fromFile | fromOverride,
		field: func(s *Settings) any { return &s.Executor }},
	{key: "run.step_timeout", untrusted: lowerOnly, kind: kindSeconds, from: fromFile | fromOverride,
		field: func(s *Settings) any { return &s.StepTimeout },
		print: func(s *Settings) any { return s.StepTimeout.String() }},
	// Any value of run.sandbox is taken from an untrusted file; the
	// project's own config may still only make the sandbox stricter: its
	// "off" is ignored at run time with a CONFIG_IGNORED warning, trusted
	// or not (Engine.sandboxMode).
	{key: "run.sandbox", kind: kindString, from: fromFile | fromOverride,
		field: func(s *Settings) any { return &s.Sandbox }},
	// A script step runs a process a template names: only the user (a
	// flag, the user's config, --config, a trusted project config) may
	// allow it.
	{key: "run.allow_scripts", untrusted: falseOnly, kind: kindBool, from: fromFile | fromOverride,
		field: func(s *Settings) any { return &s.AllowScripts }},
	{key: "audit", untrusted: trueOnly, kind: kindBool, from: fromFile,
		field: func(s *Settings) any { return &s.Audit }},
	{key: "workspace", untrusted: never, kind: kindPath, from: fromFile | fromOverride,
		field: func(s *Settings) any { return &s.Workspace }},
}

// Keys lists every setting's key, in the order 'taskctl config' prints them.
func Keys() []string {
	keys := make([]string, len(table))
	for i, r := range table {
		keys[i] = r.key
	}
	return keys
}

// Overrides are settings given for one invocation, applied over every
// file: typed fields, one per setting a front door may set (the CLI's
// flags), nil where not given. The engine, not the door, knows which
// setting each one is.
type Overrides struct {
	MaxFiles      *int           // policy.max_files
	Style         *string        // assemble.style
	Tokenizer     *string        // assemble.tokenizer
	MaxTokens     *int           // assemble.max_tokens
	MaxFileBytes  *int64         // assemble.max_file_bytes
	RedactSecrets *bool          // assemble.redact_secrets
	Executor      *string        // run.executor
	StepTimeout   *time.Duration // run.step_timeout
	Sandbox       *string        // run.sandbox
	Workspace     *string        // workspace
	AllowScripts  *bool          // run.allow_scripts
}

// byKey returns the given overrides by setting key.
func (o *Overrides) byKey() map[string]any {
	m := map[string]any{}
	if o.MaxFiles != nil {
		m["policy.max_files"] = *o.MaxFiles
	}
	if o.Style != nil {
		m["assemble.style"] = *o.Style
	}
	if o.Tokenizer != nil {
		m["assemble.tokenizer"] = *o.Tokenizer
	}
	if o.MaxTokens != nil {
		m["assemble.max_tokens"] = *o.MaxTokens
	}
	if o.MaxFileBytes != nil {
		m["assemble.max_file_bytes"] = *o.MaxFileBytes
	}
	if o.RedactSecrets != nil {
		m["assemble.redact_secrets"] = *o.RedactSecrets
	}
	if o.Executor != nil {
		m["run.executor"] = *o.Executor
	}
	if o.StepTimeout != nil {
		m["run.step_timeout"] = *o.StepTimeout
	}
	if o.Sandbox != nil {
		m["run.sandbox"] = *o.Sandbox
	}
	if o.Workspace != nil {
		m["workspace"] = *o.Workspace
	}
	if o.AllowScripts != nil {
		m["run.allow_scripts"] = *o.AllowScripts
	}
	return m
}

// defaultSettings are the built-in defaults.
func defaultSettings() *Settings {
	pol := root.DefaultPolicy()
	s := &Settings{
		MaxFileBytes:    pol.MaxFileBytes,
		MaxFiles:        pol.MaxFiles,
		Style:           "xml",
		Tokenizer:       "o200k_base",
		ScanSecrets:     true,
		CommandTimeout:  10 * time.Second,
		CommandMaxBytes: 1 << 20,
		CommandMaxLines: 10000,
		StepTimeout:     10 * time.Minute,
		Sources:         map[string]string{},
	}
	for _, r := range table {
		s.Sources[r.key] = "default"
	}
	return s
}

// Policy is the project policy the settings make.
func (s *Settings) Policy() root.Policy {
	pol := root.DefaultPolicy()
	pol.MaxFileBytes = s.MaxFileBytes
	pol.MaxFiles = s.MaxFiles
	pol.Sensitive = append(pol.Sensitive, s.Sensitive...)
	pol.AllowSensitive = s.AllowSensitive
	pol.AllowSecrets = !s.ScanSecrets
	pol.RedactSecrets = s.RedactSecrets
	pol.Exclude = append(pol.Exclude, s.Exclude...)
	pol.ExtraRoots = append(pol.ExtraRoots, s.AllowedRoots...)
	return pol
}

// Values lists the effective settings as key → printable value.
func (s *Settings) Values() map[string]any {
	out := make(map[string]any, len(table))
	for _, r := range table {
		if r.print != nil {
			out[r.key] = r.print(s)
			continue
		}
		switch p := r.field(s).(type) {
		case *string:
			out[r.key] = *p
		case *[]string:
			out[r.key] = *p
		case *bool:
			out[r.key] = *p
		case *int:
			out[r.key] = *p
		case *int64:
			out[r.key] = *p
		}
	}
	return out
}

// apply merges the values of one config file (validated against the XSD)
// over s. values maps an element path under <config> ("policy.max_files")
// to the text of each such element. From a file that is not trusted, only
// what the table's untrusted column allows is taken; apply returns the
// keys of the settings it ignored.
func (s *Settings) apply(path string, values map[string][]fileValue, trusted bool) (ignored []string) {
	for _, r := range table {
		vals := values[r.key]
		if len(vals) == 0 || r.from&fromFile == 0 {
			continue
		}
		if !trusted && !r.narrows(s, vals) {
			ignored = append(ignored, r.key)
			continue
		}
		if r.merge == appendList {
			list := r.field(s).(*[]string)
			for _, v := range vals {
				text := strings.TrimSpace(v.text)
				if r.kind == kindPaths {
					if !filepath.IsAbs(text) {
						text = filepath.Join(filepath.Dir(path), text)
					}
					text = filepath.Clean(text)
				}
				*list = append(*list, text)
			}
		} else {
			// The schema allows one such element; the last one wins.
			text := vals[len(vals)-1].text
			if r.kind != kindString {
				text = strings.TrimSpace(text)
			}
			if r.kind == kindPath && !filepath.IsAbs(text) {
				text = filepath.Clean(filepath.Join(filepath.Dir(path), text))
			}
			setText(r.field(s), r.kind, text)
		}
		s.Sources[r.key] = path
	}
	return ignored
}

// narrows reports whether an untrusted file may set r to vals: whether
// the value only narrows what s holds (or changes nothing).
func (r setting) narrows(s *Settings, vals []fileValue) bool {
	switch r.untrusted {
	case anyValue:
		return true
	case never:
		return false
	}
	text := strings.TrimSpace(vals[len(vals)-1].text)
	switch p := r.field(s).(type) {
	case *bool:
		v := text == "true" || text == "1"
		return v == *p || (r.untrusted == trueOnly && v) || (r.untrusted == falseOnly && !v)
	case *int:
		return lower(text, int64(*p))
	case *int64:
		return lower(text, *p)
	case *time.Duration:
		return lower(text, int64(*p/time.Second))
	}
	return false
}

// lower reports whether the number text is a cap no looser than cur: a
// positive value not above it (0, no cap, is looser than any).
func lower(text string, cur int64) bool {
	n, err := strconv.ParseInt(text, 10, 64)
	return err == nil && (n == cur || n > 0 && (cur == 0 || n <= cur))
}

// setText parses a value the schema has already checked into ptr.
func setText(ptr any, k kind, text string) {
	switch p := ptr.(type) {
	case *string:
		*p = text
	case *bool:
		*p = text == "true" || text == "1"
	case *int:
		n, _ := strconv.Atoi(text)
		*p = n
	case *int64:
		n, _ := strconv.ParseInt(text, 10, 64)
		*p = n
	case *time.Duration:
		n, _ := strconv.ParseInt(text, 10, 64)
		*p = time.Duration(n) * time.Second
	default:
		panic(fmt.Sprintf("engine: setting of kind %d has a %T", k, ptr))
	}
}

// SourceOverride is the source of a setting the invocation gave
// (Overrides): each door knows it by its own name (the CLI's flag, an MCP
// argument), so the engine names neither.
const SourceOverride = "override"

// applyOverrides lets the invocation's settings override the files.
func (s *Settings) applyOverrides(o Overrides) {
	given := o.byKey()
	for _, r := range table {
		v, ok := given[r.key]
		if !ok || r.from&fromOverride == 0 {
			continue
		}
		switch p := r.field(s).(type) {
		case *string:
			*p = v.(string)
		case *bool:
			*p = v.(bool)
		case *int:
			*p = v.(int)
		case *int64:
			*p = v.(int64)
		case *time.Duration:
			*p = v.(time.Duration)
		}
		s.Sources[r.key] = SourceOverride
	}
}

// fileValue is one element's text in a config file and where it starts.
type fileValue struct {
	text      string
	line, col int
}

// ConfigResult is the effective configuration: every setting's value, where
// each came from ("default", a config file's absolute path, or
// SourceOverride), and the config files read.
type ConfigResult struct {
	Files   []string          `json:"files"`
	Sources map[string]string `json:"sources"`
	Values  map[string]any    `json:"values"`
}

// Config returns the effective settings. It opens the project too, so that
// a project that cannot be opened fails here as it would any other command.
func (e *Engine) Config() (*ConfigResult, error) {
	s, err := e.Settings()
	if err != nil {
		return nil, err
	}
	if _, err := e.Project(); err != nil {
		return nil, err
	}
	files := s.Files
	if files == nil {
		files = []string{}
	}
	return &ConfigResult{Files: files, Sources: s.Sources, Values: s.Values()}, nil
}
