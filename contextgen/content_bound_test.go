package contextgen_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/taskctl/taskctl/contextgen"
	"github.com/taskctl/taskctl/internal/diag"
	"github.com/taskctl/taskctl/root"
)

// TestContentBound (#30 point 6): the file content one document holds is
// bounded whatever the repository holds (a 196 KB .git checked out 30
// files of 10 MiB and assemble took 6 GB): files are admitted in the
// document's order until the bound, the rest left out with
// BUDGET_EXCEEDED before they are read, the same ones on every run.
func TestContentBound(t *testing.T) {
	files := map[string]string{}
	var paths []string
	for i := range 8 {
		rel := fmt.Sprintf("d/f%d.txt", i)
		files[rel] = strings.Repeat("0123456789abcde\n", 64<<10) // 1 MiB
		paths = append(paths, rel)
	}
	p := fixturePolicy(t, files, root.Policy{MaxFileBytes: 2 << 20})
	for range 3 {
		doc, err := contextgen.Assemble(context.Background(), literalTask(paths...),
			contextgen.Options{Project: p, MaxContentBytes: 3<<20 + 100})
		if err != nil {
			t.Fatal(err)
		}
		var kept []string
		held := 0
		for _, f := range doc.Files {
			kept = append(kept, f.Rel)
			held += len(f.Content)
		}
		if strings.Join(kept, " ") != "d/f0.txt d/f1.txt d/f2.txt" || held > 3<<20+100 {
			t.Fatalf("kept %v (%d bytes), want the first three files", kept, held)
		}
		left := 0
		for _, w := range doc.Warnings {
			if w.Code == diag.BudgetExceeded {
				left++
			}
		}
		if left != 5 || len(doc.Omitted) != 5 {
			t.Errorf("%d BUDGET_EXCEEDED warnings, %d omitted; want 5: %+v", left, len(doc.Omitted), doc.Warnings)
		}
	}
}
