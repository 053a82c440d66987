package contextgen_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/taskctl/taskctl/contextgen"
	"github.com/taskctl/taskctl/contextgen/tokens"
	"github.com/taskctl/taskctl/project"
	"github.com/taskctl/taskctl/root"
	"github.com/taskctl/taskctl/template"
)

// fixture writes files into a new project and returns it opened.
func fixture(t *testing.T, files map[string]string) *project.Project {
	t.Helper()
	return fixturePolicy(t, files, root.Policy{})
}

// fixturePolicy is fixture under the policy pol.
func fixturePolicy(t *testing.T, files map[string]string, pol root.Policy) *project.Project {
	t.Helper()
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	for rel, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p, err := project.Open(project.Options{WorkingDir: dir, ProjectDir: dir, Policy: pol})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

func literalTask(paths ...string) *template.Task {
	src := template.FileSource{Kind: template.SourceLiteral}
	for _, p := range paths {
		src.Paths = append(src.Paths, template.PathSpec{Value: p})
	}
	return &template.Task{Name: "t", Description: "t", Sources: []template.FileSource{src}}
}

func counter(t *testing.T) tokens.Counter {
	t.Helper()
	c, err := tokens.New("o200k_base")
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestBudgetBoundsRenderedDocument: under every budget, in every style, the
// rendered document (markup included) counts no more tokens than the
// budget, and the document's reported total is its own count.
func TestBudgetBoundsRenderedDocument(t *testing.T) {
	files := map[string]string{}
	var paths []string
	for i := range 12 {
		rel := fmt.Sprintf("dir/sub/file_%02d.go", i)
		files[rel] = strings.Repeat(fmt.Sprintf("x%d := f(%d)\n", i, i*7), 1+i%4)
		paths = append(paths, rel)
	}
	p := fixture(t, files)
	c := counter(t)
	for _, style := range []string{contextgen.StyleXML, contextgen.StyleMarkdown, contextgen.StylePlain} {
		for budget := 40; budget <= 700; budget += 30 {
			doc, err := contextgen.Assemble(context.Background(), literalTask(paths...),
				contextgen.Options{Project: p, Counter: c, MaxTokens: budget, Style: style})
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			if err := doc.Render(&b, style); err != nil {
				t.Fatal(err)
			}
			got := c.Count(b.Bytes())
			if got > budget {
				t.Errorf("%s, budget %d: the rendered document has %d tokens (%d files)", style, budget, got, len(doc.Files))
			}
			if doc.Totals.Tokens == nil || *doc.Totals.Tokens < got-len(doc.Files) || *doc.Totals.Tokens > got+len(doc.Files) {
				t.Errorf("%s, budget %d: totals.tokens = %d, the rendered document has %d", style, budget, deref(doc.Totals.Tokens), got)
			}
			if len(doc.Files) < len(paths) && *doc.Totals.Tokens+30 < budget/2 {
				t.Errorf("%s, budget %d: kept only %d tokens", style, budget, *doc.Totals.Tokens)
			}
		}
	}
}

// TestBudgetBelowTheMarkup: a budget too small for the document's own
// markup cannot be kept; the document says so with a BUDGET_EXCEEDED
// warning of its own (no path), and only then.
func TestBudgetBelowTheMarkup(t *testing.T) {
	p := fixture(t, map[string]string{"a.txt": "hello world\n", "b.txt": "one two three\n"})
	c := counter(t)
	for _, style := range []string{contextgen.StyleXML, contextgen.StyleMarkdown, contextgen.StylePlain} {
		for budget := 1; budget <= 120; budget++ {
			doc, err := contextgen.Assemble(context.Background(), literalTask("a.txt", "b.txt"),
				contextgen.Options{Project: p, Counter: c, MaxTokens: budget, Style: style})
			if err != nil {
				t.Fatal(err)
			}
			over := *doc.Totals.Tokens > budget
			warned := false
			for _, w := range doc.Warnings {
				if w.Code == "BUDGET_EXCEEDED" && w.Path == "" {
					warned = true
					if want := fmt.Sprintf("the document is %d tokens, over the budget of %d", *doc.Totals.Tokens, budget); !strings.HasPrefix(w.Message, want) {
						t.Errorf("%s, budget %d: %q, want it to start %q", style, budget, w.Message, want)
					}
				}
			}
			if warned != over {
				t.Errorf("%s, budget %d: document of %d tokens, warned %v", style, budget, *doc.Totals.Tokens, warned)
			}
			if budget == 1 && !over {
				t.Errorf("%s: a document of %d tokens within a budget of 1", style, *doc.Totals.Tokens)
			}
		}
	}
}

// TestRenderPlainCounts: the plain style gives token counts per file and in
// total, as xml and markdown do.
func TestRenderPlainCounts(t *testing.T) {
	p := fixture(t, map[string]string{"a.txt": "hello world\n", "b.txt": "one two three\n"})
	doc, err := contextgen.Assemble(context.Background(), literalTask("a.txt", "b.txt"),
		contextgen.Options{Project: p, Counter: counter(t), Style: contextgen.StylePlain})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := doc.Render(&b, contextgen.StylePlain); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, f := range doc.Files {
		if want := fmt.Sprintf("==> %s <== (%d tokens)\n", f.Path, *f.Tokens); !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	if want := fmt.Sprintf("2 files, %d bytes, %d tokens (o200k_base)\n", doc.Totals.Bytes, *doc.Totals.Tokens); !strings.HasPrefix(out, want) {
		t.Errorf("plain document does not start with %q:\n%s", want, out)
	}
}

func deref(p *int) int {
	if p == nil {
		return -1
	}
	return *p
}

// TestLinesAndBytesDescribeTheFile: a file's bytes and lines are the file's
// own, whether or not its content was cut.
func TestLinesAndBytesDescribeTheFile(t *testing.T) {
	content := strings.Repeat("0123456789\n", 20)
	p := fixture(t, map[string]string{"a.txt": content})
	task := &template.Task{Name: "t", Description: "t", Sources: []template.FileSource{{Kind: template.SourceLiteral,
		Paths: []template.PathSpec{{Value: "a.txt", MaxLines: 3}}}}}
	doc, err := contextgen.Assemble(context.Background(), task, contextgen.Options{Project: p})
	if err != nil {
		t.Fatal(err)
	}
	if len(doc.Files) != 1 {
		t.Fatalf("files: %+v, warnings %+v", doc.Files, doc.Warnings)
	}
	f := doc.Files[0]
	if !f.Truncated || f.Bytes != int64(len(content)) || f.Lines != 20 {
		t.Errorf("truncated=%v bytes=%d lines=%d, want true, %d, 20 (the file's own)", f.Truncated, f.Bytes, f.Lines, len(content))
	}
}

// TestLegacyEncodingReported: GBK text is not labelled utf-8, and the
// warning says what was done to its content.
func TestLegacyEncodingReported(t *testing.T) {
	gbk := "// \xd6\xd0\xce\xc4\xce\xc4\xb1\xbe\xc4\xda\xc8\xdd\n"
	p := fixture(t, map[string]string{"gbk.txt": gbk})
	doc, err := contextgen.Assemble(context.Background(), literalTask("gbk.txt"), contextgen.Options{Project: p})
	if err != nil {
		t.Fatal(err)
	}
	if len(doc.Files) != 1 || doc.Files[0].Encoding != "unknown" {
		t.Fatalf("files %+v, want one with encoding unknown", doc.Files)
	}
	var msgs []string
	for _, w := range doc.Warnings {
		msgs = append(msgs, string(w.Code)+": "+w.Message)
	}
	all := strings.Join(msgs, "\n")
	if !strings.Contains(all, "INVALID_UTF8") || !strings.Contains(all, "12 non-ASCII bytes") ||
		!strings.Contains(all, "Windows-1252") || !strings.Contains(all, "garbled") {
		t.Errorf("warnings do not say what was done:\n%s", all)
	}
}

// TestPlainEscapesCounted: the plain style's escapes are counted as
// rendered. A backslash before "==>" is a token of its own, but one more
// before a run of backslashes may merge with it (no token more, or one
// fewer): the total counted one a line and was off by up to two a line.
func TestPlainEscapesCounted(t *testing.T) {
	content := strings.Repeat("==> x\n", 50) + strings.Repeat(`\\\\\\\==> y`+"\n", 50) + strings.Repeat(`\==>`+"\n", 20)
	p := fixture(t, map[string]string{"a.txt": content})
	c := counter(t)
	doc, err := contextgen.Assemble(context.Background(), literalTask("a.txt"),
		contextgen.Options{Project: p, Counter: c, Style: contextgen.StylePlain})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := doc.Render(&b, contextgen.StylePlain); err != nil {
		t.Fatal(err)
	}
	if got := c.Count(b.Bytes()); doc.Totals.Tokens == nil || *doc.Totals.Tokens < got-1 || *doc.Totals.Tokens > got+1 {
		t.Errorf("totals.tokens = %d, the rendered document has %d", deref(doc.Totals.Tokens), got)
	}
}
