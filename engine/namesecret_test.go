package engine_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/taskctl/taskctl/engine"
)

// keyName is an AWS access key ID as a file name would carry it: the
// scanner's rule matches it (not a placeholder, enough entropy).
const keyName = "AKIAZ7Q3M9X2W4R8T6Y1"

// TestSecretInFileNameNotIndexed: a file whose name holds a secret is not
// indexed, so search never prints the name (#21 Also: a name is content).
func TestSecretInFileNameNotIndexed(t *testing.T) {
	dir := t.TempDir()
	proj := filepath.Join(dir, "proj")
	writeFiles(t, dir, map[string]string{
		"proj/.git/HEAD":                  "ref: refs/heads/main\n",
		"proj/keys/" + keyName + ".txt":   "deploy credentials rotation notes\n",
		"proj/keys/rotation.md":           "deploy credentials rotation notes\n",
		"proj/docs/" + keyName + "/x.txt": "deploy credentials rotation notes\n",
	})
	e := open(t, proj, filepath.Join(dir, "xdg"), engine.Options{Command: "search"})
	res, err := e.Search(context.Background(), engine.SearchRequest{Query: "deploy credentials rotation", Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, m := range res.Matches {
		if strings.Contains(m.Path, "AKIA") || strings.Contains(m.Reason.String(), "AKIA") {
			t.Errorf("search printed a name holding a secret: %s", m.Path)
		}
		found = found || strings.HasSuffix(m.Path, "rotation.md")
	}
	if !found {
		t.Errorf("search found %v, want keys/rotation.md", res.Matches)
	}
}
