package main

import (
	"bytes"
	"encoding/json"
	"io"
	"path/filepath"
	"strings"
	"testing"
)

// TestEnvelopes runs commands with --output json, succeeding and failing in
// every way the CLI knows, and checks DESIGN §7 on each: stdout holds
// exactly one envelope and nothing else, with ok, data, error, warnings and
// meta; ok agrees with the exit code; a failure has data null and a coded
// error; and every path anywhere in it (meta.cwd and meta.project_root
// included, before the project is opened too) is absolute.
func TestEnvelopes(t *testing.T) {
	proj := t.TempDir()
	writeFiles(t, proj, map[string]string{
		"go.mod":     "module x\n",
		"src/a.go":   "package a // TODO\n",
		"ok.xml":     `<task name="ok"><description>d</description><file_paths><path>src/*.go</path></file_paths></task>`,
		"warn.xml":   `<task name="w"><description>d</description><file_paths><path>nosuch</path><path>..\x</path><path>C:/x</path><path>../../etc/passwd</path></file_paths></task>`,
		"bad.xml":    "<task name=\"b\">\n  <oops/>\n</task>",
		"badvar.xml": "<task name=\"v\">\n  <description>{{nope}}</description>\n</task>",
		"lib.xml":    `<tasks><task name="a"><description>a</description></task><task name="b"><description>b</description></task></tasks>`,
	})
	in := func(n string) string { return filepath.Join(proj, n) }
	cases := [][]string{
		{"validate", in("ok.xml")},
		{"validate", in("ok.xml"), in("bad.xml"), in("badvar.xml"), in("nosuch.xml")},
		{"validate"},
		{"assemble", in("ok.xml"), "--tokenizer", "none"},
		{"assemble", in("warn.xml"), "--tokenizer", "none"},
		{"assemble", in("warn.xml"), "--tokenizer", "none", "--strict"},
		{"assemble", in("bad.xml")},
		{"assemble", in("badvar.xml")},
		{"assemble", in("lib.xml")},
		{"assemble", in("lib.xml"), "--task", "zz"},
		{"assemble", in("nosuch.xml")},
		{"assemble", "nosuchtask"},
		{"assemble", in("ok.xml"), "--style", "html"},
		{"assemble"},
		{"exec", "find . -name '*.go'"},
		{"exec", `printf '..\\x\nC:/x\n../../etc/passwd\nsrc/a.go\n'`},
		{"exec", "echo hi > out.txt"},
		{"exec", `printf '%05000d\n' 1; printf '..\\%05000d\n' 1`},
		{"exec", "echo nosuch", "--strict"},
		{"exec"},
		{"root"},
		{"root", "extra"},
		{"schema"},
		{"schema", "nope"},
		{"version"},
		{"frob"},
		{"--frob", "root"},
		{"root", "--frob"},
		{"--cwd", in("src"), "root"},
		{"help"},
		{"help", "assemble"},
		{"help", "nope"},
		{"--help"},
		{"root", "--help"},
		{"exec", "-h"},
	}
	for _, args := range cases {
		for _, global := range [][]string{{"--project-dir", proj}, {"--cwd", proj}} {
			all := append(append([]string{"--output", "json"}, global...), args...)
			code, out, errs := taskctl(t, all...)
			name := strings.Join(all, " ")
			dec := json.NewDecoder(strings.NewReader(out))
			var env map[string]json.RawMessage
			if err := dec.Decode(&env); err != nil {
				t.Errorf("%s: exit %d, stdout is not an envelope: %v\n%s\n%s", name, code, err, out, errs)
				continue
			}
			if _, err := dec.Token(); err != io.EOF {
				t.Errorf("%s: more than one envelope on stdout:\n%s", name, out)
			}
			for _, k := range []string{"ok", "data", "error", "warnings", "meta"} {
				if _, ok := env[k]; !ok {
					t.Errorf("%s: envelope has no %q:\n%s", name, k, out)
				}
			}
			var ok bool
			json.Unmarshal(env["ok"], &ok)
			if ok != (code == exitOK) {
				t.Errorf("%s: ok=%v with exit %d", name, ok, code)
			}
			if !ok {
				var e struct{ Code, Message string }
				if err := json.Unmarshal(env["error"], &e); err != nil || e.Code == "" || e.Message == "" {
					t.Errorf("%s: failed with error %s", name, env["error"])
				}
				// validate keeps data.files[{path, valid, problems}]: which
				// of the files failed is what it is asked (#32 point 5).
				if args[0] == "validate" {
					var data struct {
						Files []struct {
							Path  string `json:"path"`
							Valid *bool  `json:"valid"`
						} `json:"files"`
					}
					if err := json.Unmarshal(env["data"], &data); err != nil || len(data.Files) != len(args)-1 {
						t.Errorf("%s: failed with data %s, want files for each of %d", name, env["data"], len(args)-1)
					}
				} else if !bytes.Equal(env["data"], []byte("null")) {
					t.Errorf("%s: failed with data %s, want null", name, env["data"])
				}
			}
			var meta struct {
				Cwd         *string `json:"cwd"`
				ProjectRoot *string `json:"project_root"`
			}
			json.Unmarshal(env["meta"], &meta)
			if meta.Cwd == nil || meta.ProjectRoot == nil {
				t.Errorf("%s: meta %s lacks cwd or project_root", name, env["meta"])
			}
			var warnings []struct{ Message string }
			json.Unmarshal(env["warnings"], &warnings)
			for _, w := range warnings {
				if len(w.Message) > 1000 {
					t.Errorf("%s: a warning message of %d bytes: %.100s...", name, len(w.Message), w.Message)
				}
			}
			var whole any
			json.Unmarshal([]byte(out), &whole)
			for _, bad := range relativePaths(whole, "") {
				t.Errorf("%s: %s is not absolute\n%s", name, bad, out)
			}
		}
	}
}

// relativePaths lists the fields of v that hold a path and are not
// absolute: keys path, file, paths, cwd, project_root, project_dir,
// working_dir and workspace, at any depth (rel_path is relative by
// definition).
func relativePaths(v any, at string) []string {
	var bad []string
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			switch k {
			case "path", "file", "paths", "cwd", "project_root", "project_dir", "working_dir", "workspace":
				for _, s := range stringsIn(x) {
					if !filepath.IsAbs(s) {
						bad = append(bad, at+"."+k+"="+strings.TrimSpace(s))
					}
				}
			}
			bad = append(bad, relativePaths(x, at+"."+k)...)
		}
	case []any:
		for _, x := range v {
			bad = append(bad, relativePaths(x, at+"[]")...)
		}
	}
	return bad
}

func stringsIn(v any) []string {
	switch v := v.(type) {
	case string:
		return []string{v}
	case []any:
		var out []string
		for _, x := range v {
			if s, ok := x.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}
