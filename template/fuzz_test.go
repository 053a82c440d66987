package template_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/taskctl/taskctl/template"
)

// FuzzParse: Parse never panics; its errors are *Error with positioned
// problems; what it accepts binds (with no vars) without panicking, and a
// bound task's steps bind too.
func FuzzParse(f *testing.F) {
	files, err := filepath.Glob("testdata/*.xml")
	if err != nil || len(files) == 0 {
		f.Fatalf("no seeds in testdata: %v", err)
	}
	shared, _ := filepath.Glob(filepath.Join(corpus, "templates", "*", "*.xml"))
	files = append(files, shared...)
	for _, p := range files {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
		for _, twin := range twins(string(data)) {
			f.Add(twin)
		}
	}
	for _, c := range checkTests {
		f.Add([]byte(c.doc))
	}
	f.Add([]byte(flow))
	f.Add([]byte(nested(template.MaxDepth + 1)))
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := template.Parse("f.xml", data)
		if err != nil {
			var te *template.Error
			if !errors.As(err, &te) || len(te.Problems) == 0 {
				t.Fatalf("error %v is not a *template.Error with problems", err)
			}
			lines := bytes.Count(data, []byte("\n")) + 1
			for i, p := range te.Problems {
				if p.Line < 1 || p.Col < 1 || p.Line > lines || p.File != "f.xml" {
					t.Fatalf("bad position %+v (the data has %d lines)", p, lines)
				}
				if err := wellPlaced(data, p); err != nil {
					t.Fatal(err)
				}
				if i > 0 {
					q := te.Problems[i-1]
					if q.Line > p.Line || q.Line == p.Line && q.Col > p.Col {
						t.Fatalf("problems out of order: %+v before %+v", q, p)
					}
				}
			}
			return
		}
		if file == nil || len(file.Tasks) == 0 {
			t.Fatal("Parse accepted a file with no tasks")
		}
		for _, w := range file.Warnings {
			if w.Code == "" || w.File != "f.xml" {
				t.Fatalf("warning without a code or file: %+v", w)
			}
			if err := wellPlaced(data, w); err != nil {
				t.Fatal(err)
			}
		}
		var bindAll func(ts []*template.Task)
		bindAll = func(ts []*template.Task) {
			for _, task := range ts {
				_ = task.EffectiveContext()
				_ = task.Declared()
				b, err := task.Bind(map[string]string{})
				if err != nil {
					var ie *template.InputError
					if !errors.As(err, &ie) {
						t.Fatalf("Bind: %v", err)
					}
					continue
				}
				bindAll(b.Steps)
			}
		}
		bindAll(file.Tasks)
	})
}

// library is a <tasks> file of n tasks, each with an input, a default used
// in its text, a literal and a command source, and one in three sequential
// with two steps, the second bound to the first.
func library(n int) []byte {
	var b strings.Builder
	b.WriteString("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<tasks>\n")
	for i := range n {
		steps := ""
		typ := "atomic"
		if i%3 == 0 {
			typ = "sequential"
			steps = fmt.Sprintf(`
    <steps>
      <task name="t%d-plan"><description>plan {{area}}</description></task>
      <task name="t%d-do"><description>do {{plan}}</description><inputs><input name="plan" from="t%d-plan.output"/></inputs></task>
    </steps>`, i, i, i)
		}
		fmt.Fprintf(&b, `  <task name="t%d" type="%s">
    <description>task %d in {{area}}</description>
    <instructions>Look at {{area}} closely.</instructions>
    <inputs><input name="area" default="src" relevant="true">where to look</input></inputs>
    <context_management><inherit_context>subset</inherit_context><max_tokens>8000</max_tokens></context_management>
    <file_paths max_files="20"><path max_lines="200">{{area}}/**/*.go</path><path>README.md</path></file_paths>
    <file_paths source="command" include="src/**"><command timeout="5">grep -rl TODO "$area"</command></file_paths>
    <output_format type="json"/>%s
  </task>
`, i, typ, i, steps)
	}
	b.WriteString("</tasks>\n")
	return []byte(b.String())
}

func BenchmarkParse(b *testing.B) {
	data := library(50)
	if _, err := template.Parse("lib.xml", data); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := template.Parse("lib.xml", data); err != nil {
			b.Fatal(err)
		}
	}
}
