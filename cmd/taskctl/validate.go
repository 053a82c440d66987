package main

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/taskctl/taskctl/internal/diag"
	"github.com/taskctl/taskctl/internal/xmltext"
	"github.com/taskctl/taskctl/schema"
)

func validateCmd() *command {
	return &command{
		name:  "validate",
		usage: "FILE...",
		short: "check templates against the XSD and the rules it cannot express",
		long: `A file whose root element is <config> is checked as a configuration file
(against 'taskctl schema config'), any other as a template. Each valid file
prints "FILE: ok". Problems print as FILE:LINE:COL: message on
stderr, and the exit status is 2 when any file is invalid (5 when the only
problem is a FILE that does not exist).`,
		examples: []string{
			"taskctl validate .taskctl/tasks/*.xml",
			"taskctl validate review.xml --output json",
			"taskctl validate .taskctl/config.xml",
		},
		run: func(ctx context.Context, e *env, args []string) (any, error) {
			if len(args) == 0 {
				return nil, usageErr("validate needs at least one FILE")
			}
			type fileResult struct {
				Path     string         `json:"path"`
				Valid    bool           `json:"valid"`
				Problems []diag.Problem `json:"problems"`
			}
			var results []fileResult
			var all []diag.Problem
			missing := 0
			for _, arg := range args {
				path := e.argPath(arg)
				data, err := readInput(path)
				var probs []diag.Problem
				if p, ok := inputProblem(path, err); ok {
					probs = []diag.Problem{p}
				} else if err != nil {
					probs = []diag.Problem{{File: path, Line: 0, Col: 0, Message: "cannot read: " + errText(err)}}
					if errors.Is(err, fs.ErrNotExist) {
						missing++
					}
				} else if rootName(data) == "config" {
					probs = checkConfig(path, data)
				} else if tf, ps := checkTemplate(path, data); ps != nil {
					probs = ps
				} else {
					for _, w := range tf.Warnings {
						e.warn(diag.Warning{Code: w.Code, Path: path, Message: fmt.Sprintf("%d:%d: %s", w.Line, w.Col, w.Message)})
					}
				}
				if probs == nil {
					probs = []diag.Problem{}
				}
				results = append(results, fileResult{Path: path, Valid: len(probs) == 0, Problems: probs})
				all = append(all, probs...)
				if !e.json() {
					if len(probs) == 0 {
						fmt.Fprintf(e.stdout, "%s: ok\n", path)
					}
					for _, p := range probs {
						if p.Line > 0 {
							fmt.Fprintf(e.stderr, "%s:%d:%d: %s\n", p.File, p.Line, p.Col, p.Message)
						} else {
							fmt.Fprintf(e.stderr, "%s: %s\n", p.File, p.Message)
						}
					}
				}
			}
			if len(all) > 0 {
				bad := 0
				for _, r := range results {
					if !r.Valid {
						bad++
					}
				}
				if bad == missing {
					// Nothing invalid, only files that are not there: as
					// for assemble, that is "not found" (exit 5).
					return nil, &cliError{code: diag.TemplateNotFound, exit: exitNotFound, reported: true, details: all,
						msg: fmt.Sprintf("%d of %d file(s) not found", missing, len(results))}
				}
				return nil, &cliError{code: diag.TemplateInvalid, exit: exitUsage, reported: true, details: all,
					msg: fmt.Sprintf("%d of %d file(s) invalid", bad, len(results))}
			}
			return map[string]any{"files": results}, nil
		},
	}
}

// rootName returns the local name of data's root element, or "" when data
// is not well-formed enough to tell.
func rootName(data []byte) string {
	if text, err := xmltext.Decode(data); err == nil {
		data = text // UTF-16, as schema and template read it
	}
	d := xml.NewDecoder(bytes.NewReader(data))
	for {
		t, err := d.Token()
		if err != nil {
			return ""
		}
		if se, ok := t.(xml.StartElement); ok {
			return se.Name.Local
		}
	}
}

// checkConfig checks a configuration file as 'taskctl config' reads it.
func checkConfig(file string, data []byte) []diag.Problem {
	if err := schema.Config().Validate(file, data); err != nil {
		var ve *schema.ValidationError
		if errors.As(err, &ve) && len(ve.Problems) > 0 {
			return ve.Problems
		}
		return []diag.Problem{{File: file, Line: 1, Col: 1, Message: err.Error()}}
	}
	data, _ = xmltext.Decode(data) // valid, so decodable: UTF-16 read as UTF-8
	var cf configFile
	if err := xml.Unmarshal(data, &cf); err != nil {
		return []diag.Problem{{File: file, Line: 1, Col: 1, Message: err.Error()}}
	}
	// What every command that reads the file refuses, validate reports.
	cf.trim()
	return append(checkAllowedRoots(file, data, &cf), checkPatterns(file, data, &cf)...)
}

// errText is err's message without the path, which the caller prints.
func errText(err error) string {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err.Error()
	}
	return err.Error()
}
