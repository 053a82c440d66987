package template_test

import (
	"encoding/json"

	"github.com/taskctl/taskctl/template"
)

// dump shows a task with its pointers followed, for failure messages.
func dump(t *template.Task) string {
	b, err := json.MarshalIndent(t, "", "  ")
	if err != nil {
		return err.Error()
	}
	return string(b)
}
