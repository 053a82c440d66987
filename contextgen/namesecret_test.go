package contextgen_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/taskctl/taskctl/template"
)

// TestSecretInFileNameLeftOut: a file whose path holds a secret is left
// out of the document with SECRET_DETECTED, and no warning or file entry
// prints the name raw (#21 Also: a name is content).
func TestSecretInFileNameLeftOut(t *testing.T) {
	const key = "AKIAZ7Q3M9X2W4R8T6Y1"
	p := fixture(t, map[string]string{
		"keys/" + key + ".txt": "notes\n",
		"keys/plain.txt":       "notes\n",
		key + "/inside.txt":    "notes\n",
	})
	task := &template.Task{Name: "t", Description: "t", Sources: []template.FileSource{
		{Kind: template.SourceLiteral, Paths: []template.PathSpec{{Value: "keys/*"}, {Value: key + "/inside.txt"}}},
	}}
	doc := assembleTask(t, p, task)
	out, _ := json.Marshal(doc)
	if strings.Contains(string(out), key) {
		t.Errorf("the document or its warnings print the key: %s", out)
	}
	if len(doc.Files) != 1 || !strings.HasSuffix(doc.Files[0].Path, "plain.txt") {
		t.Errorf("files %v, want keys/plain.txt alone", doc.Files)
	}
	n := 0
	for _, w := range doc.Warnings {
		if w.Code == "SECRET_DETECTED" {
			n++
		}
	}
	if n != 2 {
		t.Errorf("%d SECRET_DETECTED warnings, want 2: %v", n, doc.Warnings)
	}
}
