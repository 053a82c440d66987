package contextgen_test

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"path/filepath"
	"strings"
	"testing"

	"github.com/taskctl/taskctl/contextgen"
	"github.com/taskctl/taskctl/memory"
	"github.com/taskctl/taskctl/project"
	"github.com/taskctl/taskctl/template"
)

// indexOf builds the lexical index of p's files in a temporary directory.
func indexOf(t *testing.T, p *project.Project) func(context.Context) (*memory.Index, error) {
	t.Helper()
	ix, _, err := memory.Open(filepath.Join(t.TempDir(), "index"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ix.Refresh(context.Background(), memory.DirSource(p.Dir()), nil); err != nil {
		t.Fatal(err)
	}
	return func(context.Context) (*memory.Index, error) { return ix, nil }
}

func reasonOf(t *testing.T, f *contextgen.File) memory.Reason {
	t.Helper()
	switch r := f.Reason.(type) {
	case memory.Reason:
		return r
	case *memory.Reason:
		return *r
	}
	t.Fatalf("%s: reason %T", f.Rel, f.Reason)
	return memory.Reason{}
}

// TestDescriptionReasonBestLine: a description match's reason carries the
// best-matching line, as `taskctl search` shows it, and never a secret on
// that line: the line is read with secrets redacted.
func TestDescriptionReasonBestLine(t *testing.T) {
	// A token built at run time, so that this file holds none.
	sum := sha256.Sum256([]byte("reason"))
	token := "ghp_" + strings.NewReplacer("+", "", "/", "", "=", "").Replace(base64.StdEncoding.EncodeToString(append(sum[:], sum[:]...)))[:36]
	p := fixture(t, map[string]string{
		"auth/login.go":  "package auth\n\n// unrelated\n\n// Authenticate checks the password hash at login.\nfunc Authenticate() {}\n",
		"deploy/frob.go": "package deploy\n\n// The service's credential.\nvar frobnicatorDeployToken = \"" + token + "\" // frobnicator deploy\n",
	})
	task := &template.Task{Name: "t", Description: "t", Sources: []template.FileSource{{Kind: contextgen.SourceDescription,
		Description: "authenticate password hash login"}, {Kind: contextgen.SourceDescription, Description: "frobnicator deploy token"}}}
	doc, err := contextgen.Assemble(context.Background(), task, contextgen.Options{Project: p, Index: indexOf(t, p), RedactSecrets: true})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, f := range doc.Files {
		r := reasonOf(t, f)
		seen[f.Rel] = true
		switch f.Rel {
		case "auth/login.go":
			if r.Line != 5 || !strings.Contains(r.Text, "Authenticate checks the password hash") {
				t.Errorf("%s: best line %d %q, want line 5", f.Rel, r.Line, r.Text)
			}
		case "deploy/frob.go":
			if r.Line == 0 || r.Text == "" {
				t.Errorf("%s: no best line (reason %+v, warnings %+v)", f.Rel, r, doc.Warnings)
			}
		}
		if strings.Contains(r.Text, token) {
			t.Errorf("%s: the reason shows the secret: %q", f.Rel, r.Text)
		}
	}
	if !seen["auth/login.go"] || !seen["deploy/frob.go"] {
		t.Fatalf("matched %v", seen)
	}
}
