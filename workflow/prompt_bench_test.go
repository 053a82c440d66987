package workflow

import (
	"strings"
	"testing"

	"github.com/taskctl/taskctl/template"
)

// BenchmarkPrompt renders a prompt around a 4 MiB context document of Go
// source in the XML style (checked to be one <context> element) and the
// markdown style (written as CDATA), the two costs of a prompt's document.
func BenchmarkPrompt(b *testing.B) {
	src := "func f(a, b int) bool {\n\treturn a < b && b > 0 // ok\n}\n"
	body := strings.Repeat(src, 4<<20/len(src))
	docs := map[string]string{
		"xml":      "<context task=\"t\">\n<file path=\"/p/a.go\"><![CDATA[" + body + "]]></file>\n</context>\n",
		"markdown": "# Context: t\n\n## /p/a.go\n\n```go\n" + body + "```\n",
	}
	task := &template.Task{Name: "t", Description: "d"}
	for _, style := range []string{"xml", "markdown"} {
		doc := docs[style]
		b.Run(style, func(b *testing.B) {
			b.SetBytes(int64(len(doc)))
			for b.Loop() {
				if p := prompt(task, nil, "", doc, false); len(p) < len(doc) {
					b.Fatal("short prompt")
				}
			}
		})
	}
}
