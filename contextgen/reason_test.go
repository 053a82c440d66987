package contextgen_test

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/taskctl/taskctl/contextgen"
	"github.com/taskctl/taskctl/internal/diag"
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
	if _, err := ix.Refresh(context.Background(), memory.ProjectSource(p), nil); err != nil {
		t.Fatal(err)
	}
	return func(context.Context) (*memory.Index, error) { return ix, nil }
}

func reasonOf(t *testing.T, f *contextgen.File) memory.Reason {
	t.Helper()
	if f.Reason == nil {
		t.Fatalf("%s: no reason", f.Rel)
	}
	return *f.Reason
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
	task := &template.Task{Name: "t", Description: "t", Sources: []template.FileSource{{Kind: template.SourceDescription,
		Description: "authenticate password hash login"}, {Kind: template.SourceDescription, Description: "frobnicator deploy token"}}}
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

// TestSubsetInheritance: subset keeps the parent files relevant to the
// step's description, ranks a relevant parent file the index does not hold
// (here: written after the index was built) by the description's terms it
// contains, and reports every parent file it leaves out.
func TestSubsetInheritance(t *testing.T) {
	p := fixture(t, map[string]string{
		"auth/hash.go":   "package auth\n\n// HashPassword hashes a password with argon2.\nfunc HashPassword() {}\n",
		"docs/deploy.md": "# Deploy\n\nPush the image to the registry.\n",
	})
	index := indexOf(t, p)
	writeFile(t, p, "local/notes.txt", "notes\nthe password hashing cost must go up\n")
	var parent []*contextgen.File
	for _, rel := range []string{"auth/hash.go", "local/notes.txt", "docs/deploy.md"} {
		parent = append(parent, &contextgen.File{Path: filepath.Join(p.Dir(), rel), Rel: rel})
	}
	step := &template.Task{Name: "plan", Description: "plan password hashing"}
	doc, err := contextgen.Assemble(context.Background(), step, contextgen.Options{Project: p, Index: index,
		Inherit: "subset", Inherited: parent})
	if err != nil {
		t.Fatal(err)
	}
	kept := map[string]*contextgen.File{}
	for _, f := range doc.Files {
		kept[f.Rel] = f
	}
	if kept["auth/hash.go"] == nil || kept["local/notes.txt"] == nil || kept["docs/deploy.md"] != nil || len(kept) != 2 {
		t.Fatalf("kept %v, want auth/hash.go and local/notes.txt (warnings %+v)", doc.Paths(), doc.Warnings)
	}
	if f := kept["local/notes.txt"]; f.Score == nil || *f.Score <= 0 || f.Source != contextgen.SourceInherited {
		t.Errorf("local/notes.txt: source %s score %v, want inherited with a score", f.Source, f.Score)
	} else if r := reasonOf(t, f); len(r.Terms["content"]) == 0 || r.Line != 2 {
		t.Errorf("local/notes.txt: reason %+v, want its matched terms and line 2", r)
	}
	reported := false
	for _, w := range doc.Warnings {
		if w.Path == filepath.Join(p.Dir(), "docs/deploy.md") && w.Code == diag.InheritNotRelevant {
			reported = true
		}
	}
	if !reported {
		t.Errorf("docs/deploy.md left out without a %s warning: %+v", diag.InheritNotRelevant, doc.Warnings)
	}
}

func writeFile(t *testing.T, p *project.Project, rel, content string) {
	t.Helper()
	path := filepath.Join(p.Dir(), filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
