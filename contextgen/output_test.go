package contextgen_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/taskctl/taskctl/contextgen"
	"github.com/taskctl/taskctl/root"
	"github.com/taskctl/taskctl/template"
)

func rot13(s string) string {
	b := []byte(s)
	for i, c := range b {
		switch {
		case 'a' <= c && c <= 'z':
			b[i] = 'a' + (c-'a'+13)%26
		case 'A' <= c && c <= 'Z':
			b[i] = 'A' + (c-'A'+13)%26
		}
	}
	return string(b)
}

// TestCommandOutputNeverQuoted: what a command prints that is not a path
// of the project never reaches a warning or the document, whole, in
// pieces or transformed (#21 point 3): cat of a file holding a key after a
// TAB, rot13 by tr, cut in pieces, set -x traces. Such lines are counted,
// one warning each, which says how to see them; one holding a secret says
// which rule found it.
func TestCommandOutputNeverQuoted(t *testing.T) {
	const key = "AKIAZ7Q3M9X2W4R8T6Y1"
	p := fixture(t, map[string]string{"keys.tsv": "prod\t" + key + "\n", "a.go": "package a\n"})
	pieces := []string{key, rot13(key), "prod"}
	for i := 0; i+6 <= len(key); i += 3 {
		pieces = append(pieces, key[i:i+6], rot13(key)[i:i+6])
	}
	for _, cmd := range []string{
		"cat keys.tsv",
		"tr A-Za-z N-ZA-Mn-za-m < keys.tsv",
		"cut -c6-13 keys.tsv; cut -c14-25 keys.tsv",
		"cut -f2 keys.tsv | cut -c1-6; cut -f2 keys.tsv | cut -c7-20",
		`set -x; echo "$(<keys.tsv)" >/dev/null; echo a.go`,
		"set -o xtrace; cat keys.tsv >/dev/null",
		"grep -h AKIA keys.tsv; echo a.go",
		"sed 's/^/x/' keys.tsv",
		"sort keys.tsv | uniq",
		// Operands taken from a file: error messages name them.
		"tr A-Za-z N-ZA-Mn-za-m < keys.tsv | xargs cat",
		"cut -f2 keys.tsv | cut -c1-6 | xargs ls",
		"cat keys.tsv | xargs grep -l x",
	} {
		task := &template.Task{Name: "t", Description: "t",
			Sources: []template.FileSource{{Kind: template.SourceCommand, Command: cmd}}}
		doc := assembleTask(t, p, task)
		var b bytes.Buffer
		if err := doc.Render(&b, contextgen.StyleXML); err != nil {
			t.Fatal(err)
		}
		ws, _ := json.Marshal(doc.Warnings)
		all := string(ws) + b.String()
		for _, piece := range pieces {
			if strings.Contains(all, piece) {
				t.Errorf("%s: %q of the file reached the warnings or the document:\n%s", cmd, piece, ws)
			}
		}
		if len(doc.Warnings) == 0 {
			t.Errorf("%s: no warning", cmd)
		}
	}
	// A line that is not a path is counted and says how to see it. The
	// content policy keeps keys.tsv from commands (#29) unless secrets
	// are allowed: then its line is counted, with its rule.
	task := &template.Task{Name: "t", Description: "t",
		Sources: []template.FileSource{{Kind: template.SourceCommand, Command: "cat keys.tsv; echo a.go"}}}
	refused := assembleTask(t, p, task)
	if rw, _ := json.Marshal(refused.Warnings); !strings.Contains(string(rw), "SECRET_DETECTED") || len(refused.Files) != 1 {
		t.Errorf("cat keys.tsv; echo a.go: warnings %s, %d files; want keys.tsv refused to cat, and a.go", rw, len(refused.Files))
	}
	p = fixturePolicy(t, map[string]string{"keys.tsv": "prod\t" + key + "\n", "a.go": "package a\n"}, root.Policy{AllowSecrets: true})
	doc := assembleTask(t, p, task)
	ws, _ := json.Marshal(doc.Warnings)
	if !strings.Contains(string(ws), "line 1 of the command's output") || !strings.Contains(string(ws), "[REDACTED:aws-access-key-id]") ||
		len(doc.Files) != 1 {
		t.Errorf("cat keys.tsv; echo a.go: warnings %s, %d files; want line 1 counted with its rule, and a.go", ws, len(doc.Files))
	}
}
