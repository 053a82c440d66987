package engine_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/taskctl/taskctl/engine"
	"github.com/taskctl/taskctl/internal/diag"
	"github.com/taskctl/taskctl/template"
)

func writeFiles(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// open opens proj with a user config dir of its own (XDG_CONFIG_HOME).
func open(t *testing.T, proj, xdg string, o engine.Options) *engine.Engine {
	t.Helper()
	o.Cwd = proj
	o.Getenv = func(k string) string {
		if k == "XDG_CONFIG_HOME" {
			return xdg
		}
		return ""
	}
	e, err := engine.Open(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// TestSettingsMerge: each row of the table merges as it says: lists are
// appended in the order user, project, --config; scalars are replaced by
// the later source; a flag overrides every file; each key names its source.
func TestSettingsMerge(t *testing.T) {
	dir := t.TempDir()
	proj, xdg := filepath.Join(dir, "proj"), filepath.Join(dir, "xdg")
	extra := filepath.Join(dir, "extra")
	writeFiles(t, dir, map[string]string{
		"proj/.git/HEAD": "ref: refs/heads/main\n",
		"extra/keep":     "",
		"xdg/taskctl/config.xml": `<config><policy><exclude>
		    vendor/**
		  </exclude><max_files>50</max_files></policy>
		  <assemble><style>markdown</style></assemble><command><timeout>3</timeout></command></config>`,
		"proj/.taskctl/config.xml": `<config><policy><allowed_root>../../extra</allowed_root><exclude>gen/**</exclude>
		  <max_files>40</max_files></policy><run><executor>./agent.sh</executor></run></config>`,
		"more.xml": `<config><policy><exclude>tmp/**</exclude></policy><audit>true</audit></config>`,
	})
	// The project's config names an executor and a root: trusted.
	if _, err := open(t, proj, xdg, engine.Options{}).Trust(); err != nil {
		t.Fatal(err)
	}
	e := open(t, proj, xdg, engine.Options{ConfigFile: filepath.Join(dir, "more.xml"),
		Overrides: engine.Overrides{MaxFiles: ptr(7), StepTimeout: ptr(5 * time.Second)}})
	s, err := e.Settings()
	if err != nil {
		var ee *engine.Error
		errors.As(err, &ee)
		t.Fatalf("%v: %+v", err, ee.Problems)
	}
	userCfg := filepath.Join(xdg, "taskctl", "config.xml")
	projCfg := filepath.Join(proj, ".taskctl", "config.xml")
	if want := []string{"vendor/**", "gen/**", "tmp/**"}; !reflect.DeepEqual(s.Exclude, want) {
		t.Errorf("exclude %q, want %q (appended, trimmed)", s.Exclude, want)
	}
	if want := []string{extra}; !reflect.DeepEqual(s.AllowedRoots, want) {
		t.Errorf("allowed roots %q, want %q (relative to the config file)", s.AllowedRoots, want)
	}
	if s.MaxFiles != 7 || s.Style != "markdown" || s.CommandTimeout != 3*time.Second || s.StepTimeout != 5*time.Second ||
		s.Executor != "./agent.sh" || !s.Audit {
		t.Errorf("settings %+v", s)
	}
	for key, want := range map[string]string{
		"policy.exclude": filepath.Join(dir, "more.xml"), "policy.max_files": engine.SourceOverride,
		"assemble.style": userCfg, "run.executor": projCfg, "run.step_timeout": engine.SourceOverride,
		"assemble.tokenizer": "default", "audit": filepath.Join(dir, "more.xml"),
	} {
		if got := s.Sources[key]; got != want {
			t.Errorf("source of %s: %q, want %q", key, got, want)
		}
	}
	if want := []string{userCfg, projCfg, filepath.Join(dir, "more.xml")}; !reflect.DeepEqual(s.Files, want) {
		t.Errorf("files %q, want %q", s.Files, want)
	}
	vals := s.Values()
	if len(vals) != len(engine.Keys()) || vals["command.timeout"] != "3s" || vals["policy.max_files"] != 7 {
		t.Errorf("values %v", vals)
	}
}

// TestConfigProblemsArePositioned: what the XSD cannot say about a config
// file (a marker that is a path, a pattern that never matches, a root that
// does not exist) fails every command with CONFIG_INVALID at the element's
// line and column.
func TestConfigProblemsArePositioned(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		".git/HEAD": "ref: refs/heads/main\n",
		".taskctl/config.xml": "<config>\n  <project><marker>a/b</marker></project>\n" +
			"  <policy><allowed_root>nowhere</allowed_root>\n    <exclude>vendor/</exclude></policy>\n</config>\n",
	})
	_, err := open(t, dir, filepath.Join(dir, "xdg"), engine.Options{}).Settings()
	var ee *engine.Error
	if !errors.As(err, &ee) || ee.Code != diag.ConfigInvalid || ee.Class != engine.ClassUsage {
		t.Fatalf("err %v, want CONFIG_INVALID", err)
	}
	var at [][2]int
	for _, p := range ee.Problems {
		at = append(at, [2]int{p.Line, p.Col})
	}
	if want := [][2]int{{3, 11}, {2, 12}, {4, 5}}; !reflect.DeepEqual(at, want) {
		t.Errorf("problems at %v, want %v: %+v", at, want, ee.Problems)
	}
}

// TestListTasks lists every top-level task of the library with its inputs
// and steps; a broken file is left out with a warning, not a failure.
func TestListTasks(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		".git/HEAD": "ref: refs/heads/main\n",
		".taskctl/tasks/a.xml": `<tasks>
  <task name="review"><description>Review {{area}}</description>
    <inputs><input name="area" default=".">what to review</input></inputs></task>
  <task name="flow" type="sequential"><description>Plan then do</description>
    <steps><task name="plan"><description>Plan</description></task><task name="do"><description>Do</description></task></steps></task>
</tasks>`,
		".taskctl/tasks/b.xml": `<tasks><task name="broken"></task></tasks>`,
	})
	e := open(t, dir, filepath.Join(dir, "xdg"), engine.Options{})
	res, err := e.ListTasks()
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Tasks) != 2 {
		t.Fatalf("tasks %+v, want review and flow", res.Tasks)
	}
	r, f := res.Tasks[0], res.Tasks[1]
	if r.Name != "review" || r.Type != "atomic" || r.Description != "Review {{area}}" || r.Line != 2 ||
		len(r.Inputs) != 1 || r.Inputs[0] != (engine.InputInfo{Name: "area", Description: "what to review", Default: ".", HasDefault: true}) {
		t.Errorf("review: %+v", r)
	}
	if f.Name != "flow" || f.Type != "sequential" || !reflect.DeepEqual(f.Steps, []string{"plan", "do"}) {
		t.Errorf("flow: %+v", f)
	}
	ws := res.Warnings
	if len(ws) != 1 || ws[0].Code != diag.TemplateInvalid || ws[0].Path != filepath.Join(dir, ".taskctl/tasks/b.xml") {
		t.Errorf("warnings %+v, want one TEMPLATE_INVALID for b.xml", ws)
	}
}

// TestAncestors: a step's ancestry is the tasks above it, top first.
func TestAncestors(t *testing.T) {
	tf, err := template.Parse("f.xml", []byte(`<tasks><task name="top" type="sequential"><description>t</description><steps>
  <task name="mid" type="sequential"><description>m</description><steps><task name="leaf"><description>l</description></task></steps></task>
</steps></task><task name="other"><description>o</description></task></tasks>`))
	if err != nil {
		t.Fatal(err)
	}
	names := func(ts []*template.Task) (out []string) {
		for _, x := range ts {
			out = append(out, x.Name)
		}
		return out
	}
	if got := names(engine.Ancestors(tf, tf.Lookup("leaf"))); !reflect.DeepEqual(got, []string{"top", "mid"}) {
		t.Errorf("ancestors of leaf: %q", got)
	}
	if got := engine.Ancestors(tf, tf.Lookup("other")); got != nil {
		t.Errorf("ancestors of a top-level task: %q", names(got))
	}
}

// TestValidateClasses: files that only do not exist are "not found";
// one invalid file makes the whole call invalid.
func TestValidateClasses(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"ok.xml":  `<task name="a"><description>d</description></task>`,
		"bad.xml": `<task name="a"></task>`,
	})
	e := open(t, dir, filepath.Join(dir, "xdg"), engine.Options{})
	for _, tc := range []struct {
		files []string
		class engine.Class
		code  diag.Code
	}{
		{[]string{"ok.xml", "gone.xml"}, engine.ClassNotFound, diag.TemplateNotFound},
		{[]string{"bad.xml", "gone.xml"}, engine.ClassUsage, diag.TemplateInvalid},
	} {
		res, err := e.Validate(tc.files)
		var ee *engine.Error
		if !errors.As(err, &ee) || ee.Class != tc.class || ee.Code != tc.code {
			t.Errorf("%v: err %v, want %s", tc.files, err, tc.code)
			continue
		}
		if len(res.Files) != 2 || !filepath.IsAbs(res.Files[0].Path) || res.Files[1].Valid {
			t.Errorf("%v: %+v", tc.files, res.Files)
		}
	}
	if res, err := e.Validate([]string{"ok.xml"}); err != nil || !res.Files[0].Valid {
		t.Errorf("ok.xml: %v %+v", err, res)
	}
}

func ptr[T any](v T) *T { return &v }
