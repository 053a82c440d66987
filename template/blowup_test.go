package template_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/taskctl/taskctl/template"
)

// Defaults that use each other twice over double at every input: 40 of them
// would make a terabyte. Bind stops with an error instead.
func TestBindDoesNotExplode(t *testing.T) {
	var b strings.Builder
	b.WriteString(`<task name="t"><description>{{x39}}</description><inputs><input name="x0" default="ab"/>`)
	for i := 1; i < 40; i++ {
		fmt.Fprintf(&b, `<input name="x%d" default="{{x%d}}{{x%d}}"/>`, i, i-1, i-1)
	}
	b.WriteString(`</inputs></task>`)
	f := mustParse(t, b.String())
	_, err := f.Tasks[0].Bind(nil)
	const want = `task "t": default of input "x`
	if err == nil || !strings.HasPrefix(err.Error(), want) || !strings.Contains(err.Error(), "after {{...}} substitution") {
		t.Fatalf("Bind = %v, want an error starting %q", err, want)
	}
	// Large but within bounds: one default of a MiB, used once in the text.
	big := strings.Repeat("y", 1<<20)
	g := mustParse(t, `<task name="t"><description>[{{a}}]</description><inputs><input name="a" default="`+big+`"/></inputs></task>`)
	bt, err := g.Tasks[0].Bind(nil)
	if err != nil || len(bt.Description) != 1<<20+2 {
		t.Fatalf("Bind of a 1 MiB default: %v", err)
	}
	_ = template.MaxDepth
}
