package contextgen_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base32"
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/taskctl/taskctl/contextgen"
	"github.com/taskctl/taskctl/root"
	"github.com/taskctl/taskctl/template"
)

// TestOmittedInDocument: the files left out (a secret, the budget) are
// listed in the document itself, by path and code, in every style; the xml
// stays well-formed, the secret never appears, and the json form of the
// document is unchanged (its warnings say it already).
func TestOmittedInDocument(t *testing.T) {
	sum := sha256.Sum256([]byte("omitted"))
	secret := "AKIA" + base32.StdEncoding.EncodeToString(sum[:])[:16]
	p := fixture(t, map[string]string{
		"a.txt":   "small\n",
		"key.txt": "id = " + secret + "\n",
		"big.txt": strings.Repeat("many words here ", 400) + "\n",
	})
	c := counter(t)
	for _, style := range []string{contextgen.StyleXML, contextgen.StyleMarkdown, contextgen.StylePlain} {
		doc, err := contextgen.Assemble(context.Background(), literalTask("a.txt", "key.txt", "big.txt"),
			contextgen.Options{Project: p, Counter: c, MaxTokens: 400, Style: style})
		if err != nil {
			t.Fatal(err)
		}
		if len(doc.Files) != 1 || doc.Files[0].Rel != "a.txt" {
			t.Fatalf("%s: kept %v, want a.txt only (warnings %+v)", style, doc.Paths(), doc.Warnings)
		}
		var b bytes.Buffer
		if err := doc.Render(&b, style); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		if strings.Contains(out, secret) {
			t.Fatalf("%s: the document shows the secret", style)
		}
		if n := c.Count(b.Bytes()); n > 400 {
			t.Errorf("%s: %d tokens over the budget of 400", style, n)
		}
		key, big := filepath.Join(p.Dir(), "key.txt"), filepath.Join(p.Dir(), "big.txt")
		switch style {
		case contextgen.StyleXML:
			var got struct {
				Files   []struct{} `xml:"file"`
				Omitted struct {
					Files []struct {
						Path string `xml:"path,attr"`
						Code string `xml:"code,attr"`
					} `xml:"omitted_file"`
				} `xml:"omitted"`
			}
			if err := xml.Unmarshal(b.Bytes(), &got); err != nil {
				t.Fatalf("xml: %v\n%s", err, out)
			}
			om := got.Omitted.Files
			if len(got.Files) != 1 || len(om) != 2 || om[0].Path != key || om[0].Code != "SECRET_DETECTED" ||
				om[1].Path != big || om[1].Code != "BUDGET_EXCEEDED" {
				t.Errorf("xml: files %d, omitted %+v\n%s", len(got.Files), om, out)
			}
		case contextgen.StyleMarkdown:
			for _, want := range []string{"\n## Left out\n\n", "\n- " + key + " (SECRET_DETECTED)\n", "\n- " + big + " (BUDGET_EXCEEDED)\n"} {
				if !strings.Contains(out, want) {
					t.Errorf("markdown: no %q in\n%s", want, out)
				}
			}
		case contextgen.StylePlain:
			for _, want := range []string{"\n==> left out <==\n", "\n" + key + " (SECRET_DETECTED)\n", "\n" + big + " (BUDGET_EXCEEDED)\n"} {
				if !strings.Contains(out, want) {
					t.Errorf("plain: no %q in\n%s", want, out)
				}
			}
		}
		js, err := json.Marshal(doc)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(js, []byte("omitted")) {
			t.Errorf("json: %s", js)
		}
	}
}

// TestWarningsNotRepeated: a file refused for the same reason twice (met
// by a glob and through a symlink to it, and named again) is one warning.
func TestWarningsNotRepeated(t *testing.T) {
	p := fixture(t, map[string]string{"a.txt": "a\n", ".env": "X=1\n"})
	if err := os.Symlink(".env", filepath.Join(p.Dir(), "config")); err != nil {
		t.Fatal(err)
	}
	doc, err := contextgen.Assemble(context.Background(), literalTask("**/*", ".env"), contextgen.Options{Project: p})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, w := range doc.Warnings {
		if w.Code == "PATH_SENSITIVE" {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d PATH_SENSITIVE warnings, want 1: %+v", n, doc.Warnings)
	}
}

// TestOmittedOnlyFiles: the list of files left out names files. A glob that
// matched nothing (its warning names the glob's base directory) and an
// invalid glob (its warning names the glob's text) left no file out; both
// were listed before, the project dir as an omitted file among them.
func TestOmittedOnlyFiles(t *testing.T) {
	p := fixture(t, map[string]string{"a.txt": "a\n", ".env": "X=1\n"})
	doc, err := contextgen.Assemble(context.Background(), literalTask("a.txt", "**/*.nomatch", "a.txt/**", "**/../x", ".env"),
		contextgen.Options{Project: p})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := doc.Render(&b, contextgen.StyleXML); err != nil {
		t.Fatal(err)
	}
	want := "<omitted files=\"1\">\n<omitted_file path=\"" + filepath.Join(p.Dir(), ".env") + "\" code=\"PATH_SENSITIVE\"/>\n</omitted>\n"
	if !strings.Contains(b.String(), want) {
		t.Errorf("want only .env left out:\n%s\nwarnings %+v", b.String(), doc.Warnings)
	}
}

// TestCommandWithHyphenatedInput: an input whose name no shell variable can
// have (my-area, for {{my-area}}) does not stop the task's commands; every
// command of such a task was refused (COMMAND_DENIED), even one that reads
// no input.
func TestCommandWithHyphenatedInput(t *testing.T) {
	p := fixture(t, map[string]string{"src/a.py": "a\n"})
	task := &template.Task{Name: "t", Description: "t",
		Inputs:  []template.Input{{Name: "my-area", Default: "src", HasDefault: true}, {Name: "area", Default: "src", HasDefault: true}},
		Sources: []template.FileSource{{Kind: template.SourceCommand, Command: `find "$area" -name '*.py'`}}}
	doc := assembleTask(t, p, task)
	if len(doc.Files) != 1 || doc.Files[0].Rel != "src/a.py" || len(doc.Warnings) != 0 {
		t.Errorf("files %v, warnings %+v; want src/a.py and no warning", doc.Paths(), doc.Warnings)
	}
}

// TestCommandOutputSecretRedacted: a command that prints a file's lines
// instead of paths (grep without -l, cat) makes warnings that quote them;
// a secret in such a line is redacted there and in the document's list of
// what was left out, as it is in a file's content. The line went out
// verbatim, past the secret scan. Since #29 the content policy keeps such
// a file from commands altogether (one SECRET_DETECTED warning naming
// the file and the rule); the redaction of what a command prints still
// guards the warnings where the policy lets secrets through.
func TestCommandOutputSecretRedacted(t *testing.T) {
	sum := sha256.Sum256([]byte("cmd-out"))
	secret := "ghp_" + strings.ToLower(base32.StdEncoding.EncodeToString(sum[:]))[:20] + "Zq81xPm4Tb2Lw9Ry0vKd"
	files := map[string]string{"deploy.txt": "token = \"" + secret + "\"\n"}
	for _, allow := range []bool{false, true} {
		p := fixturePolicy(t, files, root.Policy{AllowSecrets: allow})
		for _, cmd := range []string{`grep -rh token .`, `grep -rh token . | xargs cat`} {
			task := &template.Task{Name: "t", Description: "t",
				Sources: []template.FileSource{{Kind: template.SourceCommand, Command: cmd}}}
			doc := assembleTask(t, p, task)
			var b bytes.Buffer
			if err := doc.Render(&b, contextgen.StyleXML); err != nil {
				t.Fatal(err)
			}
			ws, _ := json.Marshal(doc.Warnings)
			if len(doc.Warnings) == 0 || strings.Contains(string(ws), secret) || strings.Contains(b.String(), secret) {
				t.Errorf("%s: the secret is in the warnings or the document:\n%s\n%s", cmd, ws, b.String())
			}
			want := "[REDACTED:github-token]"
			if !allow {
				want = `"code":"SECRET_DETECTED","message":"the command tried to read it: not read: its content holds a secret (rule github-token at line 1)`
			}
			if !strings.Contains(string(ws), want) {
				t.Errorf("%s (secrets allowed: %v): no %s in the warnings: %s", cmd, allow, want, ws)
			}
		}
	}
}

// TestOmittedNotCommandOutput: the lines a command prints that name no file
// (cat of a file, grep without -l) are warnings for the user, not entries
// of the document's list of files left out: that list goes to the model,
// and it carried whatever text the command read (the lines of hosts.txt,
// secret or not; a sensitive file such as .env.local a command cannot read
// at all). A literal path that does not exist is still listed.
func TestOmittedNotCommandOutput(t *testing.T) {
	p := fixture(t, map[string]string{"hosts.txt": "DB_HOST=db.internal.example\nADMIN_PASS=letmein\n"})
	task := &template.Task{Name: "t", Description: "t", Sources: []template.FileSource{
		{Kind: template.SourceCommand, Command: `cat hosts.txt`},
		{Kind: template.SourceLiteral, Paths: []template.PathSpec{{Value: "missing.txt"}}},
	}}
	doc := assembleTask(t, p, task)
	for _, style := range []string{contextgen.StyleXML, contextgen.StyleMarkdown, contextgen.StylePlain} {
		var b bytes.Buffer
		if err := doc.Render(&b, style); err != nil {
			t.Fatal(err)
		}
		if out := b.String(); strings.Contains(out, "letmein") || strings.Contains(out, "db.internal") || !strings.Contains(out, "missing.txt") {
			t.Errorf("%s: want missing.txt listed and no line of hosts.txt:\n%s", style, out)
		}
	}
	if len(doc.Warnings) != 3 {
		t.Errorf("want the 3 PATH_NOT_FOUND warnings kept, got %+v", doc.Warnings)
	}
}
