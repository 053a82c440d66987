package mcpserver_test

import (
	"encoding/json"
	"regexp"
	"testing"
)

// cliFlag is a command-line flag in a message: --var, --task, --run ID…
var cliFlag = regexp.MustCompile(`(^|[\s('"])--[a-z]`)

// TestMessagesNameNoFlag (#29 point 3): what a client reads of a failure
// or a warning names the tool's arguments and the user's settings, never
// a flag of the command line, which it cannot give. Each call reaches a
// message that named one: an input its task does not declare (--var), a
// required input missing, a file of several tasks (--task), an input name
// left empty, no task at all (--path…), a file holding a secret
// (--redact-secrets), a budget without a tokenizer (--tokenizer none) and
// a step's input that waits for an earlier step (--run ID).
func TestMessagesNameNoFlag(t *testing.T) {
	f := newFixture(t)
	write(t, f.dir, map[string]string{
		"xdg/taskctl/config.xml": `<config><assemble><tokenizer>none</tokenizer></assemble></config>`,
		"proj/.taskctl/tasks/two.xml": `<tasks>
<task name="one"><description>one</description><file_paths><path>README.md</path></file_paths></task>
<task name="two"><description>two</description><file_paths><path>README.md</path></file_paths></task>
</tasks>`,
		"proj/.taskctl/tasks/key.xml": `<task name="key"><description>key</description><file_paths><path>key.txt</path><path>README.md</path></file_paths></task>`,
		"proj/.taskctl/tasks/flow.xml": `<task name="flow" type="sequential"><description>d</description><steps>
<task name="make"><description>m</description><file_paths><path>README.md</path></file_paths><output_format type="json"/></task>
<task name="use"><description>u</description><inputs><input name="f" from="make.notes.file"/></inputs>
  <file_paths><path>{{f}}</path><path>README.md</path></file_paths></task>
</steps></task>`,
		"proj/key.txt": "aws_access_key_id = AKIAZ7Q3M9X2W4R8T6Y1\n",
	})
	cs := connect(t, f)
	for _, c := range []struct {
		name string
		args map[string]any
	}{
		{"unknown input", map[string]any{"task": "review", "vars": map[string]any{"area": "src", "nope": "1"}}},
		{"required input", map[string]any{"task": "review"}},
		{"several tasks", map[string]any{"task": ".taskctl/tasks/two.xml"}},
		{"empty input name", map[string]any{"task": "review", "vars": map[string]any{"": "x", "area": "src"}}},
		{"no task", map[string]any{"task": ""}},
		{"secret", map[string]any{"task": "key"}},
		{"budget", map[string]any{"task": "review", "vars": map[string]any{"area": "src"}, "max_tokens": 100}},
		{"pending input", map[string]any{"task": ".taskctl/tasks/flow.xml:use", "paths_only": true}},
	} {
		res := callTool(t, cs, "assemble", c.args)
		said := text(res)
		if !res.IsError {
			w, _ := json.Marshal(res.Meta["taskctl/warnings"])
			said = string(w)
			if said == "null" {
				t.Errorf("%s: no warning and no error; the call reaches neither", c.name)
				continue
			}
		}
		if cliFlag.MatchString(said) {
			t.Errorf("%s: the message names a flag: %s", c.name, said)
		}
	}
}
