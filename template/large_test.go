package template_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/taskctl/taskctl/template"
)

// manySteps is a sequential task of n steps, each bound to the one before it.
func manySteps(n int) []byte {
	var b strings.Builder
	b.WriteString(`<task name="s" type="sequential"><description>d</description><steps>` + "\n")
	for i := range n {
		from := ""
		if i > 0 {
			from = fmt.Sprintf(`<inputs><input name="prev" from="t%d.output"/></inputs>`, i-1)
		}
		fmt.Fprintf(&b, "<task name=\"t%d\"><description>d</description>%s</task>\n", i, from)
	}
	b.WriteString("</steps></task>\n")
	return []byte(b.String())
}

// TestParseManySteps checks a long chain of steps whole. Checks whose cost
// grew with the square of the number of tasks once took minutes here; that
// cost is watched by BenchmarkParseSteps (tests assert no timings).
func TestParseManySteps(t *testing.T) {
	if testing.Short() {
		t.Skip("large input")
	}
	const n = 20000
	f, err := template.Parse("big.xml", manySteps(n))
	if err != nil {
		t.Fatal(err)
	}
	if got := len(f.Tasks[0].Steps); got != n {
		t.Fatalf("%d steps, want %d", got, n)
	}
}

// TestParseManyVars: 100,000 undeclared references in one description, each
// reported where it is written (their cost is BenchmarkParseVars's).
func TestParseManyVars(t *testing.T) {
	if testing.Short() {
		t.Skip("large input")
	}
	const n = 100000
	_, err := template.Parse("t.xml", manyVars(n))
	var te *template.Error
	if !errors.As(err, &te) || len(te.Problems) != n {
		t.Fatalf("Parse: want %d problems, got %v", n, err)
	}
	last := te.Problems[n-1]
	if want := 20 + (n-1)*len("{{x}} &amp; "); last.Line != 1 || last.Col != want {
		t.Errorf("last problem at %d:%d, want 1:%d", last.Line, last.Col, want)
	}
}

// manyVars is a task whose description makes n undeclared references.
func manyVars(n int) []byte {
	return []byte("<task><description>" + strings.Repeat("{{x}} &amp; ", n) + "</description></task>")
}

// BenchmarkParseSteps and BenchmarkParseVars show how parsing grows with the
// input: the time per op of the larger size should be about 4× the smaller,
// not 16×.
func BenchmarkParseSteps(b *testing.B) {
	for _, n := range []int{5000, 20000} {
		doc := manySteps(n)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for b.Loop() {
				if _, err := template.Parse("big.xml", doc); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkParseVars(b *testing.B) {
	for _, n := range []int{25000, 100000} {
		doc := manyVars(n)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for b.Loop() {
				template.Parse("t.xml", doc)
			}
		})
	}
}
