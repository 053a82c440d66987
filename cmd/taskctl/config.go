package main

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/taskctl/taskctl/internal/diag"
	"github.com/taskctl/taskctl/internal/xmltext"
	"github.com/taskctl/taskctl/project"
	"github.com/taskctl/taskctl/schema"
)

// settings is the effective configuration: built-in defaults, then the user's
// config, the project's config, --config, then flags. sources records which of
// those set each key.
type settings struct {
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

	CommandTimeout  time.Duration
	CommandMaxBytes int64
	CommandMaxLines int

	Executor    string
	StepTimeout time.Duration
	Sandbox     string // "" for the default

	Audit bool

	sources map[string]string
	files   []string
}

func defaultSettings() *settings {
	pol := project.DefaultPolicy()
	s := &settings{
		MaxFileBytes:    pol.MaxFileBytes,
		MaxFiles:        pol.MaxFiles,
		Style:           "xml",
		Tokenizer:       "o200k_base",
		ScanSecrets:     true,
		CommandTimeout:  10 * time.Second,
		CommandMaxBytes: 1 << 20,
		CommandMaxLines: 10000,
		StepTimeout:     10 * time.Minute,
		sources:         map[string]string{},
	}
	for _, k := range configKeys {
		s.sources[k] = "default"
	}
	return s
}

var configKeys = []string{
	"project.marker", "policy.allowed_root", "policy.exclude", "policy.sensitive",
	"policy.allow_sensitive", "policy.max_file_bytes", "policy.max_files",
	"assemble.style", "assemble.tokenizer", "assemble.max_tokens", "assemble.max_file_bytes",
	"assemble.scan_secrets", "assemble.redact_secrets",
	"command.timeout", "command.max_output_bytes", "command.max_output_lines",
	"run.executor", "run.step_timeout", "run.sandbox", "audit",
}

func (s *settings) policy() project.Policy {
	pol := project.DefaultPolicy()
	pol.MaxFileBytes = s.MaxFileBytes
	pol.MaxFiles = s.MaxFiles
	pol.Sensitive = append(pol.Sensitive, s.Sensitive...)
	pol.AllowSensitive = s.AllowSensitive
	pol.Exclude = append(pol.Exclude, s.Exclude...)
	pol.ExtraRoots = append(pol.ExtraRoots, s.AllowedRoots...)
	return pol
}

// configFile mirrors config.xsd. Pointers tell "absent" from "zero".
type configFile struct {
	XMLName xml.Name `xml:"config"`
	Project *struct {
		Marker []string `xml:"marker"`
	} `xml:"project"`
	Policy *struct {
		AllowedRoot    []string `xml:"allowed_root"`
		Exclude        []string `xml:"exclude"`
		Sensitive      []string `xml:"sensitive"`
		AllowSensitive *bool    `xml:"allow_sensitive"`
		MaxFileBytes   *int64   `xml:"max_file_bytes"`
		MaxFiles       *int     `xml:"max_files"`
	} `xml:"policy"`
	Assemble *struct {
		Style         *string `xml:"style"`
		Tokenizer     *string `xml:"tokenizer"`
		MaxTokens     *int    `xml:"max_tokens"`
		MaxFileBytes  *int64  `xml:"max_file_bytes"`
		ScanSecrets   *bool   `xml:"scan_secrets"`
		RedactSecrets *bool   `xml:"redact_secrets"`
	} `xml:"assemble"`
	Command *struct {
		Timeout        *int   `xml:"timeout"`
		MaxOutputBytes *int64 `xml:"max_output_bytes"`
		MaxOutputLines *int   `xml:"max_output_lines"`
	} `xml:"command"`
	Run *struct {
		Executor    *string `xml:"executor"`
		StepTimeout *int    `xml:"step_timeout"`
		Sandbox     *string `xml:"sandbox"`
	} `xml:"run"`
	Audit *bool `xml:"audit"`
}

// apply merges one config file over s.
func (s *settings) apply(path string, c *configFile) {
	set := func(key string) { s.sources[key] = path }
	if c.Project != nil && len(c.Project.Marker) > 0 {
		s.Markers = append(s.Markers, c.Project.Marker...)
		set("project.marker")
	}
	if p := c.Policy; p != nil {
		for _, r := range p.AllowedRoot {
			if !filepath.IsAbs(r) {
				r = filepath.Join(filepath.Dir(path), r)
			}
			s.AllowedRoots = append(s.AllowedRoots, filepath.Clean(r))
			set("policy.allowed_root")
		}
		if len(p.Exclude) > 0 {
			s.Exclude = append(s.Exclude, p.Exclude...)
			set("policy.exclude")
		}
		if len(p.Sensitive) > 0 {
			s.Sensitive = append(s.Sensitive, p.Sensitive...)
			set("policy.sensitive")
		}
		if p.AllowSensitive != nil {
			s.AllowSensitive = *p.AllowSensitive
			set("policy.allow_sensitive")
		}
		if p.MaxFileBytes != nil {
			s.MaxFileBytes = *p.MaxFileBytes
			set("policy.max_file_bytes")
		}
		if p.MaxFiles != nil {
			s.MaxFiles = *p.MaxFiles
			set("policy.max_files")
		}
	}
	if a := c.Assemble; a != nil {
		if a.Style != nil {
			s.Style = *a.Style
			set("assemble.style")
		}
		if a.Tokenizer != nil {
			s.Tokenizer = *a.Tokenizer
			set("assemble.tokenizer")
		}
		if a.MaxTokens != nil {
			s.MaxTokens = *a.MaxTokens
			set("assemble.max_tokens")
		}
		if a.MaxFileBytes != nil {
			s.DocFileBytes = *a.MaxFileBytes
			set("assemble.max_file_bytes")
		}
		if a.ScanSecrets != nil {
			s.ScanSecrets = *a.ScanSecrets
			set("assemble.scan_secrets")
		}
		if a.RedactSecrets != nil {
			s.RedactSecrets = *a.RedactSecrets
			set("assemble.redact_secrets")
		}
	}
	if c2 := c.Command; c2 != nil {
		if c2.Timeout != nil {
			s.CommandTimeout = time.Duration(*c2.Timeout) * time.Second
			set("command.timeout")
		}
		if c2.MaxOutputBytes != nil {
			s.CommandMaxBytes = *c2.MaxOutputBytes
			set("command.max_output_bytes")
		}
		if c2.MaxOutputLines != nil {
			s.CommandMaxLines = *c2.MaxOutputLines
			set("command.max_output_lines")
		}
	}
	if r := c.Run; r != nil {
		if r.Executor != nil {
			s.Executor = *r.Executor
			set("run.executor")
		}
		if r.StepTimeout != nil {
			s.StepTimeout = time.Duration(*r.StepTimeout) * time.Second
			set("run.step_timeout")
		}
		if r.Sandbox != nil {
			s.Sandbox = *r.Sandbox
			set("run.sandbox")
		}
	}
	if c.Audit != nil {
		s.Audit = *c.Audit
		set("audit")
	}
}

// userConfigPath is $XDG_CONFIG_HOME/taskctl/config.xml (or ~/.config/…).
func (e *env) userConfigPath() string {
	if x := e.getenv("XDG_CONFIG_HOME"); x != "" && filepath.IsAbs(x) {
		return filepath.Join(x, "taskctl", "config.xml")
	}
	if h := e.getenv("HOME"); h != "" {
		return filepath.Join(h, ".config", "taskctl", "config.xml")
	}
	return ""
}

// config loads the effective settings once. The project's config is found
// from the project dir, which is detected without opening the project.
func (e *env) config() (*settings, error) {
	if e.cfg != nil {
		return e.cfg, nil
	}
	s := defaultSettings()
	load := func(path string, required bool) error {
		if path == "" {
			return nil
		}
		data, err := readInput(path)
		if p, ok := inputProblem(path, err); ok {
			ce := e.invalid(path, []diag.Problem{p}).(*cliError)
			ce.code = diag.ConfigInvalid
			return ce
		}
		if err != nil {
			// ENOTDIR: a path component is a file (a file named .taskctl
			// where the workspace would be): there is no config there.
			missing := errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR)
			if missing && !required {
				return nil
			}
			if missing {
				return usageErr("--config %s: no such file", path)
			}
			if errors.Is(err, syscall.EISDIR) || errors.Is(err, errNotRegular) {
				what := "is a directory, not a config file"
				if errors.Is(err, errNotRegular) {
					what = "is not a regular file"
				}
				if required {
					return usageErr("--config %s %s", path, what)
				}
				return codedErr(diag.ConfigInvalid, exitUsage, "%s %s", path, what)
			}
			return fmt.Errorf("read config: %w", err)
		}
		if err := schema.Config().Validate(path, data); err != nil {
			var ve *schema.ValidationError
			if errors.As(err, &ve) {
				ce := e.invalid(path, ve.Problems).(*cliError)
				ce.code = diag.ConfigInvalid
				return ce
			}
			return err
		}
		data, _ = xmltext.Decode(data) // valid, so decodable: UTF-16 read as UTF-8
		var cf configFile
		if err := xml.Unmarshal(data, &cf); err != nil {
			return codedErr(diag.ConfigInvalid, exitUsage, "%s: %v", path, err)
		}
		cf.trim()
		if probs := append(checkAllowedRoots(path, data, &cf), checkPatterns(path, data, &cf)...); len(probs) > 0 {
			ce := e.invalid(path, probs).(*cliError)
			ce.code = diag.ConfigInvalid
			return ce
		}
		s.apply(path, &cf)
		s.files = append(s.files, path)
		return nil
	}
	if err := load(e.userConfigPath(), false); err != nil {
		return nil, err
	}
	projDir := e.opts.projectDir
	if projDir == "" {
		// Markers from the user config take part in detection.
		d, _, err := project.Detect(e.workingDir, s.Markers)
		if err == nil {
			projDir = d
		}
	}
	if projDir != "" {
		if err := load(filepath.Join(projDir, ".taskctl", "config.xml"), false); err != nil {
			return nil, err
		}
	}
	if e.opts.config != "" {
		p := e.argPath(e.opts.config)
		if err := load(p, true); err != nil {
			return nil, err
		}
	}
	e.applyFlags(s)
	e.cfg = s
	return s, nil
}

// trim drops the white space around the values of the list elements, as a
// template's <path> is trimmed: an editor that puts <exclude> on three lines
// made the pattern "\n    vendor/**\n  ", which matched nothing.
func (c *configFile) trim() {
	trimAll := func(l []string) {
		for i := range l {
			l[i] = strings.TrimSpace(l[i])
		}
	}
	if c.Project != nil {
		trimAll(c.Project.Marker)
	}
	if c.Policy != nil {
		trimAll(c.Policy.AllowedRoot)
		trimAll(c.Policy.Exclude)
		trimAll(c.Policy.Sensitive)
	}
}

// checkAllowedRoots reports each <allowed_root> of a config file that is not
// an existing directory, at its line and column, as the schema's problems
// are reported. Left to the project, such a root failed every command with
// exit 1 and a bare "lstat" error that named neither the file nor the line.
func checkAllowedRoots(path string, data []byte, cf *configFile) []diag.Problem {
	if cf.Policy == nil || len(cf.Policy.AllowedRoot) == 0 {
		return nil
	}
	pos := elementPositions(data, "config", "policy", "allowed_root")
	var probs []diag.Problem
	for i, r := range cf.Policy.AllowedRoot {
		dir := r
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(filepath.Dir(path), dir)
		}
		msg := ""
		if st, err := os.Stat(dir); err != nil {
			msg = "no such directory"
			if !errors.Is(err, fs.ErrNotExist) {
				msg = err.Error()
			}
		} else if !st.IsDir() {
			msg = "not a directory"
		}
		if msg == "" {
			continue
		}
		p := diag.Problem{File: path, Line: 1, Col: 1, Message: fmt.Sprintf("allowed_root %q: %s (%s)", r, msg, dir)}
		if i < len(pos) {
			p.Line, p.Col = pos[i][0], pos[i][1]
		}
		probs = append(probs, p)
	}
	return probs
}

// checkPatterns reports each <exclude> and <sensitive> pattern of a config
// file that could never match, at its line and column: an absolute path or
// one starting with ./ or ../ (the patterns are on paths relative to the
// project dir), a malformed glob ("["), or one ending in / (which in a
// .gitignore would mean a directory). Such a pattern was
// accepted and then matched nothing, so what the user meant to keep out
// was put in without a word.
func checkPatterns(path string, data []byte, cf *configFile) []diag.Problem {
	var probs []diag.Problem
	if cf.Project != nil {
		// Project detection passed over such a marker without a word.
		pos := elementPositions(data, "config", "project", "marker")
		for i, m := range cf.Project.Marker {
			if strings.Contains(m, "/") || m == "." || m == ".." {
				p := diag.Problem{File: path, Line: 1, Col: 1,
					Message: fmt.Sprintf("marker %q: a marker is a file or directory name looked for in each directory up from the working dir, not a path", m)}
				if i < len(pos) {
					p.Line, p.Col = pos[i][0], pos[i][1]
				}
				probs = append(probs, p)
			}
		}
	}
	if cf.Policy == nil {
		return probs
	}
	for _, list := range []struct {
		name string
		pats []string
	}{{"exclude", cf.Policy.Exclude}, {"sensitive", cf.Policy.Sensitive}} {
		pos := elementPositions(data, "config", "policy", list.name)
		for i, pat := range list.pats {
			msg := ""
			switch {
			case strings.HasPrefix(pat, "/") || pat == "." || pat == ".." || strings.HasPrefix(pat, "./") || strings.HasPrefix(pat, "../"):
				msg = "patterns match paths relative to the project dir (e.g. vendor/**), not absolute, ./ or ../ paths"
			case strings.HasSuffix(pat, "/"):
				// As in .gitignore, "vendor/" would mean the directory;
				// on paths, which never end in /, it matches nothing.
				msg = fmt.Sprintf("a pattern ending in / matches nothing (paths never end in /): write %s/** for what the directory holds",
					strings.TrimRight(pat, "/"))
			case !doublestar.ValidatePattern(pat):
				msg = "not a valid glob"
			}
			if msg == "" {
				continue
			}
			p := diag.Problem{File: path, Line: 1, Col: 1, Message: fmt.Sprintf("%s %q: %s", list.name, pat, msg)}
			if i < len(pos) {
				p.Line, p.Col = pos[i][0], pos[i][1]
			}
			probs = append(probs, p)
		}
	}
	return probs
}

// elementPositions returns the line and column (1-based, in bytes) of each
// element at the given path of names from the document's root, in order.
func elementPositions(data []byte, names ...string) [][2]int {
	var out [][2]int
	d := xml.NewDecoder(bytes.NewReader(data))
	var stack []string
	for {
		off := d.InputOffset()
		tok, err := d.Token()
		if err != nil {
			return out
		}
		switch t := tok.(type) {
		case xml.StartElement:
			stack = append(stack, t.Name.Local)
			if slices.Equal(stack, names) {
				line := 1 + bytes.Count(data[:off], []byte("\n"))
				col := int(off) - (bytes.LastIndexByte(data[:off], '\n') + 1) + 1
				out = append(out, [2]int{line, col})
			}
		case xml.EndElement:
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		}
	}
}

// applyFlags lets flags override the files.
func (e *env) applyFlags(s *settings) {
	if e.flags == nil {
		return
	}
	o := &e.opts
	for _, f := range []struct {
		flag, key string
		set       func()
	}{
		{"max-files", "policy.max_files", func() { s.MaxFiles = o.maxFiles }},
		{"style", "assemble.style", func() { s.Style = o.style }},
		{"tokenizer", "assemble.tokenizer", func() { s.Tokenizer = o.tokenizer }},
		{"max-tokens", "assemble.max_tokens", func() { s.MaxTokens = o.maxTokens }},
		{"max-file-bytes", "assemble.max_file_bytes", func() { s.DocFileBytes = o.maxFileBytes }},
		{"redact-secrets", "assemble.redact_secrets", func() { s.RedactSecrets = o.redactSecrets }},
		{"executor", "run.executor", func() { s.Executor = o.executor }},
		{"timeout", "run.step_timeout", func() { s.StepTimeout = o.timeout }},
		{"sandbox", "run.sandbox", func() { s.Sandbox = o.sandbox }},
	} {
		if e.flags.Lookup(f.flag) != nil && e.flags.Changed(f.flag) {
			f.set()
			s.sources[f.key] = "flag --" + f.flag
		}
	}
}

// values lists the effective settings as key → printable value.
func (s *settings) values() map[string]any {
	return map[string]any{
		"project.marker":           s.Markers,
		"policy.allowed_root":      s.AllowedRoots,
		"policy.exclude":           s.Exclude,
		"policy.sensitive":         s.Sensitive,
		"policy.allow_sensitive":   s.AllowSensitive,
		"policy.max_file_bytes":    s.MaxFileBytes,
		"policy.max_files":         s.MaxFiles,
		"assemble.style":           s.Style,
		"assemble.tokenizer":       s.Tokenizer,
		"assemble.max_tokens":      s.MaxTokens,
		"assemble.max_file_bytes":  s.DocFileBytes,
		"assemble.scan_secrets":    s.ScanSecrets,
		"assemble.redact_secrets":  s.RedactSecrets,
		"command.timeout":          s.CommandTimeout.String(),
		"command.max_output_bytes": s.CommandMaxBytes,
		"command.max_output_lines": s.CommandMaxLines,
		"run.executor":             s.Executor,
		"run.step_timeout":         s.StepTimeout.String(),
		"run.sandbox":              s.Sandbox,
		"audit":                    s.Audit,
	}
}

func configCmd() *command {
	return &command{
		name:  "config",
		usage: "",
		short: "print the effective configuration and where each value came from",
		long: `Configuration is read, lowest precedence first, from built-in defaults, the
user's $XDG_CONFIG_HOME/taskctl/config.xml, the project's .taskctl/config.xml,
the file named by --config, and flags. A template may only narrow the policy.
Config files are validated against 'taskctl schema config'.`,
		examples: []string{"taskctl config", "taskctl config --output json"},
		run: func(ctx context.Context, e *env, args []string) (any, error) {
			if len(args) > 0 {
				return nil, usageErr("config takes no arguments")
			}
			s, err := e.config()
			if err != nil {
				return nil, err
			}
			if _, err := e.project(); err != nil {
				return nil, err
			}
			vals := s.values()
			if e.meta == nil {
				e.meta = map[string]any{}
			}
			e.meta["config_sources"] = s.sources
			if !e.json() {
				for _, k := range configKeys {
					fmt.Fprintf(e.stdout, "%-26s %-24s # %s\n", k, printable(vals[k]), s.sources[k])
				}
			}
			files := s.files
			if files == nil {
				files = []string{}
			}
			return map[string]any{"values": vals, "sources": s.sources, "files": files}, nil
		},
	}
}

func printable(v any) string {
	switch x := v.(type) {
	case []string:
		if len(x) == 0 {
			return "[]"
		}
		return strings.Join(x, ",")
	case string:
		if x == "" {
			return `""`
		}
		return x
	case bool:
		return strconv.FormatBool(x)
	}
	return fmt.Sprint(v)
}
