package mcpserver_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// TestToolAnnotationsAndSchemas: every tool says whether it only reads
// (readOnlyHint) or may replace or remove (destructiveHint), and no
// schema has a type array (["null", "array"]), which one-type schema
// dialects reject (the Inspector's --strict warning).
func TestToolAnnotationsAndSchemas(t *testing.T) {
	f := newFixture(t)
	cs := connect(t, f)
	list, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	reads := map[string]bool{"read_file": true, "list_directory": true, "file_info": true, "search": true,
		"validate": true, "list_tasks": true, "assemble": true}
	destructive := map[string]bool{"write_file": true, "edit_file": true, "move_file": true, "delete_file": true, "copy_file": true}
	for _, tool := range list.Tools {
		a := tool.Annotations
		switch {
		case a == nil:
			t.Errorf("%s: no annotations", tool.Name)
		case reads[tool.Name] && !a.ReadOnlyHint:
			t.Errorf("%s: not readOnlyHint", tool.Name)
		case destructive[tool.Name] && (a.ReadOnlyHint || a.DestructiveHint == nil || !*a.DestructiveHint):
			t.Errorf("%s: not destructiveHint", tool.Name)
		case !reads[tool.Name] && a.ReadOnlyHint:
			t.Errorf("%s: a write marked readOnlyHint", tool.Name)
		}
		for what, schema := range map[string]any{"input": tool.InputSchema, "output": tool.OutputSchema} {
			b, _ := json.Marshal(schema)
			if strings.Contains(string(b), `"type":[`) {
				t.Errorf("%s: a type array in the %s schema: %s", tool.Name, what, b)
			}
		}
	}
	if len(list.Tools) < 13 {
		t.Errorf("%d tools", len(list.Tools))
	}
}
