package template_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/taskctl/taskctl/template"
)

// TestParseManySteps guards against checks whose cost grows with the square
// of the number of tasks: 20,000 steps, each bound to the one before it, once
// took over four minutes to check.
func TestParseManySteps(t *testing.T) {
	if testing.Short() {
		t.Skip("large input")
	}
	var b strings.Builder
	b.WriteString(`<task name="s" type="sequential"><description>d</description><steps>` + "\n")
	const n = 20000
	for i := range n {
		from := ""
		if i > 0 {
			from = fmt.Sprintf(`<inputs><input name="prev" from="t%d.output"/></inputs>`, i-1)
		}
		fmt.Fprintf(&b, "<task name=\"t%d\"><description>d</description>%s</task>\n", i, from)
	}
	b.WriteString("</steps></task>\n")
	start := time.Now()
	f, err := template.Parse("big.xml", []byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	if got := len(f.Tasks[0].Steps); got != n {
		t.Fatalf("%d steps, want %d", got, n)
	}
	// Generous: linear checking takes well under a second here.
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("Parse of %d steps took %v", n, d)
	}
}
