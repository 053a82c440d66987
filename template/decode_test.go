package template_test

import (
	"os"
	"reflect"
	"testing"

	"github.com/taskctl/taskctl/internal/diag"
	"github.com/taskctl/taskctl/template"
)

// exported copies the exported fields of t, and of its steps, so that tasks
// compare with reflect.DeepEqual without their unexported links (parent,
// bound values, file).
func exported(t *template.Task) *template.Task {
	if t == nil {
		return nil
	}
	c := &template.Task{
		Name: t.Name, Type: t.Type, Subtype: t.Subtype,
		Description: t.Description, Instructions: t.Instructions,
		DescriptionPos: t.DescriptionPos, InstructionsPos: t.InstructionsPos,
		Inputs: t.Inputs, Context: t.Context, Sources: t.Sources, Output: t.Output,
		Pos: t.Pos, Role: t.Role, Loop: t.Loop, Reduce: t.Reduce,
	}
	for _, s := range t.Steps {
		c.Steps = append(c.Steps, exported(s))
	}
	return c
}

// TestExportedCovers fails when Task gains an exported field that exported
// (and so every comparison of tasks here) would silently leave out.
func TestExportedCovers(t *testing.T) {
	n := 0
	for f := range reflect.TypeFor[template.Task]().Fields() {
		if f.IsExported() {
			n++
		}
	}
	if n != 16 {
		t.Fatalf("template.Task has %d exported fields; exported() copies 16: update it", n)
	}
}

func ptr[T any](v T) *T { return &v }

func TestDecodeEverything(t *testing.T) {
	data, err := os.ReadFile("testdata/everything.xml")
	if err != nil {
		t.Fatal(err)
	}
	f, err := template.Parse("testdata/everything.xml", data)
	if err != nil {
		t.Fatal(err)
	}
	want := []*template.Task{{
		Name: "all", Type: "atomic", Subtype: "standard",
		Description:     "Review {{area}} for {{ who }}",
		Instructions:    "Be brief.",
		DescriptionPos:  template.Pos{Line: 5, Col: 5},
		InstructionsPos: template.Pos{Line: 8, Col: 5},
		Inputs: []template.Input{
			{Name: "area", Doc: "the area", Default: "src", HasDefault: true, Relevant: true, Pos: template.Pos{Line: 10, Col: 7}},
			{Name: "who", Doc: "the reader", Pos: template.Pos{Line: 11, Col: 7}},
			{Name: "empty", HasDefault: true, Pos: template.Pos{Line: 12, Col: 7}},
		},
		Context: template.ContextSpec{
			Inherit: ptr("none"), Accumulate: ptr(false), Format: ptr("full_output"), Fresh: ptr("enabled"),
			MaxTokens: 5000, Pos: template.Pos{Line: 14, Col: 5},
			InheritPos: template.Pos{Line: 15, Col: 7}, AccumulatePos: template.Pos{Line: 16, Col: 7}, FormatPos: template.Pos{Line: 17, Col: 7},
			FreshPos: template.Pos{Line: 18, Col: 7}, MaxTokensPos: template.Pos{Line: 19, Col: 7},
		},
		Sources: []template.FileSource{
			{Kind: "literal", MaxFiles: 10, Pos: template.Pos{Line: 21, Col: 5}, Paths: []template.PathSpec{
				{Value: "{{area}}/main.go", MaxLines: 40, SkipLines: 0, MaxBytes: 4096, Pos: template.Pos{Line: 22, Col: 7}},
				{Value: "docs/**/*.md", Pos: template.Pos{Line: 23, Col: 7}},
			}},
			{Kind: "command", Command: `git ls-files '*.go' -- "$area"`, CommandTimeout: 5, MaxFiles: 3,
				Include: []string{"src/**"}, Exclude: []string{"**/*_test.go", "vendor/**"}, Pos: template.Pos{Line: 25, Col: 5},
				CommandPos: template.Pos{Line: 26, Col: 7}},
			{Kind: "description", Description: "error handling in {{area}}", Limit: 5, MinScore: 0.25, HasMinScore: true,
				Include: []string{"src/**", "cmd/**"}, Exclude: []string{"gen/**"}, Pos: template.Pos{Line: 28, Col: 5},
				DescriptionPos: template.Pos{Line: 29, Col: 7}},
			{Kind: "literal", Pos: template.Pos{Line: 31, Col: 5}, Paths: []template.PathSpec{
				{Value: "README.md", Pos: template.Pos{Line: 31, Col: 17}},
			}},
		},
		Output: &template.OutputFormat{Type: "json", Schema: "object", Pos: template.Pos{Line: 32, Col: 5}},
		Pos:    template.Pos{Line: 4, Col: 3},
	}, {
		Name: "flow", Type: "sequential", Subtype: "review", Description: "flow",
		DescriptionPos: template.Pos{Line: 35, Col: 5}, InstructionsPos: template.Pos{Line: 34, Col: 3},
		Inputs:  []template.Input{{Name: "topic", Doc: "what to look at", Default: "x", HasDefault: true, Pos: template.Pos{Line: 36, Col: 13}}},
		Context: template.ContextSpec{Accumulate: ptr(false), Pos: template.Pos{Line: 37, Col: 5}, AccumulatePos: template.Pos{Line: 37, Col: 25}},
		Output:  &template.OutputFormat{Type: "text", Pos: template.Pos{Line: 38, Col: 5}},
		Pos:     template.Pos{Line: 34, Col: 3},
		Steps: []*template.Task{
			{Name: "one", Type: "atomic", Description: "one {{topic}}",
				DescriptionPos: template.Pos{Line: 40, Col: 24}, InstructionsPos: template.Pos{Line: 40, Col: 7}, Pos: template.Pos{Line: 40, Col: 7}},
			{Name: "two", Type: "atomic", Description: "two",
				DescriptionPos: template.Pos{Line: 42, Col: 9}, InstructionsPos: template.Pos{Line: 41, Col: 7}, Pos: template.Pos{Line: 41, Col: 7},
				Inputs: []template.Input{{Name: "prev", Doc: "the plan", From: "one.parsed.a.b", Pos: template.Pos{Line: 43, Col: 17}}}},
		},
	}}
	if f.Path != "testdata/everything.xml" {
		t.Errorf("Path = %q", f.Path)
	}
	if len(f.Tasks) != len(want) {
		t.Fatalf("%d tasks, want %d", len(f.Tasks), len(want))
	}
	for i, w := range want {
		if got := exported(f.Tasks[i]); !reflect.DeepEqual(got, w) {
			t.Errorf("task %d:\n got %s\nwant %s", i, dump(got), dump(w))
		}
	}
	wantWarn := []diag.Problem{{File: "testdata/everything.xml", Line: 17, Col: 7, Code: "CONTEXT_UNUSED_SETTING",
		Message: "accumulation_format is set but accumulate_data is false"}}
	if !reflect.DeepEqual(f.Warnings, wantWarn) {
		t.Errorf("Warnings = %+v, want %+v", f.Warnings, wantWarn)
	}
}
