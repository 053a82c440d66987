package template_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/taskctl/taskctl/template"
)

func FuzzParse(f *testing.F) {
	seeds, _ := filepath.Glob("../examples/demo/.taskctl/tasks/*.xml")
	more, _ := filepath.Glob("../schema/testdata/valid/*.xml")
	for _, p := range append(seeds, more...) {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte(`<task><description>{{a}}</description></task>`))
	f.Add([]byte(`<tasks><task name="a" type="sequential"><description>x</description><steps><task name="a"/></steps></task></tasks>`))
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := template.Parse("f.xml", data)
		if err != nil {
			var te *template.Error
			if !errors.As(err, &te) || len(te.Problems) == 0 {
				t.Fatalf("error %v is not a *template.Error with problems", err)
			}
			for _, p := range te.Problems {
				if p.Line < 1 || p.Col < 1 {
					t.Fatalf("bad position %+v", p)
				}
			}
			return
		}
		for _, task := range file.Tasks {
			b, err := task.Bind(map[string]string{})
			if err == nil {
				for _, s := range b.Steps {
					s.Bind(nil)
				}
			}
			_ = task.EffectiveContext()
		}
	})
}

func BenchmarkParse(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("<tasks>\n")
	for i := range 50 {
		fmt.Fprintf(&sb, `<task name="t%d"><description>task %d in {{area}}</description><inputs><input name="area" default="src"/></inputs>
<file_paths><path>{{area}}/**/*.go</path></file_paths><file_paths source="command"><command>grep -rl TODO "$area"</command></file_paths></task>
`, i, i)
	}
	sb.WriteString("</tasks>\n")
	data := []byte(sb.String())
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := template.Parse("b.xml", data); err != nil {
			b.Fatal(err)
		}
	}
}
