package engine

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/taskctl/taskctl/internal/diag"
	"github.com/taskctl/taskctl/internal/xmltext"
	"github.com/taskctl/taskctl/root"
	"github.com/taskctl/taskctl/schema"
)

// readConfigValues returns the text of every leaf element of a config
// document by its path under <config> ("policy.exclude"), in document
// order, with its position. The document has passed the XSD.
func readConfigValues(data []byte) (map[string][]fileValue, error) {
	out := map[string][]fileValue{}
	d := xml.NewDecoder(bytes.NewReader(data))
	var stack []string
	var text strings.Builder
	var start fileValue
	for {
		off := d.InputOffset()
		tok, err := d.Token()
		if err != nil {
			if errors.Is(err, io.EOF) {
				return out, nil
			}
			return nil, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			stack = append(stack, t.Name.Local)
			text.Reset()
			start = fileValue{line: 1 + bytes.Count(data[:off], []byte("\n")),
				col: int(off) - (bytes.LastIndexByte(data[:off], '\n') + 1) + 1}
		case xml.CharData:
			text.Write(t)
		case xml.EndElement:
			if len(stack) > 1 {
				key := strings.Join(stack[1:], ".")
				start.text = text.String()
				out[key] = append(out[key], start)
			}
			text.Reset()
			stack = stack[:len(stack)-1]
		}
	}
}

// loadConfig reads one config file over s. A file that is missing is no
// error when required names what asked for it (the config file option);
// a file that is not valid is a
// CONFIG_INVALID error with its problems. trusted, when set, says whether
// the file's content is trusted ([Settings.apply]); each setting it did
// not take is a CONFIG_UNTRUSTED warning, given to warn.
func loadConfig(s *Settings, path string, required string, trusted func(data []byte) (bool, string), warn func(diag.Warning)) error {
	return loadConfigWith(s, path, required, trusted, warn, ReadInput)
}

// loadConfigWith is loadConfig reading the file with read. A file read
// refuses as a symbolic link leading outside the project is ignored with a
// CONFIG_UNTRUSTED warning that says so and nothing of what it holds.
func loadConfigWith(s *Settings, path string, required string, trusted func(data []byte) (bool, string), warn func(diag.Warning),
	read func(string) ([]byte, error)) error {
	if path == "" {
		return nil
	}
	data, err := read(path)
	if errors.Is(err, root.ErrLeavesRoot) {
		warn(diag.Warning{Code: diag.ConfigUntrusted, Path: path, Message: "ignored: it is a symbolic link leading outside the project, which is never followed"})
		return nil
	}
	if p, ok := InputProblem(path, err); ok {
		return configInvalid(path, []diag.Problem{p})
	}
	if err != nil {
		return configReadError(path, err, required)
	}
	values, probs := checkConfig(path, data)
	if probs != nil {
		return configInvalid(path, probs)
	}
	ok, why := true, ""
	if trusted != nil {
		ok, why = trusted(data)
	}
	for _, key := range s.apply(path, values, ok) {
		warn(diag.Warning{Code: diag.ConfigUntrusted, Path: path, Message: fmt.Sprintf(
			"<%s> ignored: %s; until 'taskctl trust', the project's config may only narrow the policy and may not name an executor",
			strings.ReplaceAll(key, ".", "><"), why)})
	}
	s.Files = append(s.Files, path)
	return nil
}

func configInvalid(path string, probs []diag.Problem) error {
	e := Invalid(path, probs)
	e.Code = diag.ConfigInvalid
	return e
}

// configReadError is the error of a config file that cannot be read.
func configReadError(path string, err error, required string) error {
	// ENOTDIR: a path component is a file (a file named .taskctl where
	// the workspace would be): there is no config there.
	missing := errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR)
	if missing && required == "" {
		return nil
	}
	if missing {
		return UsageError("%s %s: no such file", required, path)
	}
	if errors.Is(err, syscall.EISDIR) || errors.Is(err, errNotRegular) {
		what := "is a directory, not a config file"
		if errors.Is(err, errNotRegular) {
			what = "is not a regular file"
		}
		if required != "" {
			return UsageError("%s %s %s", required, path, what)
		}
		return codedErr(diag.ConfigInvalid, ClassUsage, "%s %s", path, what)
	}
	return fmt.Errorf("read config: %w", err)
}

// checkConfig checks a configuration file as every command reads it: the
// XSD, then what the XSD cannot say. It returns the file's values, or its
// problems.
func checkConfig(path string, data []byte) (map[string][]fileValue, []diag.Problem) {
	if err := schema.Config().Validate(path, data); err != nil {
		var ve *schema.ValidationError
		if errors.As(err, &ve) && len(ve.Problems) > 0 {
			return nil, ve.Problems
		}
		return nil, []diag.Problem{{File: path, Line: 1, Col: 1, Message: err.Error()}}
	}
	data, _ = xmltext.Decode(data) // valid, so decodable: UTF-16 read as UTF-8
	values, err := readConfigValues(data)
	if err != nil {
		return nil, []diag.Problem{{File: path, Line: 1, Col: 1, Message: err.Error()}}
	}
	if probs := append(checkAllowedRoots(path, values), checkPatterns(path, values)...); len(probs) > 0 {
		return nil, probs
	}
	return values, nil
}

// CheckConfig returns the problems of a config file (none: nil), as
// 'taskctl validate' reports them.
func CheckConfig(path string, data []byte) []diag.Problem {
	_, probs := checkConfig(path, data)
	return probs
}

// checkAllowedRoots reports each <allowed_root> of a config file that is not
// an existing directory, at its line and column, as the schema's problems
// are reported. Left to the project, such a root failed every command with
// exit 1 and a bare "lstat" error that named neither the file nor the line.
func checkAllowedRoots(path string, values map[string][]fileValue) []diag.Problem {
	var probs []diag.Problem
	for _, v := range values["policy.allowed_root"] {
		r := strings.TrimSpace(v.text)
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
		if msg != "" {
			probs = append(probs, diag.Problem{File: path, Line: v.line, Col: v.col,
				Message: fmt.Sprintf("allowed_root %q: %s (%s)", r, msg, dir)})
		}
	}
	return probs
}

// checkPatterns reports each <marker> that is a path and each <exclude> and
// <sensitive> pattern of a config file that could never match, at its line
// and column: an absolute path or one starting with ./ or ../ (the patterns
// are on paths relative to the project dir), a malformed glob ("["), or one
// ending in / (which in a .gitignore would mean a directory). Such a
// pattern was accepted and then matched nothing, so what the user meant to
// keep out was put in without a word.
func checkPatterns(path string, values map[string][]fileValue) []diag.Problem {
	var probs []diag.Problem
	for _, v := range values["project.marker"] {
		// Project detection passed over such a marker without a word.
		if m := strings.TrimSpace(v.text); strings.Contains(m, "/") || m == "." || m == ".." {
			probs = append(probs, diag.Problem{File: path, Line: v.line, Col: v.col,
				Message: fmt.Sprintf("marker %q: a marker is a file or directory name looked for in each directory up from the working dir, not a path", m)})
		}
	}
	for _, name := range []string{"exclude", "sensitive"} {
		for _, v := range values["policy."+name] {
			pat := strings.TrimSpace(v.text)
			if msg := patternProblem(pat); msg != "" {
				probs = append(probs, diag.Problem{File: path, Line: v.line, Col: v.col,
					Message: fmt.Sprintf("%s %q: %s", name, pat, msg)})
			}
		}
	}
	return probs
}

// patternProblem says why a policy pattern can never match, or "".
func patternProblem(pat string) string {
	switch {
	case strings.HasPrefix(pat, "/") || pat == "." || pat == ".." || strings.HasPrefix(pat, "./") || strings.HasPrefix(pat, "../"):
		return "patterns match paths relative to the project dir (e.g. vendor/**), not absolute, ./ or ../ paths"
	case strings.HasSuffix(pat, "/"):
		// As in .gitignore, "vendor/" would mean the directory; on
		// paths, which never end in /, it matches nothing.
		return fmt.Sprintf("a pattern ending in / matches nothing (paths never end in /): write %s/** for what the directory holds",
			strings.TrimRight(pat, "/"))
	case !doublestar.ValidatePattern(pat):
		return "not a valid glob"
	}
	return ""
}
