package template_test

import (
	"errors"
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

// TestParseManyVars guards the positions of {{var}} problems against a cost
// that grows with the square of the text: 100,000 undeclared references in
// one description, each reported where it is written.
func TestParseManyVars(t *testing.T) {
	if testing.Short() {
		t.Skip("large input")
	}
	const n = 100000
	doc := "<task><description>" + strings.Repeat("{{x}} &amp; ", n) + "</description></task>"
	start := time.Now()
	_, err := template.Parse("t.xml", []byte(doc))
	var te *template.Error
	if !errors.As(err, &te) || len(te.Problems) != n {
		t.Fatalf("Parse: want %d problems, got %v", n, err)
	}
	last := te.Problems[n-1]
	if want := 20 + (n-1)*len("{{x}} &amp; "); last.Line != 1 || last.Col != want {
		t.Errorf("last problem at %d:%d, want 1:%d", last.Line, last.Col, want)
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("Parse took %v", d)
	}
}
